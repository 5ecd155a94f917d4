/// Something a session can ask the model to use: a name, what it does, the shape of its arguments
/// (the schema generation type), and the call itself. A tool that throws does not end the
/// conversation: its error becomes a result the model reads.
public protocol Tool: Sendable {
    var name: String { get }
    var description: String { get }
    var arguments: GenerationSchema { get }
    /// Runs the tool on arguments already validated against `arguments`; returns what the model reads.
    func call(_ arguments: GeneratedContent) async throws -> String
}
