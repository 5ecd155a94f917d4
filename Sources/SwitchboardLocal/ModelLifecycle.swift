import SwitchboardCore

/// When the on-device model is in memory: the decisions of `LocalModelProvider`, as a plain state machine
/// that returns actions, so every transition is tested without tasks or a model.
///
/// Requests that arrive while the model is not loaded start a load and wait for it; requests during a load
/// or an unload wait too. The model is unloaded after `idleTimeout` without requests, when memory pressure
/// reaches `unloadPressure`, or when asked, but never under a running request (it unloads once idle).
public struct ModelLifecycle: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        case notLoaded
        case loading(progress: Double)
        case ready
        case failed(reason: String)
        case unloading
    }

    public enum Event: Sendable, Hashable {
        case loadRequested
        case progress(Double)
        case loaded
        case loadFailed(reason: String)
        case requestStarted
        case requestFinished
        /// The idle timer fired (it may be stale: the state machine re-checks the time).
        case idleTimeout
        case memoryPressure(DeviceState.MemoryPressure)
        case unloadRequested
        /// The unload the state machine asked for is done.
        case unloaded
    }

    public enum Action: Sendable, Hashable {
        /// Start loading the model (progress, then `loaded` or `loadFailed`).
        case startLoad
        /// Free the model, then report `unloaded`.
        case unload
        /// The request may generate now.
        case proceed
        /// The request waits until `resumeWaiters` or `failWaiters`.
        case wait
        /// The request cannot be served.
        case reject(reason: String)
        /// Every waiting request may generate now.
        case resumeWaiters
        /// Every waiting request fails with this reason.
        case failWaiters(reason: String)
        /// Report `idleTimeout` after this long.
        case scheduleIdleCheck(after: Duration)
    }

    public internal(set) var state: State = .notLoaded
    /// Requests generating or allowed to generate.
    public internal(set) var activeRequests = 0
    /// Requests waiting for a load or an unload to finish.
    public internal(set) var waitingRequests = 0
    public internal(set) var memoryPressure: DeviceState.MemoryPressure = .normal
    /// Unload once the running requests finish (pressure or an explicit request arrived while busy).
    public internal(set) var unloadWhenIdle = false
    /// The last request start or finish, or the load; the idle timeout counts from here.
    public internal(set) var lastActivity: Duration = .zero
    /// A load was asked for during an unload: start it once the unload is done.
    var pendingExplicitLoad = false

    /// nil: never unload for idleness.
    public var idleTimeout: Duration?
    /// Memory pressure at which the model is unloaded and no new load is started.
    public var unloadPressure: DeviceState.MemoryPressure

    public init(idleTimeout: Duration? = .seconds(300), unloadPressure: DeviceState.MemoryPressure = .critical) {
        self.idleTimeout = idleTimeout; self.unloadPressure = unloadPressure
    }

    public var isIdle: Bool { activeRequests == 0 && waitingRequests == 0 }
    var underPressure: Bool { memoryPressure >= unloadPressure }

    /// Applies `event` at time `now` (monotonic, from the provider's clock) and says what to do.
    public mutating func handle(_ event: Event, at now: Duration) -> [Action] {
        switch event {
        case .loadRequested: return requestLoad()
        case .progress(let value):
            if case .loading = state { state = .loading(progress: min(max(value, 0), 1)) }
            return []
        case .loaded: return finishLoad(at: now)
        case .loadFailed(let reason): return failLoad(reason)
        case .requestStarted: return startRequest(at: now)
        case .requestFinished: return finishRequest(at: now)
        case .idleTimeout: return checkIdle(at: now)
        case .memoryPressure(let level):
            memoryPressure = level
            return level >= unloadPressure ? requestUnload() : []
        case .unloadRequested: return requestUnload()
        case .unloaded: return finishUnload()
        }
    }
}
