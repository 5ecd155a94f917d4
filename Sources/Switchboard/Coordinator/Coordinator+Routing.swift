import SwitchboardCore

/// Where a request would go, without calling any provider.
public struct RoutingDecision: Sendable, Hashable {
    public var analysis: RequestAnalysis
    /// Eligible providers in the order they would be tried.
    public var candidates: [ProviderID]
    /// Providers left out, each with the first rule it failed.
    public var ineligible: [Ineligibility]
}

extension Coordinator {
    /// The routing decision for `request` as things stand now (for diagnostics and tests); calls no provider.
    public func plan(for request: GenerationRequest) async -> RoutingDecision {
        let analysis = analyze(request)
        let (ranked, ineligible) = await route(request, analysis: analysis, at: clock.now())
        return RoutingDecision(analysis: analysis, candidates: ranked.map(\.id), ineligible: ineligible)
    }

    /// A pure function of the request and the analyzer's fixed configuration: no hop, runs wherever it
    /// is called (the callers' threads, in parallel, for `respond` and `stream`).
    nonisolated func analyze(_ request: GenerationRequest) -> RequestAnalysis {
        var analysis = analyzer.analyze(request)
        // The app's own flag is authoritative even if the analyzer missed it.
        if request.memory?.containsPersonalData == true, analysis.privacy < .personal { analysis.privacy = .personal }
        // A conversation that has seen private content stays as private (`Session`).
        if let floor = request.privacyFloor, analysis.privacy < floor { analysis.privacy = floor }
        return analysis
    }

    /// Eligible providers in the order to try them, and why the others are out.
    nonisolated func route(_ request: GenerationRequest, analysis: RequestAnalysis, at time: Duration) async
        -> (ranked: [ProviderCandidate], ineligible: [Ineligibility]) {
        // The refresh deadline is checked synchronously: only a due refresh costs a suspension.
        var now = time
        if stateRefreshDue(at: now) {
            await refreshState(at: now)
            now = clock.now()
        }
        return rank(request, analysis: analysis, at: now)
    }

    /// `route` on the state as it is (no refresh).
    nonisolated func rank(_ request: GenerationRequest, analysis: RequestAnalysis, at now: Duration)
        -> (ranked: [ProviderCandidate], ineligible: [Ineligibility]) {
        let (candidates, device) = state.withLock { ($0.registry.candidates(at: now), $0.deviceState) }
        let result = eligibility.evaluate(candidates, request: request, analysis: analysis, device: device)
        let ranked = configuration.scoring.rank(result.eligible, request: request, analysis: analysis, device: device)
        return (ranked, result.ineligible)
    }

    /// Whether the device state or any provider's availability is older than the refresh interval.
    nonisolated func stateRefreshDue(at now: Duration) -> Bool {
        let interval = configuration.stateRefreshInterval
        return state.withLock { state in
            if let readAt = state.deviceStateReadAt, now - readAt < interval, let checked = state.registry.oldestAvailabilityCheck,
               now - checked < interval {
                return false
            }
            return true
        }
    }

    /// Re-reads the device state and the stale providers' availability, all at once (a task group), so
    /// a slow provider does not hold up the others. Entries are marked first, so requests arriving
    /// meanwhile do not ask again; they route on the previous values.
    nonisolated func refreshState(at now: Duration) async {
        let interval = configuration.stateRefreshInterval
        let (readDevice, stale) = state.withLock { state -> (Bool, [StaleProvider]) in
            let readDevice = state.deviceStateReadAt.map { now - $0 >= interval } ?? true
            if readDevice { state.deviceStateReadAt = now }
            let entries = state.registry.staleAvailability(at: now, interval: interval)
            for entry in entries { entry.availabilityCheckedAt = now }
            state.registry.availabilityChanged()
            return (readDevice, entries.map { StaleProvider(id: $0.id, entry: ObjectIdentifier($0), provider: $0.provider) })
        }
        guard readDevice || !stale.isEmpty else { return }
        if !readDevice, stale.count == 1 {
            // The common case: one provider, no task group needed.
            let availability = await stale[0].provider.availability()
            settleAvailability(stale[0], availability)
            return
        }
        let source = deviceStateSource
        let readings = await withTaskGroup(of: StateReading.self, returning: [StateReading].self) { group in
            if readDevice { group.addTask { .device(await source.current()) } }
            for (index, entry) in stale.enumerated() {
                let provider = entry.provider
                group.addTask { .availability(index, await provider.availability()) }
            }
            var readings: [StateReading] = []
            for await reading in group { readings.append(reading) }
            return readings
        }
        for reading in readings {
            switch reading {
            case .device(let device): state.withLock { $0.deviceState = device }
            case .availability(let index, let availability): settleAvailability(stale[index], availability)
            }
        }
    }

    /// Records a reading for the registration it was read for (not one that replaced it meanwhile).
    private nonisolated func settleAvailability(_ stale: StaleProvider, _ availability: ProviderAvailability) {
        let now = clock.now()
        state.withLock { state in
            guard let entry = state.registry[stale.id], ObjectIdentifier(entry) == stale.entry else { return }
            entry.availability = availability
            entry.availabilityCheckedAt = now
            state.registry.availabilityChanged()
        }
    }
}

/// A provider whose availability is being read: its registration and the provider to ask.
struct StaleProvider: Sendable {
    let id: ProviderID
    let entry: ObjectIdentifier
    let provider: any Provider
}

/// One answer of a state refresh.
enum StateReading: Sendable {
    case device(DeviceState)
    case availability(Int, ProviderAvailability)
}

extension Coordinator {
    /// The classifier's reading of a request the recognizers would let off the device: the caller's own
    /// texts (user turns, tool results, the prompt) scored on the device; at or above the threshold the
    /// request becomes sensitive. A classifier that fails keeps the request home too (fail closed).
    nonisolated func secondOpinion(_ request: GenerationRequest, _ analysis: RequestAnalysis,
                                   _ classifier: any PrivacyClassifier) async -> RequestAnalysis {
        // Nothing to decide when every registered provider is on the device anyway.
        guard state.withLock({ $0.registry.containsRemote }) else { return analysis }
        var texts: [String] = request.messages.filter { $0.role == .user || $0.role == .tool }.map(\.content)
        if let prompt = request.prompt { texts.append(prompt) }
        texts.removeAll { $0.isEmpty }
        guard !texts.isEmpty else { return analysis }
        var result = analysis
        let scores = (try? await classifier.scores(texts)) ?? texts.map { _ in 1 }
        for (index, score) in scores.enumerated() where score >= classifier.threshold || score.isNaN {
            result.privacy = .sensitive
            result.entities.append(DetectedEntity(kind: .privateMeaning, textIndex: index))
        }
        return result
    }
}
