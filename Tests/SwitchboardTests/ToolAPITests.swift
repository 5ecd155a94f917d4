import Foundation
import Switchboard
import SwitchboardTestKit
import Testing

/// Typed tool arguments (`Tool.Arguments: Generable`), tools built at run time (`DynamicTool`), and a
/// session's `Response`/`ResponseStream` turns.
@Suite("Tool and session API")
struct ToolAPITests {
    /// What a tool saw, shared between its copies.
    final class Recorder<Value: Sendable>: Sendable {
        private let value: Lock<Value>
        init(_ value: Value) { self.value = Lock(value) }
        func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
        var current: Value { value.withLock { $0 } }
    }

    /// A tool whose arguments are a type: a count the schema bounds, and a unit.
    struct Repeat: Tool {
        struct Arguments: Generable {
            var word: String
            var times: Int
            static var generationSchema: GenerationSchema {
                .object([.init("word", .string(maxLength: 20)), .init("times", .integer(minimum: 1, maximum: 5))])
            }
        }
        let seen = Recorder<[Arguments]>([])
        var name: String { "repeat" }
        var description: String { "Repeats a word." }
        func call(arguments: Arguments) async throws -> String {
            seen.update { $0.append(arguments) }
            return Array(repeating: arguments.word, count: arguments.times).joined(separator: " ")
        }
    }

    /// A tool whose schema (given, not derived) lets through a value its type cannot decode.
    struct Mismatched: Tool {
        struct Arguments: Generable {
            var times: Int
            static var generationSchema: GenerationSchema { .object([.init("times", .integer())]) }
        }
        let ran = Recorder(false)
        var name: String { "mismatched" }
        var description: String { "Has a schema wider than its type." }
        var parameters: GenerationSchema { .object([.init("times", .string())]) }
        func call(arguments: Arguments) async throws -> GeneratedContent {
            ran.update { $0 = true }
            return .object([(key: "times", value: .number("\(arguments.times)"))])
        }
    }

    /// A remote model that calls `tool` with `arguments` once, then answers in text.
    static func remote(tool: String, arguments: String) -> ScriptedProvider {
        var capabilities = Fixture.remoteCapabilities()
        capabilities.supportsToolCalling = true
        return ScriptedProvider(id: "remote", capabilities: capabilities, output: .turn { call in
            guard call.request.toolChoice == .auto, !call.request.messages.contains(where: { $0.role == .tool }) else {
                return ScriptedTurn(tokens: ["Done", "."])
            }
            return ScriptedTurn(toolCalls: [ToolCall(id: "c1", name: tool, arguments: arguments)])
        })
    }

    static func session(_ remote: ScriptedProvider, tools: [any Tool]) -> Session {
        Session(coordinator: Coordinator(providers: [remote], configuration: Fixture.configuration(), deviceState: FixedDeviceState()),
                tools: tools)
    }

    static func toolResult(_ session: Session) async -> (output: String, isError: Bool)? {
        for entry in await session.transcript { if case .toolResult(_, let output, _, let isError) = entry { return (output, isError) } }
        return nil
    }

