import Switchboard
import SwitchboardLocal

// The README's second quick start (a typed answer, and a session with one tool), line for line like
// `QuickStart.swift`; `QuickStartTests` checks README.md prints exactly this and runs it.
func readmeSessionQuickStart() async throws {
    // BEGIN SESSION QUICK START
    struct City: Generable {
        var name: String
        var country: String
        static var generationSchema: GenerationSchema {
            .object([.init("name", .string()), .init("country", .string())])
        }
    }

    struct Weather: Tool {
        struct Arguments: Generable {
            var city: String
            static var generationSchema: GenerationSchema { .object([.init("city", .string(maxLength: 40))]) }
        }
        var name: String { "weather" }
        var description: String { "Gives the current weather in a city." }
        func call(arguments: Arguments) async throws -> String { "sunny, 22 degrees in \(arguments.city)" }
    }

    let local = LocalModelProvider(model: .smolLM2)
    let switchboard = Coordinator(providers: [local])

    // A typed answer: the schema constrains the model's output on device.
    let city = try await switchboard.respond(to: "Which city is the capital of France?", generating: City.self)
    print(city.content.name, city.content.country)

    // A conversation with a tool; it stays on device once it has seen private content.
    let session = Session(coordinator: switchboard,
                          instructions: "You are a helpful assistant. Answer briefly and accurately.",
                          tools: [Weather()])
    let answer = try await session.respond(to: "What is the weather in Paris right now?")
    print(answer.content)
    // END SESSION QUICK START
}
