import SwitchboardCore

enum AskRemoteSetup {
    case success([any Provider])
    case failure(String)
}

/// Remote providers for `ask`: the OpenAI-compatible one when `--openai-base-url` is given (see
/// `RemoteOptions` for every option).
func askRemoteProviders(_ arguments: Arguments) -> AskRemoteSetup {
    do {
        guard let options = try RemoteOptions(arguments) else { return .success([]) }
        return .success([try options.makeProvider()])
    } catch {
        return .failure("\(error)")
    }
}
