/// A grammar flattened into an array of nodes addressed by index, so automaton states are a few
/// integers and copy without allocating. Each node knows the fewest bytes of any value it accepts
/// (`minCost`), which is how the decoder keeps enough budget to close the document.
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
        /// `choices`: the escaped enum values.
        case string(choices: [[UInt8]]?, maxLength: Int)
        case integer(minimum: Double, maximum: Double)
        case number(minimum: Double, maximum: Double)
        case boolean
        case null
        case array(item: Int, minItems: Int, maxItems: Int)
        case anyOf([Int])
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

    let nodes: [Entry]
    let root: Int

    init(_ grammar: JSONGrammar) throws(ConstraintError) {
        var builder = Builder()
        root = try builder.add(grammar, depth: 0)
        nodes = builder.nodes
    }

    func memberCost(_ member: Member) -> Int { Self.memberCost(member, nodes) }

    /// `"key":value` at its cheapest.
    static func memberCost(_ member: Member, _ nodes: [Entry]) -> Int { Cost.add(member.key.count + 3, nodes[member.value].minCost) }
}

/// Byte counts of documents, saturating at `infinite`: a schema's bounds come from outside (nested
/// `minItems` of 4096 multiply past `Int.max`), and a cost that large only means "cannot be generated".
enum Cost {
    static let infinite = Int.max / 4

    /// `a + b` for costs in 0...infinite (the sum of two cannot overflow), clamped to `infinite`.
    static func add(_ a: Int, _ b: Int) -> Int { min(infinite, max(0, a) + max(0, b)) }

    static func multiply(_ count: Int, _ cost: Int) -> Int {
        let (product, overflow) = max(0, count).multipliedReportingOverflow(by: max(0, cost))
        return overflow ? infinite : min(infinite, product)
    }
}

extension GrammarTable {
    /// Appends nodes children first, so every child index is known when its parent is built.
    struct Builder {
        var nodes: [Entry] = []
        func memberCost(_ member: Member) -> Int { GrammarTable.memberCost(member, nodes) }

    mutating func add(_ grammar: JSONGrammar, depth: Int) throws(ConstraintError) -> Int {
        guard depth <= 32 else { throw .unsupportedGrammar("nested deeper than 32 levels") }
        let entry: Entry
        switch grammar {
        case .object(let members):
            guard members.count <= GrammarTable.maxChoices else { throw .unsupportedGrammar("an object has more than \(GrammarTable.maxChoices) properties") }
            guard Set(members.map(\.name)).count == members.count else { throw .unsupportedGrammar("an object names a property twice") }
            var compiled: [Member] = []
            for member in members {
                compiled.append(Member(key: GrammarTable.escaped(member.name), value: try add(member.value, depth: depth + 1), isRequired: member.isRequired))
            }
            var tail = [Int](repeating: 1, count: compiled.count + 1)
            for i in stride(from: compiled.count - 1, through: 0, by: -1) {
                tail[i] = Cost.add(tail[i + 1], compiled[i].isRequired ? Cost.add(memberCost(compiled[i]), 1) : 0)
            }
            // `{` then either `}` or the first required member without its comma, then the rest.
            let firstRequired = compiled.firstIndex(where: \.isRequired)
            let cost = firstRequired.map { Cost.add(1 + memberCost(compiled[$0]), tail[$0 + 1]) } ?? 2
            entry = Entry(node: .object(members: compiled, tail: tail), minCost: cost)
        case .string(let values, let maxLength):
            let limit = maxLength ?? .max
            guard limit >= 0 else { throw .unsupportedGrammar("maxLength is negative") }
            if let values {
                let kept = values.filter { $0.count <= limit }
                guard !kept.isEmpty else { throw .unsupportedGrammar("no enum value fits maxLength") }
                guard kept.count <= GrammarTable.maxChoices else { throw .unsupportedGrammar("more than \(GrammarTable.maxChoices) enum values") }
                let choices = kept.map(GrammarTable.escaped)
                entry = Entry(node: .string(choices: choices, maxLength: limit), minCost: 2 + (choices.map(\.count).min() ?? 0))
            } else {
                entry = Entry(node: .string(choices: nil, maxLength: limit), minCost: 2)
            }
        case .integer(let minimum, let maximum):
            let lo = minimum.map(Double.init) ?? -1e15, hi = maximum.map(Double.init) ?? 1e15
            guard lo <= hi, lo < 1e15, hi > -1e15 else { throw .unsupportedGrammar("the integer range is empty or beyond 15 digits") }
            entry = Entry(node: .integer(minimum: max(lo, -1e15 + 1), maximum: min(hi, 1e15 - 1)), minCost: GrammarTable.numberCost(lo, hi))
        case .number(let minimum, let maximum):
            let lo = minimum ?? -.infinity, hi = maximum ?? .infinity
            guard lo <= hi, !lo.isNaN, !hi.isNaN else { throw .unsupportedGrammar("the number range is empty") }
            // Numbers are written with at most 15 integer digits (no exponent once bounded).
            guard lo < 1e15, hi > -1e15 else { throw .unsupportedGrammar("the number range lies beyond 15 digits") }
            entry = Entry(node: .number(minimum: lo, maximum: hi), minCost: GrammarTable.numberCost(lo, hi))
        case .boolean: entry = Entry(node: .boolean, minCost: 4)
        case .null: entry = Entry(node: .null, minCost: 4)
        case .array(let items, let minItems, let maxItems):
            let limit = maxItems ?? .max
            guard minItems >= 0, limit >= minItems, minItems <= 4096 else { throw .unsupportedGrammar("the array's item bounds are empty or too large") }
            let item = try add(items, depth: depth + 1)
            let itemCost = nodes[item].minCost
            entry = Entry(node: .array(item: item, minItems: minItems, maxItems: limit),
                          minCost: Cost.add(2, Cost.add(Cost.multiply(minItems, itemCost), max(0, minItems - 1))))
        case .anyOf(let choices):
            guard !choices.isEmpty else { throw .unsupportedGrammar("anyOf has no alternatives") }
            var indices: [Int] = []
            for choice in choices { indices.append(try add(choice, depth: depth + 1)) }
            entry = Entry(node: .anyOf(indices), minCost: indices.map { nodes[$0].minCost }.min() ?? 0)
        }
        nodes.append(entry)
        return nodes.count - 1
    }

    }

    /// Bytes of the shortest number in [lo, hi]: the integer nearest zero when there is one, else an
    /// upper bound (sign, a digit, a point and every fraction digit).
    static func numberCost(_ lo: Double, _ hi: Double) -> Int {
        let nearest = lo > 0 ? lo.rounded(.up) : hi < 0 ? hi.rounded(.down) : 0
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
