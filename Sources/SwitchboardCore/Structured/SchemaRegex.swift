/// A JSON Schema `pattern`: the ECMA-262 subset schemas use, compiled to a deterministic automaton
/// over Unicode scalars. The validator runs it over a string; the on-device decoder follows the same
/// tables character by character inside a JSON string, so what is generated is what validates.
///
/// Supported: literals and escapes (`\n \t \r \f \v \0 \xHH \uHHHH`, escaped punctuation), `.`,
/// classes `[a-z]`, `[^…]`, `\d \w \s` and their negations, anchors `^ $`, groups `( )`, `(?: )` and
/// named groups, alternation, quantifiers `* + ? {n} {n,} {n,m}` (lazy forms match the same strings).
/// Lookaheads `(?=…)`/`(?!…)` right after a leading `^` (password rules, zod's email) are products of
/// automata. Refused with `RegexError`: backreferences, lookbehind, other lookaheads, `\b`/`\B`, and
/// patterns whose automaton would exceed the state caps (a typed error, never unbounded work).
///
/// `pattern` is a search, not a full match (JSON Schema): the pattern may match anywhere unless
/// anchored, so the automaton is built for `.*pattern.*` with `^`/`$` as assertions.
package struct SchemaRegex: Sendable, Hashable {
    package let source: String
    /// Class `i` is the scalars from `classStarts[i]` up to the next start (the last one to 0x10FFFF).
    package let classStarts: [UInt32]
    /// `transitions[state * classCount + class]`: the next state, or -1 (no match possible).
    package let transitions: [Int32]
    package let accepting: [Bool]

    package var classCount: Int { classStarts.count }
    package var stateCount: Int { accepting.count }

    /// Bounds on the work a pattern from outside may cause.
    static let maxNFAStates = 20_000
    static let maxDFAStates = 2_000
    static let maxRepeat = 1_000
    static let maxWork = 150_000
    static let maxLookaheads = 8

    package init(_ source: String) throws(RegexError) {
        var parser = RegexParser(scalars: Array(source.unicodeScalars))
        let (body, conditions) = Self.splitLookaheads(try parser.parse())
        // Each lookahead is an automaton and a product, each within the caps: bound how many.
        guard conditions.count <= Self.maxLookaheads else { throw .tooComplex("more than \(Self.maxLookaheads) lookaheads") }
        var result = try Self.searchAutomaton(body, source: source)
        // `^(?=X)R` matches what `^R` matches and has a prefix matching X (`^X` as a search);
        // `^(?!X)R` what has none: products of the automata, so lookaheads cost nothing per character.
        for (condition, negative) in conditions {
            let prefix = try Self.searchAutomaton(.sequence([.startAnchor, condition]), source: source)
            result = try result.product(prefix, source: source) { negative ? $0 && !$1 : $0 && $1 }
        }
        self = result
    }

    init(source: String, classStarts: [UInt32], transitions: [Int32], accepting: [Bool]) {
        self.source = source
        self.classStarts = classStarts
        self.transitions = transitions
        self.accepting = accepting
    }

    /// The automaton of `tree` as a search: `.*` before and after, anchored only where it says so.
    private static func searchAutomaton(_ tree: RegexNode, source: String) throws(RegexError) -> SchemaRegex {
        var nfa = RegexNFA()
        let body = try nfa.build(tree)
        let any = nfa.addSet(RegexParser.anyScalar)
        let head = nfa.newState(), tail = nfa.newState()
        nfa.edges[head].append(.chars(any, head))
        nfa.edges[head].append(.epsilon(body.start))
        nfa.edges[body.end].append(.epsilon(tail))
        nfa.edges[tail].append(.chars(any, tail))
        let dfa = try RegexDFA(nfa: nfa, start: head, accept: tail)
        return SchemaRegex(source: source, classStarts: dfa.classStarts, transitions: dfa.transitions, accepting: dfa.accepting)
    }

    /// Lookaheads right after a leading `^` (zod's email: `^(?!\.)(?!.*\.\.)…$`), taken out of the
    /// pattern. Lookaheads anywhere else stay in the tree, and the NFA refuses them.
    private static func splitLookaheads(_ tree: RegexNode) -> (RegexNode, [(RegexNode, negative: Bool)]) {
        guard case .sequence(let items) = tree, case .startAnchor? = items.first else { return (tree, []) }
        var conditions: [(RegexNode, negative: Bool)] = []
        var rest = items.dropFirst()
        while case .lookahead(let inner, let negative)? = rest.first {
            conditions.append((inner, negative))
            rest = rest.dropFirst()
        }
        return (.sequence([.startAnchor] + rest), conditions)
    }

    /// The class of `scalar` (binary search over the class starts).
    package func classIndex(_ scalar: UInt32) -> Int {
        var low = 0, high = classStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if classStarts[mid] <= scalar { low = mid } else { high = mid - 1 }
        }
        return low
    }

    package func next(_ state: Int, _ scalar: UInt32) -> Int {
        Int(transitions[state * classCount + classIndex(scalar)])
    }

    /// Whether the pattern matches somewhere in `text`.
    package func matches(_ text: String) -> Bool {
        var state = 0
        for scalar in text.unicodeScalars {
            state = next(state, scalar.value)
            if state < 0 { return false }
        }
        return accepting[state]
    }

    package static func == (a: SchemaRegex, b: SchemaRegex) -> Bool { a.source == b.source }
    package func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// Why a pattern cannot be used.
