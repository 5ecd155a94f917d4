import Switchboard
import SwitchboardLocal

// The README's quick start, line for line: the imports above, then the body of `readmeQuickStart`
// (indented one level here). `QuickStartTests` checks that README.md prints exactly this code, and
// runs it. It uses the default model folder, where `Scripts/fetch-model.sh` stores the models.
func readmeQuickStart() async throws {
    // BEGIN QUICK START
    // The on-device chat model (run Scripts/fetch-model.sh once; files live in ~/.cache/switchboard/models).
    let local = LocalModelProvider(configuration: .smolLM2_135mInstruct, loader: LocalEngineLoader(threads: 2))
    let switchboard = Coordinator(providers: [local])
    let answer = try await switchboard.respond(to: "What is the capital of France?")
    print(answer.content)
    // END QUICK START
}
