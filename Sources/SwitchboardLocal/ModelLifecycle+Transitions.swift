import SwitchboardCore

extension ModelLifecycle {
    mutating func requestLoad() -> [Action] {
        switch state {
        case .notLoaded, .failed:
            if memoryPressure >= unloadPressure { return [] }
            state = .loading(progress: 0)
            return [.startLoad]
        case .loading, .ready: return []
        case .unloading:
            // Reload once the unload completes (finishUnload starts it when someone waits or asked).
            unloadWhenIdle = false
            pendingExplicitLoad = true
            return []
        }
    }

    mutating func finishLoad(at now: Duration) -> [Action] {
        guard case .loading = state else { return [] }
        state = .ready
        lastActivity = now
        var actions: [Action] = []
        if waitingRequests > 0 {
            activeRequests += waitingRequests
            waitingRequests = 0
            actions.append(.resumeWaiters)
        } else if unloadWhenIdle || underPressure {
            actions += beginUnload()
        } else if let idleTimeout {
            actions.append(.scheduleIdleCheck(after: idleTimeout))
        }
        return actions
    }

    mutating func failLoad(_ reason: String) -> [Action] {
        guard case .loading = state else { return [] }
        state = .failed(reason: reason)
        guard waitingRequests > 0 else { return [] }
        waitingRequests = 0
        return [.failWaiters(reason: reason)]
    }

    mutating func startRequest(at now: Duration) -> [Action] {
        switch state {
        case .ready:
            activeRequests += 1
            lastActivity = now
            return [.proceed]
        case .loading, .unloading:
            waitingRequests += 1
            return [.wait]
        case .notLoaded, .failed:
            if underPressure {
                return [.reject(reason: "memory pressure is \(memoryPressure); the on-device model cannot be loaded now")]
            }
            waitingRequests += 1
            state = .loading(progress: 0)
            return [.startLoad, .wait]
        }
    }

    mutating func finishRequest(at now: Duration) -> [Action] {
        guard activeRequests > 0 else { return [] }
        activeRequests -= 1
        lastActivity = now
        guard activeRequests == 0, case .ready = state else { return [] }
        if unloadWhenIdle || underPressure { return beginUnload() }
        if let idleTimeout { return [.scheduleIdleCheck(after: idleTimeout)] }
        return []
    }

    mutating func checkIdle(at now: Duration) -> [Action] {
        guard case .ready = state, isIdle, let idleTimeout else { return [] }
        let idleFor = now - lastActivity
        if idleFor >= idleTimeout { return beginUnload() }
        return [.scheduleIdleCheck(after: idleTimeout - idleFor)]
    }

    mutating func requestUnload() -> [Action] {
        pendingExplicitLoad = false
        switch state {
        case .ready:
            if activeRequests > 0 { unloadWhenIdle = true; return [] }
            return beginUnload()
        case .loading:
            // Let the load finish and serve whoever waits for it; unload right after.
            unloadWhenIdle = true
            return []
        case .notLoaded, .failed, .unloading: return []
        }
    }

    mutating func beginUnload() -> [Action] {
        unloadWhenIdle = false
        state = .unloading
        return [.unload]
    }

    mutating func finishUnload() -> [Action] {
        guard case .unloading = state else { return [] }
        state = .notLoaded
        let reload = waitingRequests > 0 || pendingExplicitLoad
        pendingExplicitLoad = false
        guard reload else { return [] }
        if underPressure {
            let count = waitingRequests
            waitingRequests = 0
            return count > 0 ? [.failWaiters(reason: "memory pressure is \(memoryPressure); the on-device model was unloaded")] : []
        }
        state = .loading(progress: 0)
        return [.startLoad]
    }
}