package enum RegexError: Error, Sendable, Hashable, CustomStringConvertible {
    case syntax(String)
    case unsupported(String)
    case tooComplex(String)

    package var description: String {
        switch self {
        case .syntax(let reason): "the pattern is not a valid regular expression: \(reason)"
        case .unsupported(let reason): "the pattern uses \(reason), which is not supported"
        case .tooComplex(let reason): "the pattern is too complex: \(reason)"
        }
    }
}

indirect enum RegexNode: Sendable {
    case set([ClosedRange<UInt32>])
    case sequence([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?)
    case startAnchor, endAnchor
    case lookahead(RegexNode, negative: Bool)
}

/// Recursive descent over the pattern's scalars.
struct RegexParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var depth = 0

    static let anyScalar: [ClosedRange<UInt32>] = [0...0x10FFFF]
    static let dot: [ClosedRange<UInt32>] = [0...0x09, 0x0B...0x0C, 0x0E...0x2027, 0x202A...0x10FFFF]
    static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
    static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
                                               0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF]

    var atEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    mutating func parse() throws(RegexError) -> RegexNode {
        let node = try alternation()
        guard atEnd else { throw .syntax("unmatched ')' at \(index)") }
        return node
    }

    private mutating func alternation() throws(RegexError) -> RegexNode {
        depth += 1
        defer { depth -= 1 }
        guard depth < 100 else { throw .tooComplex("groups nested deeper than 100") }
        var branches = [try sequence()]
        while peek == "|" { index += 1; branches.append(try sequence()) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek, c != "|", c != ")" {
            var atom = try self.atom()
            while let (min, max) = try quantifier() {
                if case .startAnchor = atom { throw .syntax("nothing to repeat") }
                if case .endAnchor = atom { throw .syntax("nothing to repeat") }
                if case .lookahead = atom { throw .unsupported("a repeated lookahead") }
                atom = .repetition(atom, min: min, max: max)
            }
            items.append(atom)
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func quantifier() throws(RegexError) -> (Int, Int?)? {
        guard let c = peek else { return nil }
        var result: (Int, Int?)
        switch c {
        case "*": index += 1; result = (0, nil)
        case "+": index += 1; result = (1, nil)
        case "?": index += 1; result = (0, 1)
        case "{":
            guard let braces = try braceQuantifier() else { return nil }
            result = braces
        default: return nil
        }
        if peek == "?" { index += 1 }   // lazy: the same strings match
        return result
    }

    /// `{n}`, `{n,}` or `{n,m}`; anything else is a literal `{` (ECMA-262 Annex B).
    private mutating func braceQuantifier() throws(RegexError) -> (Int, Int?)? {
        var i = index + 1
        func number(_ i: inout Int) -> Int? {
            var value = 0, digits = 0
            while i < scalars.count, let d = Int(exactly: scalars[i].value), d >= 0x30, d <= 0x39 {
                value = min(value * 10 + d - 0x30, 1_000_000)
                digits += 1
                i += 1
            }
            return digits > 0 ? value : nil
        }
        guard let low = number(&i) else { return nil }
        var high: Int? = low
        if i < scalars.count, scalars[i] == "," {
            i += 1
            high = number(&i)
        }
        guard i < scalars.count, scalars[i] == "}" else { return nil }
        index = i + 1
        guard low <= SchemaRegex.maxRepeat, (high ?? 0) <= SchemaRegex.maxRepeat else { throw .tooComplex("a repetition count above \(SchemaRegex.maxRepeat)") }
        if let high, high < low { throw .syntax("numbers out of order in {\(low),\(high)}") }
        return (low, high)
    }

    private mutating func atom() throws(RegexError) -> RegexNode {
        let c = scalars[index]
        index += 1
        switch c {
        case "^": return .startAnchor
        case "$": return .endAnchor
        case ".": return .set(Self.dot)
        case "*", "+", "?": throw .syntax("nothing to repeat at \(index - 1)")
        case "[": return .set(try characterClass())
        case "\\": return .set(try escape(inClass: false))
        case "(":
            if peek == "?" {
                index += 1
                switch peek {
                case ":": index += 1
                case "=", "!":
                    let negative = peek == "!"
                    index += 1
                    let inner = try alternation()
                    guard peek == ")" else { throw .syntax("missing ')'") }
                    index += 1
                    return .lookahead(inner, negative: negative)
                case "<":
                    index += 1
                    if peek == "=" || peek == "!" { throw .unsupported("lookbehind") }
                    while let n = peek, n != ">" { index += 1 }
                    guard peek == ">" else { throw .syntax("unterminated group name") }
                    index += 1
                default: throw .syntax("unknown group modifier")
                }
            }
            let inner = try alternation()
            guard peek == ")" else { throw .syntax("missing ')'") }
            index += 1
            return inner
        case ")": throw .syntax("unmatched ')'")
        default: return .set([c.value...c.value])
        }
    }

    private mutating func characterClass() throws(RegexError) -> [ClosedRange<UInt32>] {
        var negated = false
        if peek == "^" { negated = true; index += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        while true {
            guard let c = peek else { throw .syntax("missing ']'") }
            if c == "]" { index += 1; break }
            let low = try classAtom()
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                let high = try classAtom()
                guard low.count == 1, high.count == 1, low[0].lowerBound == low[0].upperBound,
                      high[0].lowerBound == high[0].upperBound else {
                    // `[\d-z]`: a class in a range is taken literally by browsers; refuse it here.
                    throw .unsupported("a character class as a range end")
                }
                guard low[0].lowerBound <= high[0].lowerBound else { throw .syntax("range out of order in character class") }
                ranges.append(low[0].lowerBound...high[0].lowerBound)
            } else {
                ranges += low
            }
        }
        let merged = Self.normalized(ranges)
        return negated ? Self.complement(merged) : merged
    }

    private mutating func classAtom() throws(RegexError) -> [ClosedRange<UInt32>] {
        let c = scalars[index]
        index += 1
        if c == "\\" { return try escape(inClass: true) }
        return [c.value...c.value]
    }

    private mutating func escape(inClass: Bool) throws(RegexError) -> [ClosedRange<UInt32>] {
        guard let c = peek else { throw .syntax("\\ at the end of the pattern") }
        index += 1
        func single(_ v: UInt32) -> [ClosedRange<UInt32>] { [v...v] }
        switch c {
        case "d": return Self.digit
        case "D": return Self.complement(Self.digit)
        case "w": return Self.word
        case "W": return Self.complement(Self.word)
        case "s": return Self.space
        case "S": return Self.complement(Self.space)
        case "n": return single(0x0A)
        case "r": return single(0x0D)
        case "t": return single(0x09)
        case "f": return single(0x0C)
        case "v": return single(0x0B)
        case "b":
            if inClass { return single(0x08) }
            throw .unsupported("a word boundary (\\b)")
        case "B": throw .unsupported("a word boundary (\\B)")
        case "0": return single(0)
        case "1"..."9": throw .unsupported("a backreference")
        case "k": throw .unsupported("a named backreference")
        case "x": return single(try hex(count: 2))
        case "u":
            if peek == "{" {
                index += 1
                var value: UInt32 = 0
                while let h = peek, h != "}" {
                    guard let d = UInt32(String(h), radix: 16) else {
                        throw .syntax("bad \\u{…} escape")
                    }
                    value = min(value &* 16 &+ d, 0x110000)
                    index += 1
                }
                guard peek == "}", value <= 0x10FFFF else { throw .syntax("bad \\u{…} escape") }
                index += 1
                return single(value)
            }
            return single(try hex(count: 4))
        case "c":
            guard let letter = peek, letter.properties.isAlphabetic, letter.isASCII else { throw .syntax("bad \\c escape") }
            index += 1
            return single(letter.value % 32)
        case "p", "P": throw .unsupported("Unicode property escapes")
        default:
            if c.properties.isAlphabetic, c.isASCII { throw .syntax("unknown escape \\\(c)") }
            return single(c.value)
        }
    }

    private mutating func hex(count: Int) throws(RegexError) -> UInt32 {
        guard index + count <= scalars.count,
              let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + count])), radix: 16) else {
            throw .syntax("bad hexadecimal escape")
        }
        index += count
        return value
    }

    static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound &+ 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in normalized(ranges) {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return result
    }
}

