extension JSONAutomaton {
    /// Escapes after a backslash (`\u` is left out: raw UTF-8 says the same and cannot go wrong).
    static let escapes: [UInt8] = Array("\"\\/bfnrt".utf8)

    /// A free string: any character but controls, UTF-8 checked byte by byte, at most `maxLength`.
    mutating func stepString(_ node: Int, _ characters: Int, _ pending: Int, _ low: UInt8, _ high: UInt8,
                             _ escape: Bool, _ byte: UInt8) -> Bool {
        guard case .string(_, let maxLength) = table.nodes[node].node else { return false }
        func set(characters: Int = characters, pending: Int = 0, low: UInt8 = 0x80, high: UInt8 = 0xBF, escape: Bool = false) {
            top = .string(node: node, characters: characters, pending: pending, low: low, high: high, escape: escape)
        }
        if escape {
            guard Self.escapes.contains(byte) else { return false }
            set(characters: characters + 1)
            return true
        }
        if pending > 0 {
            guard byte >= low, byte <= high else { return false }
            set(pending: pending - 1)
            return true
        }
        if byte == UInt8(ascii: "\"") { pop(); return true }
        guard characters < maxLength else { return false }
        switch byte {
        case UInt8(ascii: "\\"): set(escape: true); return true
        case 0x20...0x7F: set(characters: characters + 1)
        case 0xC2...0xDF: set(characters: characters + 1, pending: 1)
        case 0xE0: set(characters: characters + 1, pending: 2, low: 0xA0)
        case 0xED: set(characters: characters + 1, pending: 2, high: 0x9F)
        case 0xE1...0xEF: set(characters: characters + 1, pending: 2)
        case 0xF0: set(characters: characters + 1, pending: 3, low: 0x90)
        case 0xF4: set(characters: characters + 1, pending: 3, high: 0x8F)
        case 0xF1...0xF3: set(characters: characters + 1, pending: 3)
        default: return false
        }
        return true
    }

    /// One of the enum's strings, byte for byte.
    mutating func stepChoice(_ node: Int, _ alive: UInt64, _ offset: Int, _ byte: UInt8) -> Bool {
        guard case .string(let choices?, _) = table.nodes[node].node else { return false }
        if byte == UInt8(ascii: "\""), Self.indices(alive).contains(where: { choices[$0].count == offset }) {
            // A choice ending here wins even if a longer one continues with an escaped quote.
            pop()
            return true
        }
        var left: UInt64 = 0
        for i in Self.indices(alive) where choices[i].count > offset && choices[i][offset] == byte { left |= 1 << UInt64(i) }
        guard left != 0 else { return false }
        top = .choice(node: node, alive: left, offset: offset + 1)
        return true
    }
}
