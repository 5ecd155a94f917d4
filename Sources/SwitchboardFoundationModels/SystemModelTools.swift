import SwitchboardCore

/// A request's tool as the system model takes it: a Foundation Models `Tool` whose `Arguments` are
/// `GeneratedContent` (dynamic arguments) and whose `parameters` are this translated schema.
/// https://developer.apple.com/documentation/foundationmodels/tool
package struct SystemModelTool: Sendable, Hashable {
    /// The request's definition, as the app wrote it.
    package var definition: ToolDefinition
    /// Its parameters, translated.
    package var parameters: DynamicSchemaSet
    package var name: String { definition.name }
    package var description: String { definition.description }

    /// The tools the session offers: none when `toolChoice` is `.none`; a definition the framework
    /// cannot express refuses the whole request (`invalidRequest`: another provider takes it), since
    /// answering without a tool the app offered would change what the model can do.
    package static func tools(for request: GenerationRequest) throws(ProviderError) -> [SystemModelTool] {
        guard request.toolChoice == .auto else { return [] }
        var tools: [SystemModelTool] = []
        for definition in request.tools {
            if let problem = definition.problem { throw .invalidRequest(problem) }
            do {
                tools.append(SystemModelTool(definition: definition, parameters: try DynamicSchemaSet(definition.parameters)))
            } catch {
                throw .invalidRequest("the tool \(definition.name)'s parameters: \(error.description)")
            }
        }
        return tools
    }
}

/// The framework runs a session's tools itself, inside one `respond`; Switchboard's contract is the
/// opposite (the provider reports the call, the app runs it and sends the result back). So the shell's
/// tool does not run anything: its `call` records the call here and throws `ToolCallCaptured`, which
/// ends the framework's turn; the provider then reports the call and finishes with `.toolCalls`.
package struct ToolCallCaptured: Error, Sendable, Hashable {
    package var call: ToolCall
    package init(call: ToolCall) { self.call = call }

    /// A call as the shell saw it: the tool's name and the arguments' JSON text. Ids are made here,
    /// since the framework's transcript ids are not shown to tools: `fm-call-<n>` with `n` counting
    /// this provider's calls, so they are unique within a conversation.
    package init(name: String, argumentsJSON: String, sequence: Int) {
        call = ToolCall(id: "fm-call-\(sequence)", name: name, arguments: argumentsJSON)
    }
}
