/// A grammar flattened into an array of nodes addressed by index, so automaton states are a few
/// integers and copy without allocating. Each node knows the fewest bytes of any value it accepts
/// (`minCost`), which is how the decoder keeps enough budget to close the document. References
/// become indices (a recursive schema is a cycle of indices, followed lazily by the automaton);
/// the costs of a cyclic table are the least fixed point, computed by relaxation.
final class GrammarTable: Sendable {
    struct Member: Sendable {
        /// The key as it appears between the quotes (JSON-escaped UTF-8).
        var key: [UInt8]
        var value: Int
        var isRequired: Bool
    }

    enum Node: Sendable {
        /// `tail[i]`: bytes to finish the object when members from `i` on are still to come and at
        /// least one member was written: each required one as `,"key":value`, then `}`.
        case object(members: [Member], tail: [Int])
        /// Any keys (`key` is a free string node), each value of node `value`.
        case dictionary(key: Int, value: Int, minProperties: Int, maxProperties: Int)
        /// `choices`: the escaped enum values; `pattern`: an index into `patterns`.
        case string(choices: [[UInt8]]?, minLength: Int, maxLength: Int, pattern: Int?)
        /// `step`: the value is a multiple of it (1 for any integer).
        case integer(minimum: Double, maximum: Double, step: Double)
        case number(minimum: Double, maximum: Double)
        case boolean
        case null
        /// Item `i` is node `prefix[i]`, later ones `item` (none when nil).
        case array(prefix: [Int], item: Int?, minItems: Int, maxItems: Int)
        case anyOf([Int])
        /// Whole JSON texts, byte for byte.
        case literals([[UInt8]])
    }

    struct Entry: Sendable {
        var node: Node
        var minCost: Int
    }

    /// Bit sets of candidates are 64 bits wide.
    static let maxChoices = 64
    /// Digits an integer part may have (a double holds 15 exactly).
    static let maxIntegerDigits = 15
    static let maxFractionDigits = 8
    static let maxNodes = 100_000
    static let maxPrefixItems = 256

    let nodes: [Entry]
    let patterns: [PatternTable]
    let root: Int

    init(_ grammar: JSONGrammar, definitions: [String: JSONGrammar] = [:]) throws(ConstraintError) {
        var builder = Builder(definitions: definitions)
        root = try builder.add(grammar, depth: 0)
        patterns = builder.patterns
        nodes = builder.finish()
    }

    func memberCost(_ member: Member) -> Int { Self.memberCost(member, nodes) }

    /// `"key":value` at its cheapest.
    static func memberCost(_ member: Member, _ nodes: [Entry]) -> Int { Cost.add(member.key.count + 3, nodes[member.value].minCost) }

    /// Bytes of items `from..<minItems`, each with the separator or bracket after it.
    static func itemsCost(prefix: [Int], item: Int?, minItems: Int, from: Int, cost: (Int) -> Int) -> Int {
        guard from < minItems else { return 0 }
        var total = 0
        var i = from
        while i < min(minItems, prefix.count) { total = Cost.add(total, Cost.add(cost(prefix[i]), 1)); i += 1 }
        guard i < minItems else { return total }
        guard let item else { return Cost.infinite }
        return Cost.add(total, Cost.multiply(minItems - i, Cost.add(cost(item), 1)))
    }
}

/// Byte counts of documents, saturating at `infinite`: a schema's bounds come from outside (nested
/// `minItems` of 4096 multiply past `Int.max`), and a cost that large only means "cannot be generated".
enum Cost {
    static let infinite = Int.max / 4

    /// `a + b`, each first clamped to 0...infinite (so the sum cannot overflow), clamped to `infinite`.
    static func add(_ a: Int, _ b: Int) -> Int { min(infinite, clamp(a) + clamp(b)) }

    static func clamp(_ a: Int) -> Int { min(infinite, max(0, a)) }

    static func multiply(_ count: Int, _ cost: Int) -> Int {
        let (product, overflow) = max(0, count).multipliedReportingOverflow(by: max(0, cost))
        return overflow ? infinite : min(infinite, product)
    }
}

