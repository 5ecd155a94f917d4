import Switchboard
import SwitchboardLocal

// The README's quick start, line for line: the imports above, then the body of `readmeQuickStart`
// (indented one level here). `QuickStartTests` checks that README.md prints exactly this code, and
// runs it, reading what it prints (`QuickStartOutput`). It uses the default model folder, where
// `Scripts/fetch-model.sh` stores the models.
func readmeQuickStart() async throws {
    // BEGIN QUICK START
    // The on-device chat model (run Scripts/fetch-model.sh once; files live in ~/.cache/switchboard/models).
    let local = LocalModelProvider(model: .smolLM2)
    let switchboard = Coordinator(providers: [local])
    let session = Session(coordinator: switchboard, instructions: "You are a helpful assistant.")
    let answer = try await session.respond(to: "What is the capital of France?")
    print(answer.content)
    // END QUICK START
}
