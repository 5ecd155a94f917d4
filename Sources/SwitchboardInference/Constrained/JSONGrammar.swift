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

    /// A regular language over Unicode scalars as a deterministic automaton (the runtime compiles
    /// JSON Schema patterns and formats into it): class `i` is the scalars from `classStarts[i]` to
    /// the next start, `transitions[state * classCount + class]` the next state or -1, state 0 the
    /// start. The decoder follows it character by character inside a JSON string.
    public struct Pattern: Sendable, Hashable {
        public let classStarts: [UInt32]
        public let transitions: [Int32]
        public let accepting: [Bool]
        public init(classStarts: [UInt32], transitions: [Int32], accepting: [Bool]) {
            self.classStarts = classStarts; self.transitions = transitions; self.accepting = accepting
        }
    }

    case object([Member])
    /// An object with any keys (free strings), every value following `values`.
    case dictionary(values: JSONGrammar, minProperties: Int = 0, maxProperties: Int? = nil)
    /// `minLength`/`maxLength` count characters (an escape is one); `pattern` is followed when there
    /// is no enum.
    case string(enumValues: [String]? = nil, maxLength: Int? = nil, minLength: Int = 0, pattern: Pattern? = nil)
    /// `multipleOf`: the integer is a multiple of it (above 1).
    case integer(minimum: Int? = nil, maximum: Int? = nil, multipleOf: Int? = nil)
    case number(minimum: Double? = nil, maximum: Double? = nil)
    case boolean
    case null
    case array(items: JSONGrammar, minItems: Int = 0, maxItems: Int? = nil)
    /// Item `i` follows `prefix[i]`, later ones `rest` (no more items when nil).
    case tuple(prefix: [JSONGrammar], rest: JSONGrammar?, minItems: Int, maxItems: Int?)
    /// One of these, chosen by the value's first byte (the first alternative that can start with it).
    case anyOf([JSONGrammar])
    /// One of these JSON texts exactly (compact: a constant or an enum of any JSON values).
    case literals([String])
    /// The grammar named `name` in the constraint's definitions, followed lazily (recursion allowed).
    case reference(String)
    /// A part that cannot be generated, and why: an error unless an `anyOf` or an optional member
    /// can do without it.
    case refused(String)
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
    public let definitions: [String: JSONGrammar]
    let table: GrammarTable
    /// The document's first bytes, already written (a resumed answer): generation continues after them.
    public private(set) var prefix: [UInt8] = []

    public init(_ grammar: JSONGrammar, definitions: [String: JSONGrammar] = [:]) throws(ConstraintError) {
        self.grammar = grammar
        self.definitions = definitions
        table = try GrammarTable(grammar, definitions: definitions)
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

    public static func == (a: JSONConstraint,
                           b: JSONConstraint) -> Bool { a.grammar == b.grammar && a.definitions == b.definitions && a.prefix == b.prefix }
}
