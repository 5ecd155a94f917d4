import Foundation
import SwitchboardCore
import SwitchboardInference

/// The on-device provider: one verified model file, loaded on demand, generating up to its engine's
/// batch size of requests at once (continuous batching), more waiting in arrival order.
///
/// Requests arriving while the model loads wait for it; the model is unloaded after `idleTimeout` without
/// requests, under critical memory pressure (polled from `deviceState`, or reported with
/// `handleMemoryPressure`), or on `unload()`, and reloaded by the next request. The provider advertises
/// its batch size as `capabilities.maxConcurrency`, which the runtime's load balancer uses as its slot
/// count (ordering the rest by priority) unless the configuration names another limit.
public actor LocalModelProvider: Provider, SessionStateHolder {
    public nonisolated let id: ProviderID
    public nonisolated let capabilities: ProviderCapabilities
    public nonisolated let configuration: ModelConfiguration
    public nonisolated let modelPath: String

    let loader: any LocalEngineLoading
    let verifier: ModelVerifier
    let clock: ClockSource
    let deviceState: (any DeviceStateProviding)?
    let pressurePollInterval: Duration

    var lifecycle: ModelLifecycle
    var engine: (any LocalInferenceEngine)?
    var lastLoadError: LocalModelError?
    var loadStartedAt: Duration = .zero
    var idleTimer: Task<Void, Never>?
    var pressureMonitor: Task<Void, Never>?
    var nextTicket: UInt64 = 0
    /// The current (or last) load; requests that wait for the model await it.
    var loading: Task<Result<Void, LocalModelError>, Never>?
    var progressObservers: [UInt64: AsyncStream<LoadProgress>.Continuation] = [:]
    var lastProgress = LoadProgress(phase: .verifying, fraction: 0)
    public internal(set) var statistics = LocalProviderStatistics()

    /// - Parameters:
    ///   - modelPath: the file to load; by default the configuration's file in the registry's folder.
    ///   - idleTimeout: unload after this long without requests; nil keeps the model loaded.
    ///   - deviceState: polled every `pressurePollInterval` while the model is loaded, and before a load.
    package init(configuration: ModelConfiguration = .gemma3_270m, modelPath: String? = nil,
                registry: ModelRegistry = .default, loader: any LocalEngineLoading,
                verifier: ModelVerifier = .shared, idleTimeout: Duration? = .seconds(300),
                deviceState: (any DeviceStateProviding)? = nil, pressurePollInterval: Duration = .seconds(5),
                clock: some Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        self.id = ProviderID(configuration.id.hasPrefix("local") ? configuration.id : "local-" + configuration.id)
        self.modelPath = modelPath ?? registry.path(for: configuration)
        self.loader = loader
        self.verifier = verifier
        self.clock = ClockSource(clock)
        self.deviceState = deviceState
        self.pressurePollInterval = pressurePollInterval
        self.lifecycle = ModelLifecycle(idleTimeout: idleTimeout)
        let context = min(configuration.contextLength, Self.declaredContextLength(at: self.modelPath) ?? .max)
        self.capabilities = ProviderCapabilities(
            isOnDevice: true, maxContextTokens: context, supportsImages: false,
            supportsStructuredOutput: configuration.promptFormat.isChat, followsInstructions: configuration.promptFormat.isChat,
            maxConcurrency: loader.batchSize ?? Self.defaultConcurrency, pricing: .free,
            expectedTimeToFirstToken: .milliseconds(150), expectedTokensPerSecond: 40)
    }

    /// Requests admitted at once when the loader does not fix its batch size: the engine's batch
    /// chosen from memory is at least this on any device that can run the model well (up to 8).
    public static let defaultConcurrency = 4

    public func availability() -> ProviderAvailability {
        switch lifecycle.state {
        case .ready: return .ready
        case .loading(let progress): return .loading(progress: progress)
        case .failed(let reason): return .unavailable(reason: reason)
        case .notLoaded, .unloading:
            if lifecycle.underPressure {
                return .unavailable(reason: "memory pressure is \(lifecycle.memoryPressure); the model cannot be loaded now")
            }
            if !FileManager.default.fileExists(atPath: modelPath) {
                return .unavailable(reason: LocalModelError.fileNotFound(path: modelPath, hint: LocalModelError.fetchHint).description)
            }
            return .notLoaded
        }
    }

    /// Drops what the loaded engine cached of `owner`'s prompts alone (an unloaded engine holds nothing).
    package func forgetSession(_ owner: UInt64) async { await engine?.forgetPrefixes(owner: owner) }

    /// The lifecycle state (not loaded, loading, ready, failed, unloading).
    public var state: ModelLifecycle.State { lifecycle.state }

    /// The loaded engine's context, or the configured one before a load.
    public var contextLength: Int { engine?.contextLength ?? capabilities.maxContextTokens }

    /// The context length a GGUF file declares, read from its header (nil when unreadable).
    static func declaredContextLength(at path: String) -> Int? {
        guard let file = try? GGUFFile(contentsOf: path), let architecture = try? file.architecture else { return nil }
        return (try? file.optionalInt("\(architecture).context_length")) ?? nil
    }
}

extension LocalModelProvider {
    /// The on-device provider for a model Switchboard knows (`Scripts/fetch-model.sh` stores its file in
    /// the model folder), checked against its SHA-256 before every load.
    /// - Parameters:
    ///   - idleTimeout: unload after this long without requests; nil keeps the model loaded.
    ///   - deviceState: polled while the model is loaded (and before a load): critical memory pressure
    ///     unloads it.
    public init(model: LocalModel = .smolLM2, idleTimeout: Duration? = .seconds(300), deviceState: (any DeviceStateProviding)? = nil) {
        self.init(configuration: model.configuration, loader: LocalEngineLoader(threads: Self.defaultThreads), idleTimeout: idleTimeout,
                  deviceState: deviceState)
    }

    /// The on-device provider for a GGUF file of your own: architecture, context and chat template are
    /// read from the file (`ModelConfiguration(file:sha256:contextLength:)`, whose errors it throws).
    /// - Parameter sha256: checked before every load when given.
    public init(file: URL, sha256: String? = nil, contextLength: Int? = nil, idleTimeout: Duration? = .seconds(300),
                deviceState: (any DeviceStateProviding)? = nil) throws(LocalModelError) {
        let configuration = try ModelConfiguration(file: file, sha256: sha256, contextLength: contextLength)
        self.init(configuration: configuration, modelPath: file.path, loader: LocalEngineLoader(threads: Self.defaultThreads),
                  idleTimeout: idleTimeout, deviceState: deviceState)
    }

    /// Kernel threads per forward pass: the active processors, at most 8. Decoding a small model is
    /// bound by memory bandwidth, which a few cores saturate; the rest stay with the app.
    static var defaultThreads: Int { min(8, max(1, ProcessInfo.processInfo.activeProcessorCount)) }
}

/// What one `LocalModelProvider` has done since it was made (for benchmarks and diagnostics).
public struct LocalProviderStatistics: Sendable, Hashable {
    public var loads = 0
    public var unloads = 0
    public var failedLoads = 0
    public var generations = 0
    public var cancelledGenerations = 0
    public var failedGenerations = 0
    public var promptTokens = 0
    public var completionTokens = 0
    /// Duration of the last successful load, verification included.
    public var lastLoadDuration: Duration?
    public init() {}
}