/// Thompson's construction: states with epsilon, character-set and anchor edges.
struct RegexNFA {
    enum Edge { case epsilon(Int), chars(Int, Int), start(Int), end(Int) }
    var edges: [[Edge]] = []
    var sets: [[ClosedRange<UInt32>]] = []

    mutating func newState() -> Int { edges.append([]); return edges.count - 1 }
    mutating func addSet(_ ranges: [ClosedRange<UInt32>]) -> Int { sets.append(ranges); return sets.count - 1 }

    mutating func build(_ node: RegexNode) throws(RegexError) -> (start: Int, end: Int) {
        guard edges.count < SchemaRegex.maxNFAStates else { throw .tooComplex("more than \(SchemaRegex.maxNFAStates) states") }
        switch node {
        case .set(let ranges):
            let s = newState(), e = newState()
            edges[s].append(.chars(addSet(ranges), e))
            return (s, e)
        case .startAnchor, .endAnchor:
            let s = newState(), e = newState()
            if case .startAnchor = node { edges[s].append(.start(e)) } else { edges[s].append(.end(e)) }
            return (s, e)
        case .lookahead:
            throw .unsupported("a lookahead other than at the start of an anchored pattern (^(?=…) or ^(?!…))")
        case .sequence(let items):
            let s = newState()
            var end = s
            for item in items {
                let part = try build(item)
                edges[end].append(.epsilon(part.start))
                end = part.end
            }
            return (s, end)
        case .alternation(let branches):
            let s = newState(), e = newState()
            for branch in branches {
                let part = try build(branch)
                edges[s].append(.epsilon(part.start))
                edges[part.end].append(.epsilon(e))
            }
            return (s, e)
        case .repetition(let inner, let min, let max):
            let s = newState()
            var end = s
            for _ in 0..<min {
                let part = try build(inner)
                edges[end].append(.epsilon(part.start))
                end = part.end
            }
            if let max {
                let e = newState()
                edges[end].append(.epsilon(e))
                for _ in min..<max {
                    let part = try build(inner)
                    edges[end].append(.epsilon(part.start))
                    edges[part.end].append(.epsilon(e))
                    end = part.end
                }
                return (s, e)
            }
            let part = try build(inner)
            let e = newState()
            edges[end].append(.epsilon(part.start))
            edges[end].append(.epsilon(e))
            edges[part.end].append(.epsilon(part.start))
            edges[part.end].append(.epsilon(e))
            return (s, e)
        }
    }
}