extension GrammarTable {
    /// Reserves each node's index before building it, so a reference can point at a node still
    /// being built; costs are filled in by `finish`.
    struct Builder {
        let definitions: [String: JSONGrammar]
        var nodes: [Node?] = []
        var references: [String: Int] = [:]
        var patterns: [PatternTable] = []

        init(definitions: [String: JSONGrammar]) { self.definitions = definitions }

        mutating func add(_ grammar: JSONGrammar, depth: Int) throws(ConstraintError) -> Int {
            guard depth <= 64 else { throw .unsupportedGrammar("nested deeper than 64 levels") }
            if case .reference(let name) = grammar { return try reference(name, depth: depth) }
            let index = try reserve()
            nodes[index] = try node(grammar, depth: depth)
            return index
        }

        /// `grammar`'s node, or nil when it cannot be generated (its partial nodes taken back):
        /// for alternatives and optional parts, which can do without it.
        mutating func attempt(_ grammar: JSONGrammar, depth: Int) -> Result<Int, ConstraintError> {
            let saved = (nodes.count, references, patterns.count)
            do { return .success(try add(grammar, depth: depth)) } catch {
                nodes.removeSubrange(saved.0...)
                references = saved.1
                patterns.removeSubrange(saved.2...)
                return .failure(error)
            }
        }

        private mutating func reserve() throws(ConstraintError) -> Int {
            guard nodes.count < GrammarTable.maxNodes else { throw .unsupportedGrammar("more than \(GrammarTable.maxNodes) grammar nodes") }
            nodes.append(nil)
            return nodes.count - 1
        }

        /// The node of definition `name`, built once; chains of references lead to the first grammar
        /// that is not one (a chain that loops is an error: it never reaches a value).
        private mutating func reference(_ name: String, depth: Int) throws(ConstraintError) -> Int {
            if let index = references[name] { return index }
            var chain = [name]
            var target = definitions[name]
            while case .reference(let next)? = target {
                if let index = references[next] { for link in chain { references[link] = index }; return index }
                guard !chain.contains(next) else { throw .unsupportedGrammar("the references \(chain.joined(separator: " → ")) loop without a value") }
                chain.append(next)
                target = definitions[next]
            }
            guard let target else { throw .unsupportedGrammar("the reference \(chain.last ?? name) has no definition") }
            let index = try reserve()
            for link in chain { references[link] = index }
            nodes[index] = try node(target, depth: depth + 1)
            return index
        }

