extension JSONAutomaton {
    /// Escapes after a backslash (`\u` is left out: raw UTF-8 says the same and cannot go wrong).
    static let escapes: [UInt8] = Array("\"\\/bfnrt".utf8)

    /// A free string: any character but controls, UTF-8 checked byte by byte, at most `maxLength`.
    mutating func stepString(_ node: Int, _ characters: Int, _ pending: Int, _ low: UInt8, _ high: UInt8,
                             _ escape: Bool, _ byte: UInt8) -> Bool {
        guard case .string(_, let minLength, let maxLength, _) = table.nodes[node].node else { return false }
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
        if byte == UInt8(ascii: "\"") {
            guard characters >= minLength else { return false }
            pop()
            return true
        }
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
        guard case .string(let choices?, _, _, _) = table.nodes[node].node else { return false }
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

extension JSONAutomaton {
    /// The scalar an escape stands for (`\u` is not generated, as in free strings).
    static func escaped(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt32(byte)
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// A string that follows a pattern: each character (raw UTF-8 or an escape, decoded) steps the
    /// pattern's automaton, and is allowed only if a match can still be reached within `maxLength`.
    /// The closing quote needs an accepting state and `minLength` characters.
    mutating func stepPatterned(_ node: Int, _ characters: Int, _ state: Int32, _ partial: UInt32, _ pending: Int,
                                _ low: UInt8, _ high: UInt8, _ escape: Bool, _ byte: UInt8) -> Bool {
        guard case .string(_, let minLength, let maxLength, let index?) = table.nodes[node].node else { return false }
        let pattern = table.patterns[index]
        func set(state: Int32 = state, characters: Int = characters, partial: UInt32 = 0, pending: Int = 0,
                 low: UInt8 = 0x80, high: UInt8 = 0xBF, escape: Bool = false) {
            top = .patterned(node: node, characters: characters, state: state, partial: partial, pending: pending, low: low, high: high,
                             escape: escape)
        }
        /// One whole character read.
        func character(_ scalar: UInt32) -> Bool {
            let next = pattern.next(Int(state), scalar)
            guard next >= 0, characters < maxLength, pattern.canMatch(from: next, within: maxLength - characters - 1) else { return false }
            set(state: Int32(next), characters: characters + 1)
            return true
        }
        if escape {
            guard let scalar = Self.escaped(byte) else { return false }
            return character(scalar)
        }
        if pending > 0 {
            guard byte >= low, byte <= high else { return false }
            let bits = partial << 6 | UInt32(byte & 0x3F)
            if pending == 1 { return character(bits) }
            let shift = UInt32(6 * (pending - 1))
            guard pattern.canContinue(Int(state), bits << shift, bits << shift | (1 << shift - 1)) else { return false }
            set(partial: bits, pending: pending - 1)
            return true
        }
        switch byte {
        case UInt8(ascii: "\""):
            guard pattern.pattern.accepting[Int(state)], characters >= minLength else { return false }
            pop()
            return true
        case UInt8(ascii: "\\"):
            // Only if some escape leads on (a backslash with no way on would strand the string).
            guard characters < maxLength, Self.escapes.contains(where: { escape in
                guard let scalar = Self.escaped(escape) else { return false }
                let next = pattern.next(Int(state), scalar)
                return next >= 0 && pattern.canMatch(from: next, within: maxLength - characters - 1)
            }) else { return false }
            set(escape: true)
            return true
        case 0x20...0x7F: return character(UInt32(byte))
        default: break
        }
        // A lead byte: the scalars it can begin, and the range of its next byte (as in free strings).
        let lead: (bits: UInt32, pending: Int, low: UInt8, high: UInt8)
        switch byte {
        case 0xC2...0xDF: lead = (UInt32(byte & 0x1F), 1, 0x80, 0xBF)
        case 0xE0: lead = (0, 2, 0xA0, 0xBF)
        case 0xED: lead = (0xD, 2, 0x80, 0x9F)
        case 0xE1...0xEF: lead = (UInt32(byte & 0x0F), 2, 0x80, 0xBF)
        case 0xF0: lead = (0, 3, 0x90, 0xBF)
        case 0xF4: lead = (4, 3, 0x80, 0x8F)
        case 0xF1...0xF3: lead = (UInt32(byte & 0x07), 3, 0x80, 0xBF)
        default: return false
        }
        let shift = UInt32(6 * lead.pending)
        guard characters < maxLength, pattern.canContinue(Int(state), lead.bits << shift, lead.bits << shift | (1 << shift - 1)) else { return false }
        set(partial: lead.bits, pending: lead.pending, low: lead.low, high: lead.high)
        return true
    }

    /// Some constant still alive has `byte` next.
    func continuesLiteral(_ node: Int, _ alive: UInt64, _ offset: Int, _ byte: UInt8) -> Bool {
        guard case .literals(let texts) = table.nodes[node].node else { return false }
        return Self.indices(alive).contains { texts[$0].count > offset && texts[$0][offset] == byte }
    }

    /// Some constant still alive was read whole.
    func literalIsComplete(_ node: Int, _ alive: UInt64, _ offset: Int) -> Bool {
        guard case .literals(let texts) = table.nodes[node].node else { return false }
        return Self.indices(alive).contains { texts[$0].count == offset }
    }

    mutating func stepLiteral(_ node: Int, _ alive: UInt64, _ offset: Int, _ byte: UInt8) -> Bool {
        guard case .literals(let texts) = table.nodes[node].node else { return false }
        var left: UInt64 = 0
        for i in Self.indices(alive) where texts[i].count > offset && texts[i][offset] == byte { left |= 1 << UInt64(i) }
        guard left != 0 else { return false }
        top = .literalChoice(node: node, alive: left, offset: offset + 1)
        return true
    }
}
