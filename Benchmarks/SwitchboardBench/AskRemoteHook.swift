import SwitchboardCore

enum AskRemoteSetup {
    case success([any Provider])
    case failure(String)
}

/// Remote providers for `ask` from `--openai-base-url URL --openai-model NAME [--openai-key-env VAR]`.
/// Hook for the remote branch's `RemoteOptions` (Benchmarks/SwitchboardBench/RemoteOptions.swift): until it
/// is merged, asking for a remote provider is refused with a clear message rather than ignored.
func askRemoteProviders(_ arguments: Arguments) -> AskRemoteSetup {
    guard arguments.string("openai-base-url") != nil || arguments.string("openai-model") != nil else { return .success([]) }
    return .failure("--openai-base-url/--openai-model need RemoteOptions from the remote branch, which this build does not include yet")
}
