extension JSONAutomaton {
    /// Bytes the cheapest valid ending of the document still needs from here: the open value, then
    /// each open container's required members or items and its closing bracket. Generating one token
    /// per byte at worst, the decoder keeps at least this many tokens in reserve.
    var closingCost: Int {
        var total = cost(of: top)
        for frame in below { total = Cost.add(total, cost(of: frame)) }
        return total
    }

    private func cost(of frame: Frame) -> Int {
        let nodes = table.nodes
        switch frame {
        case .root(let started):
            return started ? 0 : nodes[table.root].minCost
        case .object(let node, let next, let written, let phase):
            guard case .object(let members, let tail) = nodes[node].node else { return 0 }
            func member(_ i: Int, afterKeyBytes read: Int) -> Int {
                Cost.add(Cost.add(members[i].key.count - read + 2, nodes[members[i].value].minCost), tail[i + 1])
            }
            switch phase {
            case .open:
                guard written == 0, let first = members[next...].firstIndex(where: \.isRequired) else { return tail[next] }
                return Cost.add(1, member(first, afterKeyBytes: 0))
            case .afterComma:
                return Self.indices(candidates(members, from: next)).map { Cost.add(1, member($0, afterKeyBytes: 0)) }.min() ?? 0
            case .key(let alive, let offset):
                return Self.indices(alive).map { member($0, afterKeyBytes: offset) }.min() ?? 0
            case .colon(let m): return Cost.add(1, Cost.add(nodes[members[m].value].minCost, tail[m + 1]))
            case .value(let m): return Cost.add(nodes[members[m].value].minCost, tail[m + 1])
            case .afterValue: return tail[next]
            }
        case .array(let node, let count, let phase):
            guard case .array(let prefix, let item, let minItems, _) = nodes[node].node else { return 0 }
            func items(from: Int) -> Int {
                GrammarTable.itemsCost(prefix: prefix, item: item, minItems: minItems, from: from) { nodes[$0].minCost }
            }
            switch phase {
            case .open: return minItems == 0 ? 1 : items(from: 0)
            case .afterComma:
                guard let next = count < prefix.count ? prefix[count] : item else { return Cost.infinite }
                return Cost.add(Cost.add(nodes[next].minCost, items(from: count + 1)), 1)
            case .afterValue: return Cost.add(items(from: count), 1)
            }
        case .map(let node, let count, let phase):
            guard case .dictionary(_, let value, let minProperties, _) = nodes[node].node else { return 0 }
            let member = Cost.add(nodes[value].minCost, 4)   // ,"":value
            let rest = { (count: Int) in Cost.add(Cost.multiply(minProperties - count, member), 1) }
            switch phase {
            case .open: return minProperties == 0 ? 1 : Cost.multiply(minProperties, member)
            case .afterComma: return Cost.add(member - 1, rest(count + 1))
            case .colon: return Cost.add(Cost.add(1, nodes[value].minCost), rest(count))
            case .value: return Cost.add(nodes[value].minCost, rest(count))
            case .afterValue: return rest(count)
            }
        case .string(let node, let characters, let pending, _, _, let escape):
            guard case .string(_, let minLength, _, _) = nodes[node].node else { return 0 }
            return Cost.add(pending + (escape ? 1 : 0) + 1, minLength - characters - (escape ? 1 : 0))
        case .patterned(let node, let characters, let state, let partial, let pending, _, _, let escape):
            guard case .string(_, let minLength, _, let index?) = nodes[node].node else { return 0 }
            // Mid-character, the character's own bytes, then the cheapest way to a match after it.
            let pattern = table.patterns[index]
            let current = pending + (escape ? 1 : 0)
            let after: Int
            if escape {
                after = pattern.distanceAfter(Int(state), scalars: Self.escapes.compactMap(Self.escaped).map { $0...$0 })
            } else if pending > 0 {
                let shift = UInt32(6 * pending)
                after = pattern.distanceAfter(Int(state), scalars: [partial << shift...(partial << shift | (1 << shift - 1))])
            } else {
                after = pattern.byteDistance[Int(state)]
            }
            return Cost.add(current, Cost.add(max(after, minLength - characters - (current > 0 ? 1 : 0)), 1))
        case .choice(let node, let alive, let offset):
            guard case .string(let choices?, _, _, _) = nodes[node].node else { return 0 }
            return Self.indices(alive).map { choices[$0].count - offset + 1 }.min() ?? 0
        case .literalChoice(let node, let alive, let offset):
            guard case .literals(let texts) = nodes[node].node else { return 0 }
            return Self.indices(alive).map { texts[$0].count - offset }.min() ?? 0
        case .number(let node, let state):
            return state.closingCost(bounds(node))
        case .literal(let word, let offset):
            return word.bytes.count - offset
        }
    }
}
