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
            guard case .array(let item, let minItems, _) = nodes[node].node else { return 0 }
            let itemCost = nodes[item].minCost
            switch phase {
            case .open: return minItems == 0 ? 1 : Cost.multiply(minItems, Cost.add(itemCost, 1))
            case .afterComma: return Cost.add(Cost.add(itemCost, Cost.multiply(minItems - count - 1, Cost.add(itemCost, 1))), 1)
            case .afterValue: return Cost.add(Cost.multiply(minItems - count, Cost.add(itemCost, 1)), 1)
            }
        case .string(_, _, let pending, _, _, let escape):
            return pending + (escape ? 1 : 0) + 1
        case .choice(let node, let alive, let offset):
            guard case .string(let choices?, _) = nodes[node].node else { return 0 }
            return Self.indices(alive).map { choices[$0].count - offset + 1 }.min() ?? 0
        case .number(let node, let state):
            return state.closingCost(bounds(node))
        case .literal(let word, let offset):
            return word.bytes.count - offset
        }
    }
}
