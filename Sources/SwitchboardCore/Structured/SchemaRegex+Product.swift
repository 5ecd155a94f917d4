extension SchemaRegex {
    /// The strings this automaton and `other` both match: what the decoder follows for a string with a
    /// `pattern` and a `format` (zod writes both for `z.email()`, `z.uuid()`, `z.iso.date()`, …), so
    /// what it generates matches the pattern and is generated as the format.
    package func intersecting(_ other: SchemaRegex) throws(RegexError) -> SchemaRegex {
        try product(other, source: "(?=\(other.source))\(source)") { $0 && $1 }
    }

    /// Whether no string matches (the start state cannot reach an accepting one).
    package var isEmpty: Bool {
        var seen: Set<Int> = [0]
        var stack = [0]
        while let state = stack.popLast() {
            if accepting[state] { return false }
            for c in 0..<classCount {
                let next = Int(transitions[state * classCount + c])
                if next >= 0, seen.insert(next).inserted { stack.append(next) }
            }
        }
        return true
    }

    /// The product automaton, accepting where `accept(self accepts, other accepts)` holds. A state of
    /// either automaton that is -1 (no match possible) is a sink there, so a product can also accept
    /// what one side refuses (`^(?!X)` is `accept: a && !b`). States from which nothing is accepted
    /// become -1 again, so the decoder's reachability and `matches`' early exit stay exact.
    func product(_ other: SchemaRegex, source: String, accept: (Bool, Bool) -> Bool) throws(RegexError) -> SchemaRegex {
        let starts = Array(Set(classStarts).union(other.classStarts)).sorted()
        let ours = starts.map(classIndex), theirs = starts.map(other.classIndex)
        let classes = starts.count
        func step(_ regex: SchemaRegex, _ state: Int, _ cls: Int) -> Int {
            state < 0 ? -1 : Int(regex.transitions[state * regex.classCount + cls])
        }
        struct Pair: Hashable { let a: Int, b: Int }
        var index: [Pair: Int] = [Pair(a: 0, b: 0): 0]
        var pairs = [Pair(a: 0, b: 0)]
        var transitions: [Int] = []
        var work = 0
        var done = 0
        while done < pairs.count {
            let pair = pairs[done]
            done += 1
            work += classes
            guard work <= Self.maxWork * 4 else { throw .tooComplex("its combined automaton takes more than \(Self.maxWork * 4) steps") }
            for c in 0..<classes {
                let next = Pair(a: step(self, pair.a, ours[c]), b: step(other, pair.b, theirs[c]))
                if let known = index[next] { transitions.append(known); continue }
                guard pairs.count < Self.maxDFAStates else { throw .tooComplex("more than \(Self.maxDFAStates) combined automaton states") }
                index[next] = pairs.count
                transitions.append(pairs.count)
                pairs.append(next)
            }
        }
        let accepting = pairs.map { accept($0.a >= 0 && self.accepting[$0.a], $0.b >= 0 && other.accepting[$0.b]) }
        // Keep the states that can still reach an accepting one (a reverse search), renumbered in order.
        var reverse = [[Int]](repeating: [], count: pairs.count)
        for (s, t) in transitions.enumerated() { reverse[t].append(s / classes) }
        var live = accepting
        var stack = accepting.indices.filter { accepting[$0] }
        while let state = stack.popLast() {
            for from in reverse[state] where !live[from] {
                live[from] = true
                stack.append(from)
            }
        }
        live[0] = true   // the start stays, even when nothing matches
        var renumbered = [Int](repeating: -1, count: pairs.count)
        var count = 0
        for s in pairs.indices where live[s] { renumbered[s] = count; count += 1 }
        var table: [Int32] = []
        table.reserveCapacity(count * classes)
        var finalAccepting: [Bool] = []
        for s in pairs.indices where live[s] {
            finalAccepting.append(accepting[s])
            for c in 0..<classes { table.append(Int32(renumbered[transitions[s * classes + c]])) }
        }
        return SchemaRegex(source: source, classStarts: starts, transitions: table, accepting: finalAccepting)
    }
}
