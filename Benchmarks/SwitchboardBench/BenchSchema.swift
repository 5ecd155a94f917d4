import SwitchboardCore
import SwitchboardInference
import SwitchboardLocal

/// A JSON Schema from the command line or a task file, checked the whole way before any model runs:
/// parsed into a `GenerationSchema` and compiled for the on-device decoder. A schema either step
/// refuses (unsupported, contradictory, too large for the decoder's tables) is the user's input to
/// fix: a usage error, exit 64, with the reason.
enum BenchSchema {
    static func load(_ text: String, source: String) -> Result<GenerationSchema, UsageError> {
        do {
            let schema = try GenerationSchema(jsonSchema: text)
            _ = try schema.compiledConstraint()   // with the definitions `$ref`s point to
            return .success(schema)
        } catch {
            return .failure(UsageError(description: "\(source): the schema cannot be used: \(error)"))
        }
    }

    /// The exit code for an error met while running with a schema: 64 when the schema or the token
    /// budget asked for is the problem (the input is to change), 1 otherwise.
    static func exitCode(for error: any Error) -> Int32 {
        if error is UsageError { return 64 }
        if let error = error as? StructuredOutputError {
            switch error {
            case .unsupportedSchema, .invalidSchemaDocument, .unsatisfiableSchema, .invalidJSON: return 64
            case .schemaMismatch, .decoding: return 1
            }
        }
        let constraint: ConstraintError? = if let error = error as? ConstraintError { error }
            else if case .constraint(let inner)? = error as? InferenceError { inner } else { nil }
        if let constraint {
            if case .unsupportedGrammar = constraint { return 64 }
            if case .budgetTooSmall = constraint { return 64 }
        }
        return 1
    }
}