/// Subset construction over the classes the pattern's sets distinguish.
struct RegexDFA {
    var classStarts: [UInt32] = []
    var transitions: [Int32] = []
    var accepting: [Bool] = []

    init(nfa: RegexNFA, start: Int, accept: Int) throws(RegexError) {
        var bounds: Set<UInt32> = [0]
        for set in nfa.sets {
            for range in set {
                bounds.insert(range.lowerBound)
                if range.upperBound < 0x10FFFF { bounds.insert(range.upperBound + 1) }
            }
        }
        classStarts = bounds.sorted()
        let classCount = classStarts.count
        // membership[set][class]
        var membership: [[Bool]] = []
        for set in nfa.sets {
            membership.append(classStarts.map { start in set.contains { $0.contains(start) } })
        }
        // A state is (states that may read on, states past a `$` that only the end may follow).
        // Marks are stamped per closure instead of reallocated; the total work is bounded.
        var normalMark = [Int](repeating: -1, count: nfa.edges.count), endMark = normalMark
        var stamp = 0
        var work = 0
        func closure(_ seeds: [Int], atStart: Bool) throws(RegexError) -> (normal: [Int], endOnly: [Int]) {
            stamp += 1
            var normal: [Int] = [], endOnly: [Int] = []
            var stack: [(Int, Bool)] = seeds.map { ($0, false) }
            while let (state, pastEnd) = stack.popLast() {
                if pastEnd {
                    if endMark[state] == stamp { continue }
                    endMark[state] = stamp
                    endOnly.append(state)
                } else {
                    if normalMark[state] == stamp { continue }
                    normalMark[state] = stamp
                    normal.append(state)
                }
                work += 1
                for edge in nfa.edges[state] {
                    switch edge {
                    case .epsilon(let t): stack.append((t, pastEnd))
                    case .start(let t): if atStart { stack.append((t, pastEnd)) }
                    case .end(let t): stack.append((t, true))
                    case .chars: break
                    }
                }
            }
            guard work <= SchemaRegex.maxWork else { throw .tooComplex("building its automaton takes more than \(SchemaRegex.maxWork) steps") }
            return (normal.sorted(), endOnly.sorted())
        }
        var index: [[Int]: Int] = [:]
        var pending: [[Int]] = []
        func key(_ c: (normal: [Int], endOnly: [Int])) -> [Int] { c.normal + [-1] + c.endOnly }
        func intern(_ c: (normal: [Int], endOnly: [Int])) throws(RegexError) -> Int32 {
            if c.normal.isEmpty, !c.endOnly.contains(accept) { return -1 }
            let k = key(c)
            if let i = index[k] { return Int32(i) }
            guard index.count < SchemaRegex.maxDFAStates else { throw .tooComplex("more than \(SchemaRegex.maxDFAStates) automaton states") }
            index[k] = index.count
            pending.append(k)
            accepting.append(c.normal.contains(accept) || c.endOnly.contains(accept))
            transitions += [Int32](repeating: -1, count: classCount)
            return Int32(index.count - 1)
        }
        _ = try intern(try closure([start], atStart: true))
        var done = 0
        while done < pending.count {
            let k = pending[done]
            let normal = k.prefix { $0 >= 0 }
            for c in 0..<classCount {
                var seeds: [Int] = []
                work += normal.count
                guard work <= SchemaRegex.maxWork else { throw .tooComplex("building its automaton takes more than \(SchemaRegex.maxWork) steps") }
                for state in normal {
                    for edge in nfa.edges[state] {
                        if case .chars(let set, let target) = edge, membership[set][c] { seeds.append(target) }
                    }
                }
                if seeds.isEmpty { continue }
                transitions[done * classCount + c] = try intern(try closure(seeds, atStart: false))
            }
            done += 1
        }
    }
}
