/// Something a session can ask the model to use, in the shape of FoundationModels' `Tool`: a name,
/// what it does, typed arguments (their schema is what the model writes), and the call itself. A
/// tool that throws does not end the conversation: its error becomes a result the model reads.
///
/// ```swift
/// struct Weather: Tool {
///     struct Arguments: Generable {
///         var city: String
///         static var generationSchema: GenerationSchema { .object([.init("city", .string(maxLength: 40))]) }
///     }
///     var name: String { "weather" }
///     var description: String { "Gives the current weather in a city." }
///     func call(arguments: Arguments) async throws -> String { "sunny, 22 degrees in \(arguments.city)" }
/// }
/// ```
///
/// The session validates what the model wrote against `parameters`, then decodes `Arguments`:
/// arguments that fail either never reach `call` and become a `ToolCallError.invalidArguments`
/// result. A tool built at run time, whose schema is only known then, is a `DynamicTool`.
public protocol Tool: Sendable {
    associatedtype Arguments: Generable
    associatedtype Output: PromptRepresentable = String
    var name: String { get }
    var description: String { get }
    /// The schema the model's arguments must follow: `Arguments.generationSchema` unless given.
    var parameters: GenerationSchema { get }
    /// Runs the tool on validated, decoded arguments; returns what the model reads.
    func call(arguments: Arguments) async throws -> Output
}

extension Tool {
    public var parameters: GenerationSchema { Arguments.generationSchema }

    /// Decodes arguments already validated against `parameters` and calls the tool. A value that
    /// does not decode is `ToolCallError.invalidArguments` (the tool did not run).
    package func call(validated content: GeneratedContent) async throws -> String {
        let arguments: Arguments
        do { arguments = try Arguments.decode(content) } catch {
            throw ToolCallError.invalidArguments(tool: name, reason: error.description)
        }
        return try await call(arguments: arguments).promptRepresentation
    }
}

/// What a tool gives back, as the model reads it. FoundationModels' protocol of the same name
/// builds a `Prompt`; Switchboard's prompts are text, so this is text.
public protocol PromptRepresentable: Sendable {
    var promptRepresentation: String { get }
}

extension String: PromptRepresentable {
    public var promptRepresentation: String { self }
}

extension GeneratedContent: PromptRepresentable {
    /// The value as compact JSON.
    public var promptRepresentation: String { jsonText }
}

/// A tool whose schema and body are values, for apps that build tools at run time (from a plug-in
/// list, a server's manifest): the arguments arrive as `GeneratedContent`, already validated
/// against `parameters`.
public struct DynamicTool: Tool {
    public var name: String
    public var description: String
    public var parameters: GenerationSchema
    private let body: @Sendable (GeneratedContent) async throws -> String

    public init(name: String, description: String, parameters: GenerationSchema,
                call body: @escaping @Sendable (GeneratedContent) async throws -> String) {
        self.name = name; self.description = description; self.parameters = parameters; self.body = body
    }

    public func call(arguments: GeneratedContent) async throws -> String { try await body(arguments) }
}
