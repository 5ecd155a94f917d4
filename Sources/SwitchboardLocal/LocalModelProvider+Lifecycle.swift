import SwitchboardCore

extension LocalModelProvider {
    /// Loads the model if it is not loaded, reporting progress; the stream finishes when the model is
    /// ready or the load failed.
    public func load() -> AsyncStream<LoadProgress> {
        let (stream, continuation) = AsyncStream.makeStream(of: LoadProgress.self, bufferingPolicy: .bufferingNewest(16))
        if case .ready = lifecycle.state {
            continuation.yield(LoadProgress(phase: .ready, fraction: 1))
            continuation.finish()
            return stream
        }
        let ticket = takeTicket()
        progressObservers[ticket] = continuation
        continuation.onTermination = { _ in Task { await self.removeObserver(ticket) } }
        if case .loading = lifecycle.state { continuation.yield(lastProgress) }
        apply(.loadRequested)
        if case .loading = lifecycle.state { return stream }
        let reason = "memory pressure is \(lifecycle.memoryPressure); the model cannot be loaded now"
        continuation.yield(LoadProgress(phase: .failed(reason: reason), fraction: 0))
        continuation.finish()
        return stream
    }

    /// Loads the model (if needed) and waits until it is ready; throws why it could not be loaded.
    public func loadAndWait() async throws(LocalModelError) {
        for await _ in load() {}
        guard case .ready = lifecycle.state else {
            throw lastLoadError ?? .loadFailed("the model was unloaded before it could be used (memory pressure?)")
        }
    }

    /// Unloads the model now, or as soon as the running requests finish. The next request reloads it.
    public func unload() { apply(.unloadRequested) }

    /// Reports the device's memory pressure (e.g. from a system memory warning).
    public func handleMemoryPressure(_ level: DeviceState.MemoryPressure) { apply(.memoryPressure(level)) }

    // MARK: Applying the state machine's actions

    @discardableResult
    func apply(_ event: ModelLifecycle.Event) -> [ModelLifecycle.Action] {
        let actions = lifecycle.handle(event, at: clock.now())
        for action in actions { perform(action) }
        return actions
    }

    private func perform(_ action: ModelLifecycle.Action) {
        switch action {
        case .startLoad: startLoad()
        case .unload: performUnload()
        case .scheduleIdleCheck(let delay): scheduleIdleCheck(after: delay)
        // Waiters learn the load's outcome from the load task they await (`admit`).
        case .resumeWaiters, .failWaiters: break
        case .proceed, .wait, .reject: break  // answered to the request that asked
        }
    }

    func takeTicket() -> UInt64 {
        nextTicket &+= 1
        return nextTicket
    }

    private func startLoad() {
        loadStartedAt = clock.now()
        lastLoadError = nil
        publish(LoadProgress(phase: .verifying, fraction: 0))
        loading = Task { await self.runLoad() }
    }

    /// Verification takes the first half of the progress bar, the engine's load the second. The result
    /// is what every request waiting for this load learns.
    private func runLoad() async -> Result<Void, LocalModelError> {
        do throws(LocalModelError) {
            let file = try await verifier.verify(path: modelPath, against: configuration) { fraction in
                Task { await self.loadProgressed(LoadProgress(phase: .verifying, fraction: fraction * 0.5)) }
            }
            let engine: any LocalInferenceEngine
            do {
                engine = try await loader.load(file) { fraction in
                    Task { await self.loadProgressed(LoadProgress(phase: .loading, fraction: 0.5 + fraction * 0.5)) }
                }
            } catch {
                throw Self.loadError(error)
            }
            loadFinished(engine)
            return .success(())
        } catch {
            loadFailed(error)
            return .failure(error)
        }
    }

    private func loadProgressed(_ progress: LoadProgress) {
        guard case .loading = lifecycle.state, progress.fraction >= lastProgress.fraction else { return }
        apply(.progress(progress.fraction))
        publish(progress)
    }

    private func loadFinished(_ loaded: any LocalInferenceEngine) {
        guard case .loading = lifecycle.state else { return }
        engine = loaded
        statistics.loads += 1
        statistics.lastLoadDuration = clock.now() - loadStartedAt
        startPressureMonitor()
        publish(LoadProgress(phase: .ready, fraction: 1))
        apply(.loaded)
    }

    private func loadFailed(_ error: LocalModelError) {
        lastLoadError = error
        statistics.failedLoads += 1
        publish(LoadProgress(phase: .failed(reason: error.description), fraction: lastProgress.fraction))
        apply(.loadFailed(reason: error.description))
    }

    private func publish(_ progress: LoadProgress) {
        lastProgress = progress
        for observer in progressObservers.values { observer.yield(progress) }
        if progress.isFinal {
            for observer in progressObservers.values { observer.finish() }
            progressObservers.removeAll()
        }
    }

    private func removeObserver(_ ticket: UInt64) { progressObservers[ticket] = nil }

    private func performUnload() {
        // Only reached with no request running: dropping the engine frees the weights and KV cache.
        engine = nil
        idleTimer?.cancel()
        idleTimer = nil
        pressureMonitor?.cancel()
        pressureMonitor = nil
        statistics.unloads += 1
        apply(.unloaded)
    }

    private func scheduleIdleCheck(after delay: Duration) {
        idleTimer?.cancel()
        idleTimer = Task { [clock] in
            do { try await clock.sleep(for: delay) } catch { return }
            self.idleTimerFired()
        }
    }

    private func idleTimerFired() { apply(.idleTimeout) }

    private func startPressureMonitor() {
        guard let deviceState else { return }
        pressureMonitor?.cancel()
        pressureMonitor = Task { [clock, pressurePollInterval] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: pressurePollInterval) } catch { return }
                let level = await deviceState.current().memoryPressure
                self.pressureObserved(level)
            }
        }
    }

    private func pressureObserved(_ level: DeviceState.MemoryPressure) {
        if level != lifecycle.memoryPressure || level >= lifecycle.unloadPressure { apply(.memoryPressure(level)) }
    }

    static func loadError(_ error: any Error) -> LocalModelError {
        if let error = error as? LocalModelError { return error }
        return .loadFailed(String(describing: error))
    }
}
