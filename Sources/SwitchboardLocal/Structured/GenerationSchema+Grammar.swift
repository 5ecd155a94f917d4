import SwitchboardCore
import SwitchboardInference

extension GenerationSchema {
    /// The engine's form of this schema, for constrained decoding. Descriptions stay in the prompt.
    public var grammar: JSONGrammar {
        switch kind {
        case .object(let properties): .object(properties.map { JSONGrammar.Member($0.name, $0.schema.grammar, required: $0.isRequired) })
        case .string(let values, let maxLength): .string(enumValues: values, maxLength: maxLength)
        case .integer(let minimum, let maximum): .integer(minimum: minimum, maximum: maximum)
        case .number(let minimum, let maximum): .number(minimum: minimum, maximum: maximum)
        case .boolean: .boolean
        case .null: .null
        case .array(let items, let minItems, let maxItems): .array(items: items.grammar, minItems: minItems, maxItems: maxItems)
        case .anyOf(let choices): .anyOf(choices.map(\.grammar))
        }
    }

    /// The schema compiled for the engine; an `invalidRequest` says why it cannot be enforced.
    func constraint() throws(ProviderError) -> JSONConstraint {
        do { return try JSONConstraint(grammar) } catch { throw .invalidRequest(error.description) }
    }
}

extension OutputFormat {
    /// The schema of a structured request (nil for text); an unusable schema is an `invalidRequest`.
    func generationSchema() throws(ProviderError) -> GenerationSchema? {
        guard case .jsonSchema(let text) = self else { return nil }
        do { return try GenerationSchema(jsonSchema: text) } catch { throw .invalidRequest(error.description) }
    }
}
