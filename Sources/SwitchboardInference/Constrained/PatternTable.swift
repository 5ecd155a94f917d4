/// A string pattern (`JSONGrammar.Pattern`) prepared for decoding: how far each state is from a
/// match, in characters (for `maxLength`) and in bytes as written in a JSON string (for the token
/// budget), and which scalars lead on to a state that can still match, so a multi-byte character
/// is refused at its first byte when no completion of it can match.
struct PatternTable: Sendable {
    let pattern: JSONGrammar.Pattern
    let classCount: Int
    /// Fewest characters from each state to an accepting one (`Cost.infinite`: none).
    let charDistance: [Int]
    /// Fewest bytes of such characters as JSON writes them (escapes are two bytes).
    let byteDistance: [Int]
    /// Per state: the scalars (merged ranges) whose transition leads to a state that can still match.
    let liveRanges: [[ClosedRange<UInt32>]]

    static let maxStates = 4096

    init(_ pattern: JSONGrammar.Pattern) throws(ConstraintError) {
        let classes = pattern.classStarts.count, states = pattern.accepting.count
        guard classes > 0, pattern.classStarts[0] == 0, states > 0, states <= Self.maxStates,
              zip(pattern.classStarts, pattern.classStarts.dropFirst()).allSatisfy({ $0 < $1 }),
              pattern.transitions.count == classes * states,
              pattern.transitions.allSatisfy({ $0 >= -1 && Int($0) < states }) else {
            throw .unsupportedGrammar("a malformed pattern automaton")
        }
        self.pattern = pattern
        classCount = classes
        // Per class: the scalars JSON can write in it, and the cheapest one's byte count.
        var writable: [[ClosedRange<UInt32>]] = []
        var cheapest: [Int] = []
        for c in 0..<classes {
            let low = pattern.classStarts[c], high = c + 1 < classes ? pattern.classStarts[c + 1] - 1 : 0x10FFFF
            let ranges = Self.writable.compactMap { w -> ClosedRange<UInt32>? in
                let a = max(low, w.lowerBound), b = min(high, w.upperBound)
                return a <= b ? a...b : nil
            }
            writable.append(ranges)
            var best = Cost.infinite
            for range in ranges {
                for candidate in [range.lowerBound, range.lowerBound &+ 1, max(range.lowerBound, 0x23), max(range.lowerBound, 0x5D)]
                where range.contains(candidate) { best = min(best, Self.byteCount(candidate)) }
            }
            cheapest.append(best)
        }
        // Distances by Dial's algorithm on the reversed transitions (weights 1…4).
        var reverse = [[(from: Int, cls: Int)]](repeating: [], count: states)
        for s in 0..<states {
            for c in 0..<classes where cheapest[c] < Cost.infinite {
                let t = Int(pattern.transitions[s * classes + c])
                if t >= 0 { reverse[t].append((s, c)) }
            }
        }
        func distances(_ weight: (Int) -> Int) -> [Int] {
            var dist = [Int](repeating: Cost.infinite, count: states)
            var buckets: [[Int]] = [[]]
            for s in 0..<states where pattern.accepting[s] { dist[s] = 0; buckets[0].append(s) }
            var d = 0
            while d < buckets.count {
                var i = 0
                while i < buckets[d].count {
                    let t = buckets[d][i]
                    i += 1
                    guard dist[t] == d else { continue }
                    for (s, c) in reverse[t] {
                        let nd = d + weight(c)
                        if nd < dist[s] {
                            dist[s] = nd
                            while buckets.count <= nd { buckets.append([]) }
                            buckets[nd].append(s)
                        }
                    }
                }
                d += 1
            }
            return dist
        }
        charDistance = distances { _ in 1 }
        byteDistance = distances { cheapest[$0] }
        var live: [[ClosedRange<UInt32>]] = []
        for s in 0..<states {
            var ranges: [ClosedRange<UInt32>] = []
            for c in 0..<classes {
                let t = Int(pattern.transitions[s * classes + c])
                if t >= 0, charDistance[t] < Cost.infinite { ranges += writable[c] }
            }
            live.append(ranges)
        }
        liveRanges = live
        guard charDistance[0] < Cost.infinite else { throw .unsupportedGrammar("the pattern matches no string JSON can write") }
    }

    /// Scalars a JSON string can hold: the escapable controls, then everything but surrogates.
    static let writable: [ClosedRange<UInt32>] = [0x08...0x0A, 0x0C...0x0D, 0x20...0xD7FF, 0xE000...0x10FFFF]

    /// Bytes of `scalar` in a JSON string (raw UTF-8, or a two-byte escape).
    static func byteCount(_ scalar: UInt32) -> Int {
        switch scalar {
        case 0..<0x20, 0x22, 0x5C: 2
        case 0..<0x80: 1
        case 0..<0x800: 2
        case 0..<0x10000: 3
        default: 4
        }
    }

    /// The state after `scalar`, or -1.
    func next(_ state: Int, _ scalar: UInt32) -> Int {
        var low = 0, high = classCount - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if pattern.classStarts[mid] <= scalar { low = mid } else { high = mid - 1 }
        }
        return Int(pattern.transitions[state * classCount + low])
    }

    /// Fewest bytes to a match after one character among `scalars` (the rest of a character being read).
    func distanceAfter(_ state: Int, scalars: [ClosedRange<UInt32>]) -> Int {
        var best = Cost.infinite
        for c in 0..<classCount {
            let low = pattern.classStarts[c], high = c + 1 < classCount ? pattern.classStarts[c + 1] - 1 : 0x10FFFF
            guard scalars.contains(where: { $0.lowerBound <= high && $0.upperBound >= low }) else { continue }
            let t = Int(pattern.transitions[state * classCount + c])
            if t >= 0 { best = min(best, byteDistance[t]) }
        }
        return best
    }

    /// A match is reachable from `state` in at most `characters` more characters.
    func canMatch(from state: Int, within characters: Int) -> Bool {
        charDistance[state] < Cost.infinite && charDistance[state] <= characters
    }

    /// Some scalar in `low...high` leads on from `state` to a possible match.
    func canContinue(_ state: Int, _ low: UInt32, _ high: UInt32) -> Bool {
        liveRanges[state].contains { $0.lowerBound <= high && $0.upperBound >= low }
    }
}
