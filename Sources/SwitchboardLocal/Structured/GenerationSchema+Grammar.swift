import SwitchboardCore
import SwitchboardInference

extension GenerationSchema {
    /// The engine's form of this schema, for constrained decoding. Descriptions stay in the prompt;
    /// patterns and formats become the automata the decoder follows; what cannot be generated is
    /// `.refused` with the reason (an error unless an alternative or an optional member can do
    /// without it).
    public var grammar: JSONGrammar {
        switch kind {
        case .object(let properties): .object(properties.map { JSONGrammar.Member($0.name, $0.schema.grammar, required: $0.isRequired) })
        case .dictionary(let values, let minProperties, let maxProperties):
            .dictionary(values: values.grammar, minProperties: minProperties, maxProperties: maxProperties)
        case .string(let rules): Self.grammar(of: rules)
        case .integer(let minimum, let maximum, let multipleOf): .integer(minimum: minimum, maximum: maximum, multipleOf: multipleOf)
        case .number(let minimum, let maximum): .number(minimum: minimum, maximum: maximum)
        case .boolean: .boolean
        case .null: .null
        case .array(let items, let minItems, let maxItems): .array(items: items.grammar, minItems: minItems, maxItems: maxItems)
        case .tuple(let prefix, let rest, let minItems, let maxItems):
            .tuple(prefix: prefix.map(\.grammar), rest: rest?.grammar, minItems: minItems, maxItems: maxItems)
        case .anyOf(let choices): .anyOf(choices.map(\.grammar))
        case .constants(let values): .literals(values.map(\.jsonText))
        case .reference(let name): .reference(name)
        case .open(let reason): .refused(reason)
        }
    }

    /// The grammars of the root's definitions, which `.reference` names.
    public var grammarDefinitions: [String: JSONGrammar] { definitions.mapValues(\.grammar) }

    private static func grammar(of rules: StringRules) -> JSONGrammar {
        if rules.enumValues != nil { return .string(enumValues: rules.enumValues, maxLength: rules.maxLength, minLength: rules.minLength) }
        guard let source = rules.pattern ?? rules.format?.generationPattern else {
            return .string(maxLength: rules.maxLength, minLength: rules.minLength)
        }
        do {
            var regex = try SchemaRegex(source)
            // Both: the strings the pattern matches among those generated for the format.
            if let format = rules.format, rules.pattern != nil {
                regex = try regex.intersecting(SchemaRegex(format.generationPattern))
                if regex.isEmpty { return .refused("no string the decoder generates for the format \(format.rawValue) matches the pattern") }
            }
            let pattern = JSONGrammar.Pattern(classStarts: regex.classStarts, transitions: regex.transitions, accepting: regex.accepting)
            return .string(maxLength: rules.maxLength, minLength: rules.minLength, pattern: pattern)
        } catch {
            return .refused(error.description)
        }
    }

    /// The schema compiled for the engine (references included).
    public func compiledConstraint() throws(ConstraintError) -> JSONConstraint {
        try JSONConstraint(grammar, definitions: grammarDefinitions)
    }

    /// The schema compiled for the engine; an `invalidRequest` says why it cannot be enforced.
    func constraint() throws(ProviderError) -> JSONConstraint {
        do { return try compiledConstraint() } catch { throw .invalidRequest(error.description) }
    }
}

extension OutputFormat {
    /// The schema of a structured request (nil for text); an unusable schema is an `invalidRequest`.
    func generationSchema() throws(ProviderError) -> GenerationSchema? {
        guard case .jsonSchema(let text) = self else { return nil }
        do { return try GenerationSchema(jsonSchema: text) } catch { throw .invalidRequest(error.description) }
    }
}