        private mutating func node(_ grammar: JSONGrammar, depth: Int) throws(ConstraintError) -> Node {
            switch grammar {
            case .object(let members):
                guard members.count <= GrammarTable.maxChoices else {
                    throw .unsupportedGrammar("an object has more than \(GrammarTable.maxChoices) properties")
                }
                guard Set(members.map(\.name)).count == members.count else { throw .unsupportedGrammar("an object names a property twice") }
                var compiled: [Member] = []
                for member in members {
                    if member.isRequired {
                        compiled.append(Member(key: GrammarTable.escaped(member.name), value: try add(member.value, depth: depth + 1),
                                               isRequired: true))
                    } else if case .success(let value) = attempt(member.value, depth: depth + 1) {
                        compiled.append(Member(key: GrammarTable.escaped(member.name), value: value, isRequired: false))
                    }
                }
                return .object(members: compiled, tail: [])
            case .dictionary(let values, let minProperties, let maxProperties):
                let limit = maxProperties ?? .max
                guard minProperties >= 0, limit >= minProperties else { throw .unsupportedGrammar("the object's property bounds are empty") }
                let key = try add(.string(), depth: depth + 1)
                return .dictionary(key: key, value: try add(values, depth: depth + 1), minProperties: minProperties, maxProperties: limit)
            case .string(let values, let maxLength, let minLength, let pattern):
                let limit = maxLength ?? .max
                guard limit >= 0, minLength >= 0, minLength <= limit else { throw .unsupportedGrammar("the string's length bounds are empty") }
                if let values {
                    let kept = values.filter { (minLength...limit).contains($0.unicodeScalars.count) }
                    guard !kept.isEmpty else { throw .unsupportedGrammar("no enum value fits the length bounds") }
                    guard kept.count <= GrammarTable.maxChoices else { throw .unsupportedGrammar("more than \(GrammarTable.maxChoices) enum values") }
                    return .string(choices: kept.map(GrammarTable.escaped), minLength: 0, maxLength: .max, pattern: nil)
                }
                var index: Int?
                if let pattern {
                    let table = try PatternTable(pattern)
                    guard table.charDistance[0] <= limit else { throw .unsupportedGrammar("no string of the pattern fits maxLength") }
                    patterns.append(table)
                    index = patterns.count - 1
                }
                return .string(choices: nil, minLength: minLength, maxLength: limit, pattern: index)
            case .integer(let minimum, let maximum, let multipleOf):
                let lo = minimum.map(Double.init) ?? -1e15, hi = maximum.map(Double.init) ?? 1e15
                guard lo <= hi, lo < 1e15, hi > -1e15 else { throw .unsupportedGrammar("the integer range is empty or beyond 15 digits") }
                let step = Double(multipleOf ?? 1)
                guard step >= 1, step < 1e15 else { throw .unsupportedGrammar("multipleOf must be between 1 and 10^15") }
                let low = max(lo, -1e15 + 1), high = min(hi, 1e15 - 1)
                guard (low / step).rounded(.up) * step <= high else { throw .unsupportedGrammar("no multiple of \(Int(step)) in the range") }
                return .integer(minimum: low, maximum: high, step: step)
            case .number(let minimum, let maximum):
                let lo = minimum ?? -.infinity, hi = maximum ?? .infinity
                guard lo <= hi, !lo.isNaN, !hi.isNaN else { throw .unsupportedGrammar("the number range is empty") }
                // Numbers are written with at most 15 integer digits (no exponent once bounded).
                guard lo < 1e15, hi > -1e15 else { throw .unsupportedGrammar("the number range lies beyond 15 digits") }
                return .number(minimum: lo, maximum: hi)
            case .boolean: return .boolean
            case .null: return .null
            case .array(let items, let minItems, let maxItems):
                let limit = maxItems ?? .max
                guard minItems >= 0, limit >= minItems else { throw .unsupportedGrammar("the array's item bounds are empty") }
                return .array(prefix: [], item: try add(items, depth: depth + 1), minItems: minItems, maxItems: limit)
            case .tuple(let prefixGrammars, let rest, let minItems, let maxItems):
                var limit = maxItems ?? .max
                guard minItems >= 0, limit >= minItems, prefixGrammars.count <= GrammarTable.maxPrefixItems else {
                    throw .unsupportedGrammar("the array's item bounds are empty, or more than \(GrammarTable.maxPrefixItems) prefixItems")
                }
                var prefix: [Int] = []
                var item: Int?
                var complete = true
                for (i, grammar) in prefixGrammars.enumerated() {
                    if i < minItems { prefix.append(try add(grammar, depth: depth + 1)); continue }
                    guard case .success(let index) = attempt(grammar, depth: depth + 1) else { complete = false; break }
                    prefix.append(index)
                }
                if complete, let rest, case .success(let index) = attempt(rest, depth: depth + 1) { item = index }
                if item == nil { limit = min(limit, prefix.count) }
                guard limit >= minItems else { throw .unsupportedGrammar("minItems beyond the items that can be generated") }
                return .array(prefix: prefix, item: item, minItems: minItems, maxItems: limit)
            case .anyOf(let choices):
                var indices: [Int] = []
                var firstError: ConstraintError?
                for choice in choices {
                    switch attempt(choice, depth: depth + 1) {
                    case .success(let index): indices.append(index)
                    case .failure(let error): firstError = firstError ?? error
                    }
                }
                guard !indices.isEmpty else { throw firstError ?? .unsupportedGrammar("anyOf has no alternatives") }
                return .anyOf(indices)
            case .literals(let texts):
                guard !texts.isEmpty, texts.count <= GrammarTable.maxChoices else {
                    throw .unsupportedGrammar("an enum of 1 to \(GrammarTable.maxChoices) values is needed")
                }
                return .literals(texts.map { Array($0.utf8) })
            case .reference(let name):
                return .anyOf([try reference(name, depth: depth)])
            case .refused(let reason):
                throw .unsupportedGrammar(reason)
            }
        }