    @Test("typed arguments arrive decoded; the definition sent is the Arguments' schema")
    func typedArguments() async throws {
        let remote = Self.remote(tool: "repeat", arguments: #"{"word":"hey","times":3}"#)
        let tool = Repeat()
        let session = Self.session(remote, tools: [tool])
        let answer = try await session.respond(to: "Say hey three times.")
        #expect(answer.content == "Done." && answer.providerID == "remote")
        #expect(tool.seen.current.map(\.word) == ["hey"] && tool.seen.current.map(\.times) == [3])
        #expect(await Self.toolResult(session)?.output == "hey hey hey")
        let definitions = try #require(await remote.receivedRequests.first?.request.tools)
        #expect(definitions == [ToolDefinition(name: "repeat", description: "Repeats a word.", parameters: Repeat.Arguments.generationSchema)])
    }

    @Test("arguments outside the schema's bounds are refused with a typed error; the tool does not run")
    func argumentsOutOfBounds() async throws {
        let tool = Repeat()
        let session = Self.session(Self.remote(tool: "repeat", arguments: #"{"word":"hey","times":500}"#), tools: [tool])
        _ = try await session.respond(to: "Say hey many times.")
        #expect(tool.seen.current.isEmpty)
        let result = try #require(await Self.toolResult(session))
        #expect(result.isError)
        #expect(result.output.hasPrefix(ToolCallError.invalidArguments(tool: "repeat", reason: "").description))
    }

    @Test("arguments the schema accepts but the type cannot decode are invalidArguments too, never a call")
    func argumentsThatDoNotDecode() async throws {
        let tool = Mismatched()
        let session = Self.session(Self.remote(tool: "mismatched", arguments: #"{"times":"three"}"#), tools: [tool])
        _ = try await session.respond(to: "Go.")
        #expect(!tool.ran.current)
        let result = try #require(await Self.toolResult(session))
        #expect(result.isError && result.output.contains("the arguments for mismatched were refused"))
    }

    @Test("a DynamicTool built at run time gets its validated arguments as GeneratedContent")
    func dynamicTool() async throws {
        let received = Recorder<[GeneratedContent]>([])
        let lookup = DynamicTool(name: "lookup", description: "Looks a key up.",
                                 parameters: .object([.init("key", .string(enum: ["a", "b"]))])) { arguments in
            received.update { $0.append(arguments) }
            return arguments["key"] == .string("a") ? "alpha" : "beta"
        }
        let session = Self.session(Self.remote(tool: "lookup", arguments: #"{"key":"a"}"#), tools: [lookup])
        _ = try await session.respond(to: "Look up a.")
        #expect(received.current == [.object([(key: "key", value: .string("a"))])])
        #expect(await Self.toolResult(session)?.output == "alpha")
        #expect(ToolDefinition(lookup).parameters == lookup.parameters)

        let refused = Self.session(Self.remote(tool: "lookup", arguments: #"{"key":"z"}"#), tools: [lookup])
        _ = try await refused.respond(to: "Look up z.")
        #expect(received.current.count == 1, "a value outside the enum never reaches the body")
    }

    @Test("GeneratedContent round-trips through Codable as the JSON value it is")
    func generatedContentCodable() throws {
        let value = GeneratedContent.object([(key: "a", value: .array([.number("1"), .number("2.5"), .null, .bool(true)])),
                                             (key: "b", value: .string("x\"y"))])
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(GeneratedContent.self, from: data) == value)
        #expect(try GeneratedContent.decode(value) == value)
        #expect(try String.decode(.string("plain")) == "plain")
        #expect(throws: StructuredOutputError.self) { try String.decode(.number("1")) }
    }

    @Test("a session turn is a Response; streamed, it is recorded once it completes")
    func sessionResponses() async throws {
        let local = Fixture.local(tokens: ["Hello", " there"])
        let session = Session(coordinator: Coordinator(providers: [local], configuration: Fixture.configuration(), deviceState: FixedDeviceState()),
                              instructions: "Be brief.")
        let first = try await session.respond(to: "Hi", options: GenerationOptions(maximumResponseTokens: 9))
        #expect(first.content == "Hello there" && first.providerID == "local")
        #expect(await local.receivedRequests.last?.request.maxTokens == 9)

        let stream = await session.streamResponse(to: "Again")
        var last = ""
        for try await snapshot in stream { last = snapshot.content }
        #expect(last == "Hello there")
        #expect(try await stream.collect().content == "Hello there")
        #expect(await session.transcript == [.instructions("Be brief."), .prompt("Hi"), .response("Hello there", provider: "local"),
                                             .prompt("Again"), .response("Hello there", provider: "local")])
    }

    @Test("a session turn that cannot be sent ends its stream with the session's error")
    func sessionStreamFails() async throws {
        let session = Session(coordinator: Coordinator(providers: [Fixture.local()], configuration: Fixture.configuration(),
                                                       deviceState: FixedDeviceState()),
                              options: Session.Options(contextTokens: 8, overflow: .fail))
        let stream = await session.streamResponse(to: String(repeating: "long prompt ", count: 40))
        await #expect(throws: SessionError.self) { for try await _ in stream {} }
        await #expect(throws: SessionError.self) { try await stream.collect() }
        #expect(await session.transcript.isEmpty)
    }

    @Test("a session's typed stream records only a valid answer")
    func sessionTypedStream() async throws {
        let local = ScriptedProvider(id: "local", capabilities: ProviderCapabilities(isOnDevice: true, maxContextTokens: 8192,
                                                                                     supportsStructuredOutput: true),
                                     output: .tokens([#"{"name": "Paris", "country": "France"}"#]))
        let session = Session(coordinator: Coordinator(providers: [local], configuration: Fixture.configuration(), deviceState: FixedDeviceState()))
        let stream = await session.streamResponse(to: "Capital?", generating: ResponseAPITests.City.self)
        #expect(try await stream.collect().content == ResponseAPITests.City(name: "Paris", country: "France"))
        #expect(await session.transcript.count == 2)

        await local.setOutput(.tokens([#"{"name": "Paris"}"#]))
        let invalid = await session.streamResponse(to: "Again?", generating: ResponseAPITests.City.self)
        await #expect(throws: StructuredResponseError.self) { try await invalid.collect() }
        #expect(await session.transcript.count == 2, "an invalid answer is not recorded")
    }
}
