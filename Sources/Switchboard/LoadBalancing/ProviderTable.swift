import SwitchboardCore

/// Values kept per provider, in the order providers were added. The routing hot path looks providers
/// up several times per request: a handful are found faster by comparing ids (a short id compares as
/// two machine words) than by hashing one, so the index is used only past `linearLimit` providers.
struct ProviderTable<Value> {
    static var linearLimit: Int { 8 }
    private(set) var ids: [ProviderID] = []
    var values: [Value] = []
    private var index: [ProviderID: Int] = [:]

    func position(of id: ProviderID) -> Int? {
        guard ids.count <= Self.linearLimit else { return index[id] }
        for i in ids.indices where ids[i] == id { return i }
        return nil
    }

    subscript(id: ProviderID) -> Value? { position(of: id).map { values[$0] } }

    /// Adds `value` for `id`, or replaces the one there; returns its position.
    @discardableResult
    mutating func set(_ value: Value, for id: ProviderID) -> Int {
        if let i = position(of: id) { values[i] = value; return i }
        ids.append(id)
        values.append(value)
        index[id] = ids.count - 1
        return ids.count - 1
    }

    /// Removes `id`'s value; false when there was none.
    @discardableResult
    mutating func remove(_ id: ProviderID) -> Bool {
        guard let i = position(of: id) else { return false }
        ids.remove(at: i)
        values.remove(at: i)
        index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        return true
    }

    var dictionary: [ProviderID: Value] { Dictionary(uniqueKeysWithValues: zip(ids, values)) }
}

extension ProviderTable: Sendable where Value: Sendable {}