        /// The nodes with their least costs (relaxed until nothing changes; children have higher
        /// indices than parents, so one backward pass settles a grammar without cycles).
        func finish() -> [Entry] {
            let built = nodes.map { $0 ?? .null }
            var cost = [Int](repeating: Cost.infinite, count: built.count)
            for _ in 0..<max(2, min(built.count + 1, 200)) {
                var changed = false
                for i in stride(from: built.count - 1, through: 0, by: -1) {
                    let c = self.cost(of: built[i], cost)
                    if c < cost[i] { cost[i] = c; changed = true }
                }
                if !changed { break }
            }
            return built.indices.map { i in
                guard case .object(let members, _) = built[i] else { return Entry(node: built[i], minCost: cost[i]) }
                return Entry(node: .object(members: members, tail: Self.tail(members, cost)), minCost: cost[i])
            }
        }

        static func tail(_ members: [Member], _ cost: [Int]) -> [Int] {
            var tail = [Int](repeating: 1, count: members.count + 1)
            for i in stride(from: members.count - 1, through: 0, by: -1) {
                let member = Cost.add(members[i].key.count + 3, cost[members[i].value])
                tail[i] = Cost.add(tail[i + 1], members[i].isRequired ? Cost.add(member, 1) : 0)
            }
            return tail
        }

        private func cost(of node: Node, _ cost: [Int]) -> Int {
            switch node {
            case .object(let members, _):
                // `{` then either `}` or the first required member without its comma, then the rest.
                guard let first = members.firstIndex(where: \.isRequired) else { return 2 }
                let tail = Self.tail(members, cost)
                return Cost.add(1 + members[first].key.count + 3, Cost.add(cost[members[first].value], tail[first + 1]))
            case .dictionary(_, let value, let minProperties, _):
                guard minProperties > 0 else { return 2 }
                return Cost.add(1, Cost.multiply(minProperties, Cost.add(cost[value], 4)))
            case .string(let choices?, _, _, _): return 2 + (choices.map(\.count).min() ?? 0)
            case .string(nil, let minLength, _, let pattern):
                return Cost.add(2, max(minLength, pattern.map { patterns[$0].byteDistance[0] } ?? 0))
            case .integer(let minimum, let maximum, let step): return GrammarTable.numberCost(minimum, maximum, step: step)
            case .number(let minimum, let maximum): return GrammarTable.numberCost(minimum, maximum)
            case .boolean, .null: return 4
            case .array(let prefix, let item, let minItems, _):
                guard minItems > 0 else { return 2 }
                return Cost.add(1, GrammarTable.itemsCost(prefix: prefix, item: item, minItems: minItems, from: 0) { cost[$0] })
            case .anyOf(let choices): return choices.map { cost[$0] }.min() ?? Cost.infinite
            case .literals(let texts): return texts.map(\.count).min() ?? Cost.infinite
            }
        }
    }

    /// Bytes of the shortest number in [lo, hi]: the integer nearest zero when there is one, else an
    /// upper bound (sign, a digit, a point and every fraction digit).
    static func numberCost(_ lo: Double, _ hi: Double, step: Double = 1) -> Int {
        let nearest = lo > 0 ? (lo / step).rounded(.up) * step : hi < 0 ? (hi / step).rounded(.down) * step : 0
        guard nearest >= lo, nearest <= hi, nearest.isFinite else { return 3 + maxFractionDigits }
        // Digits counted on the Double: a bound from a schema may be far outside Int's range.
        var digits = 1
        var magnitude = abs(nearest)
        while magnitude >= 10, digits < 400 { magnitude /= 10; digits += 1 }
        return (nearest < 0 ? 1 : 0) + digits
    }

    /// `text` as it appears inside a JSON string literal.
    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0x0A: out += Array("\\n".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0..<0x20: out += Array("\\u00".utf8) + [hex(byte >> 4), hex(byte & 0xF)]
            default: out.append(byte)
            }
        }
        return out
    }

    private static func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10 }
}
