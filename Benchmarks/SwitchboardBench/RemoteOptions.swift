import Foundation
import SwitchboardCore
import SwitchboardRemote

/// The OpenAI-compatible provider as subcommands (`ask`, ...) configure it from the command line:
///
///     --openai-base-url URL     e.g. http://127.0.0.1:8080/v1 (llama.cpp), http://127.0.0.1:11434/v1 (Ollama)
///     --openai-model NAME       the server's model name (default: gemma)
///     --openai-key-env VAR      read the API key from this environment variable (default: none)
///     --openai-context N        the server's context length in tokens (default: 2048)
///     --openai-timeout SECONDS  request, idle and no-new-token timeout (default: 120)
///     --openai-deadline SECONDS the longest call, however busy the stream (default: 600); each call's own
///                               deadline is 15 s + max-tokens / 5 per second when that is shorter
///     --openai-no-stream-usage  do not send stream_options.include_usage (for servers that reject it)
///     --openai-json-object      request JSON as {"type":"json_object","schema":...} (llama-cpp-python)
///     --openai-price IN,OUT     US dollars per million input and output tokens (default: free)
///     --openai-budget USD       refuse requests past this spend
struct RemoteOptions {
    static let usage = """
          --openai-base-url URL    an OpenAI-compatible server (llama.cpp, Ollama, vLLM, LM Studio, OpenAI)
          --openai-model NAME      model name on that server (default: gemma)
          --openai-key-env VAR     environment variable holding its API key (default: none)
          --openai-context N       its context length in tokens (default: 2048)
          --openai-timeout SECONDS request, idle and no-new-token timeout (default: 120)
          --openai-deadline SECONDS longest call (default: 600; a call gets 15 s + max-tokens / 5 per second if shorter)
          --openai-no-stream-usage do not ask for usage in streams
          --openai-json-object     use {"type":"json_object","schema":...} for JSON output (llama-cpp-python)
          --openai-price IN,OUT    dollars per million input,output tokens (default: 0,0)
          --openai-budget USD      spending limit for the provider
        """

    /// Every option above, with its range (checked before any command runs).
    static let options: [BenchOption] = [
        .text("openai-base-url"), .text("openai-model"), .text("openai-key-env"), .integer("openai-context", 1...10_000_000),
        .number("openai-timeout", 0.001...604_800), .number("openai-deadline", 0.001...604_800),
        .flag("openai-no-stream-usage"), .flag("openai-json-object"), .text("openai-price"), .number("openai-budget", 0...1e9),
    ]

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    var baseURL: URL
    var model: String
    var keyVariable: String?
    var contextTokens: Int
    var timeout: Duration
    var deadline: Duration
    var includeStreamUsage: Bool
    var jsonObject: Bool
    var pricing: TokenPricing
    var budgetUSD: Double?

    /// Nil when `--openai-base-url` is absent (no remote provider wanted); throws on bad values.
    init?(_ arguments: Arguments) throws {
        guard let base = arguments.string("openai-base-url") else { return nil }
        guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw Invalid(description: "--openai-base-url must be an http(s) URL such as http://127.0.0.1:8080/v1, got '\(base)'")
        }
        baseURL = url
        model = arguments.string("openai-model") ?? "gemma"
        keyVariable = arguments.string("openai-key-env")
        contextTokens = arguments.int("openai-context") ?? 2048
        guard contextTokens > 0 else { throw Invalid(description: "--openai-context must be a positive number of tokens") }
        let seconds = arguments.double("openai-timeout") ?? 120
        guard seconds > 0, seconds.isFinite else { throw Invalid(description: "--openai-timeout must be positive") }
        timeout = .seconds(seconds)
        let deadlineSeconds = arguments.double("openai-deadline") ?? max(600, seconds)
        guard deadlineSeconds > 0, deadlineSeconds.isFinite else { throw Invalid(description: "--openai-deadline must be positive") }
        deadline = .seconds(deadlineSeconds)
        includeStreamUsage = !arguments.flag("openai-no-stream-usage")
        jsonObject = arguments.flag("openai-json-object")
        if let price = arguments.string("openai-price") {
            let parts = price.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 0 && $0 <= 1e6 }) else {
                throw Invalid(description: "--openai-price takes two numbers from 0 to 1000000 (dollars per million tokens), e.g. 0.15,0.60")
            }
            pricing = TokenPricing(inputPerMillion: parts[0], outputPerMillion: parts[1])
        } else {
            pricing = .free
        }
        budgetUSD = arguments.double("openai-budget")
    }

    /// Builds the provider; the key (if any) is read from the named variable on each request.
    func makeProvider(ledger: UsageLedger = UsageLedger(), log: (@Sendable (String) -> Void)? = nil,
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RemoteProvider {
        let id: ProviderID = "openai-compatible"
        var credentials = APICredentials.none
        if let keyVariable {
            do { _ = try APIKey(validating: environment[keyVariable] ?? "") } catch {
                throw Invalid(description: "--openai-key-env names \(keyVariable): \(error == .empty ? "not set or empty" : error.description)")
            }
            credentials = .store(EnvironmentKeyStore(variables: [id: keyVariable], environment: environment), KeyReference(id))
        }
        let settings = RemoteProviderSettings(maxContextTokens: contextTokens, supportsStructuredOutput: true, pricing: pricing,
                                              requestTimeout: timeout, idleTimeout: timeout, budgetUSD: budgetUSD,
                                              ledger: ledger, log: log, tokenTimeout: timeout, totalTimeout: deadline)
        let options = RemoteProvider.OpenAIOptions(includeStreamUsage: includeStreamUsage,
                                                  responseFormat: jsonObject ? .jsonObjectWithSchema : .jsonSchema)
        return .openAI(model: model, baseURL: baseURL, credentials: credentials, id: id, options: options, settings: settings)
    }
}
