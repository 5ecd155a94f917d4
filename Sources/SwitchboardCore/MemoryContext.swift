/// What an app remembers about its user, offered to the model as context.
public struct MemoryContext: Sendable, Hashable {
    /// A remembered fact; `relevance` in 0...1 decides what is dropped first when space runs out.
    public struct Item: Sendable, Hashable {
        public var text: String
        public var relevance: Double
        public init(_ text: String, relevance: Double = 0.5) { self.text = text; self.relevance = relevance }
    }
    public var entities: [String]
    public var shortTerm: [Item]
    public var longTerm: [Item]
    public var notes: [Item]
    /// Set by the app when the memory is about a person; raises privacy to at least `.personal`.
    public var containsPersonalData: Bool

    public init(entities: [String] = [], shortTerm: [Item] = [], longTerm: [Item] = [], notes: [Item] = [],
                containsPersonalData: Bool = false) {
        self.entities = entities; self.shortTerm = shortTerm; self.longTerm = longTerm; self.notes = notes
        self.containsPersonalData = containsPersonalData
    }

    public var allText: [String] { entities + (shortTerm + longTerm + notes).map(\.text) }
    public var isEmpty: Bool { entities.isEmpty && shortTerm.isEmpty && longTerm.isEmpty && notes.isEmpty }
}
