/// The JSON shapes the constrained decoder can enforce: the engine's own, dependency-free form of a
/// schema (the runtime's `GenerationSchema` maps onto it). Object members are generated in order;
/// optional ones may be left out; no other members are allowed.
public indirect enum JSONGrammar: Sendable, Hashable {
    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: JSONGrammar
        public var isRequired: Bool
        public init(_ name: String, _ value: JSONGrammar, required: Bool = true) {
            self.name = name; self.value = value; self.isRequired = required
        }
    }

    case object([Member])
    /// `maxLength` counts characters (an escape is one).
    case string(enumValues: [String]? = nil, maxLength: Int? = nil)
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    case number(minimum: Double? = nil, maximum: Double? = nil)
    case boolean
    case null
    case array(items: JSONGrammar, minItems: Int = 0, maxItems: Int? = nil)
    /// One of these, chosen by the value's first byte (the first alternative that can start with it).
    case anyOf([JSONGrammar])
}

/// Why a grammar cannot drive a generation.
public enum ConstraintError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The grammar admits no value, or one the automaton cannot represent.
    case unsupportedGrammar(String)
    /// The smallest valid document needs more tokens than the generation may produce.
    case budgetTooSmall(needed: Int, budget: Int)
    /// No token of the vocabulary continues the document (a vocabulary without single-byte tokens).
    case noAllowedToken(String)
    /// The start of the document to continue (a resumed answer) does not follow the schema.
    case invalidPrefix(String)

    public var description: String {
        switch self {
        case .unsupportedGrammar(let reason): "the output schema cannot be enforced: \(reason)"
        case .budgetTooSmall(let needed, let budget):
            "the smallest valid answer needs \(needed) tokens but only \(budget) may be generated; raise maxTokens"
        case .noAllowedToken(let state):
            "no token of the model's vocabulary can continue the JSON (\(state)); the vocabulary lacks single-byte tokens"
        case .invalidPrefix(let reason): "the answer to continue does not follow the schema: \(reason)"
        }
    }
}

/// A grammar compiled for decoding. Build it once per schema; each generation gets a fresh state.
public struct JSONConstraint: Sendable, Equatable {
    public let grammar: JSONGrammar
    let table: GrammarTable
    /// The document's first bytes, already written (a resumed answer): generation continues after them.
    public private(set) var prefix: [UInt8] = []

    public init(_ grammar: JSONGrammar) throws(ConstraintError) {
        self.grammar = grammar
        table = try GrammarTable(grammar)
        guard table.nodes[table.root].minCost < Cost.infinite else {
            throw .unsupportedGrammar("the smallest valid document is too large to generate (minItems multiply past any budget)")
        }
    }

    /// The fewest bytes (hence tokens, at worst one byte each) of any valid document.
    public var minimumBytes: Int { table.nodes[table.root].minCost }

    /// The same constraint for a document whose first bytes are `text`.
    public func continuing(after text: String) -> JSONConstraint {
        var constraint = self
        constraint.prefix = Array(text.utf8)
        return constraint
    }

    public static func == (a: JSONConstraint, b: JSONConstraint) -> Bool { a.grammar == b.grammar && a.prefix == b.prefix }
}
