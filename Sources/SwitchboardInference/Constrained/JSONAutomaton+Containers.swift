extension JSONAutomaton {
    /// Members that may come next: from `next` through the first required one (the optional ones
    /// before it may be skipped), or through the end when none is required.
    func candidates(_ members: [GrammarTable.Member], from next: Int) -> UInt64 {
        var set: UInt64 = 0
        var i = next
        while i < members.count {
            set |= 1 << UInt64(i)
            if members[i].isRequired { break }
            i += 1
        }
        return set
    }

    /// No required member is left from `next` on.
    func mayClose(_ members: [GrammarTable.Member], from next: Int) -> Bool {
        !members[next...].contains(where: \.isRequired)
    }

    mutating func stepObject(_ node: Int, _ next: Int, _ written: Int, _ phase: ObjectPhase, _ byte: UInt8) -> Bool {
        guard case .object(let members, _) = table.nodes[node].node else { return false }
        func set(_ phase: ObjectPhase, next: Int = next, written: Int = written) {
            top = .object(node: node, next: next, written: written, phase: phase)
        }
        switch phase {
        case .open, .afterValue:
            if byte == UInt8(ascii: "}"), mayClose(members, from: next) { pop(); return true }
            if phase == .open, byte == UInt8(ascii: "\"") {
                let alive = candidates(members, from: next)
                guard alive != 0 else { return false }
                set(.key(alive: alive, offset: 0))
                return true
            }
            guard phase == .afterValue, byte == UInt8(ascii: ","), candidates(members, from: next) != 0 else { return false }
            set(.afterComma)
        case .afterComma:
            guard byte == UInt8(ascii: "\"") else { return false }
            set(.key(alive: candidates(members, from: next), offset: 0))
        case .key(let alive, let offset):
            if byte == UInt8(ascii: "\"") {
                guard let member = Self.indices(alive).first(where: { members[$0].key.count == offset }) else { return false }
                set(.colon(member: member), next: member + 1, written: written + 1)
                return true
            }
            var left: UInt64 = 0
            for i in Self.indices(alive) where members[i].key.count > offset && members[i].key[offset] == byte {
                left |= 1 << UInt64(i)
            }
            guard left != 0 else { return false }
            set(.key(alive: left, offset: offset + 1))
        case .colon(let member):
            guard byte == UInt8(ascii: ":") else { return false }
            set(.value(member: member))
        case .value(let member):
            set(.afterValue)
            return startValue(members[member].value, byte)
        }
        return true
    }

    mutating func stepArray(_ node: Int, _ count: Int, _ phase: ArrayPhase, _ byte: UInt8) -> Bool {
        guard case .array(let prefix, let item, let minItems, let maxItems) = table.nodes[node].node else { return false }
        if byte == UInt8(ascii: "]"), phase != .afterComma, count >= minItems { pop(); return true }
        switch phase {
        case .open, .afterComma:
            guard count < maxItems, let next = count < prefix.count ? prefix[count] : item else { return false }
            top = .array(node: node, count: count + 1, phase: .afterValue)
            return startValue(next, byte)
        case .afterValue:
            guard byte == UInt8(ascii: ","), count < maxItems, count < prefix.count || item != nil else { return false }
            top = .array(node: node, count: count, phase: .afterComma)
            return true
        }
    }

    /// An object with free keys: a key is a string frame pushed above the map, which is in phase
    /// `colon` when the key closes.
    mutating func stepMap(_ node: Int, _ count: Int, _ phase: MapPhase, _ byte: UInt8) -> Bool {
        guard case .dictionary(let key, let value, let minProperties, let maxProperties) = table.nodes[node].node else { return false }
        switch phase {
        case .open, .afterValue:
            if byte == UInt8(ascii: "}"), count >= minProperties { pop(); return true }
            if phase == .open, byte == UInt8(ascii: "\""), count < maxProperties {
                top = .map(node: node, count: count + 1, phase: .colon)
                return startValue(key, byte)
            }
            guard phase == .afterValue, byte == UInt8(ascii: ","), count < maxProperties else { return false }
            top = .map(node: node, count: count, phase: .afterComma)
        case .afterComma:
            guard byte == UInt8(ascii: "\"") else { return false }
            top = .map(node: node, count: count + 1, phase: .colon)
            return startValue(key, byte)
        case .colon:
            guard byte == UInt8(ascii: ":") else { return false }
            top = .map(node: node, count: count, phase: .value)
        case .value:
            top = .map(node: node, count: count, phase: .afterValue)
            return startValue(value, byte)
        }
        return true
    }

    /// Indices of the set bits, ascending.
    static func indices(_ set: UInt64) -> [Int] {
        var result: [Int] = []
        var bits = set
        while bits != 0 {
            result.append(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
        return result
    }
}
