import SwitchboardCore

extension AnthropicWireFormat {
    static let answerToolName = "json_answer"

    /// The Messages API has no response format: a structured request becomes one tool the model is
    /// forced to call, whose input schema is the requested schema. Its input is the answer.
    static func answerTool(_ schema: JSONValue) throws -> (tools: JSONValue, choice: JSONValue) {
        // Tool inputs are always objects.
        guard schema["type"]?.stringValue == "object" else {
            throw ProviderError.invalidRequest("Anthropic answers structured requests through a tool, whose input must be an object; "
                + "wrap the top-level value in an object property")
        }
        let purpose = schema["description"]?.stringValue.map { " It holds: \($0)" } ?? ""
        let tool: JSONValue = [
            "name": .string(answerToolName),
            "description": .string("Give the answer by calling this tool; its input is the whole answer." + purpose),
            "input_schema": schema,
        ]
        return ([tool], ["type": "tool", "name": .string(answerToolName)])
    }
}
