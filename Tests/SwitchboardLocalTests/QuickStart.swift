import Switchboard
import SwitchboardLocal

// The README's quick start, line for line: the imports above, then the body of `readmeQuickStart`
// (indented one level here). `QuickStartTests` checks that README.md prints exactly this code, and
// runs it. It uses the default model folder, where `Scripts/fetch-model.sh` stores the models.
func readmeQuickStart() async {
    // BEGIN QUICK START
    // The on-device chat model (run Scripts/fetch-model.sh once; files live in ~/.cache/switchboard/models).
    let local = LocalModelProvider(configuration: .smolLM2_135mInstruct, loader: LocalEngineLoader(threads: 2))
    let switchboard = Coordinator(providers: [local],
                                  configuration: SwitchboardConfiguration(concurrency: [local.id: 1]),
                                  deviceState: SystemStateSource())

    let request = GenerationRequest(messages: [
        ChatMessage(.system, "You are a helpful assistant. Answer briefly and accurately."),
        ChatMessage(.user, "What is the capital of France?"),
    ], maxTokens: 32)
    for await event in switchboard.stream(request) {
        switch event {
        case .token(let text): print(text, terminator: "")
        case .completed(let response): print("\n[\(response.providerID), \(response.usage.completionTokens) tokens]")
        case .failed(let error): print("\nfailed: \(error)")
        default: break
        }
    }
    // END QUICK START
}
