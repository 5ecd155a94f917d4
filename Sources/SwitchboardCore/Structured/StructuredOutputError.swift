/// Why a schema or a structured answer was refused. Messages say what to change.
public enum StructuredOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON Schema document uses something `GenerationSchema` cannot express (`path` locates it).
    case unsupportedSchema(path: String, reason: String)
    /// The schema text is not JSON, or not a JSON object.
    case invalidSchemaDocument(String)
    /// The schema is contradictory (e.g. minimum above maximum, an empty enum).
    case unsatisfiableSchema(path: String, reason: String)
    /// The generated text is not JSON.
    case invalidJSON(String)
    /// The generated JSON does not follow the schema.
    case schemaMismatch(path: String, reason: String)
    /// The JSON follows the schema but the Swift type could not decode it.
    case decoding(String)

    public var description: String {
        switch self {
        case .unsupportedSchema(let path, let reason):
            "JSON Schema at \(path) is not supported: \(reason) (see Docs/Structured.md for the keywords supported)"
        case .invalidSchemaDocument(let reason): "the schema is not a JSON Schema object: \(reason)"
        case .unsatisfiableSchema(let path, let reason): "the schema at \(path) admits no value: \(reason)"
        case .invalidJSON(let reason): "the answer is not JSON: \(reason)"
        case .schemaMismatch(let path, let reason): "the answer does not follow the schema at \(path): \(reason)"
        case .decoding(let reason): "the answer could not be decoded: \(reason)"
        }
    }
}
