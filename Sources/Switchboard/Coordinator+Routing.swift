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
        let analysis = await analyze(request)
        let (ranked, ineligible) = await route(request, analysis: analysis)
        return RoutingDecision(analysis: analysis, candidates: ranked.map(\.id), ineligible: ineligible)
    }

    func analyze(_ request: GenerationRequest) async -> RequestAnalysis {
        var analysis = await analyzer.analyze(request)
        // The app's own flag is authoritative even if the analyzer missed it.
        if request.memory?.containsPersonalData == true, analysis.privacy < .personal { analysis.privacy = .personal }
        // A conversation that has seen private content stays as private (`Session`).
        if let floor = request.privacyFloor, analysis.privacy < floor { analysis.privacy = floor }
        return analysis
    }

    /// Eligible providers in the order to try them, and why the others are out.
    func route(_ request: GenerationRequest, analysis: RequestAnalysis) async
        -> (ranked: [ProviderCandidate], ineligible: [Ineligibility]) {
        let device = await currentDeviceState()
        await refreshAvailability()
        let candidates = registry.candidates(at: clock.now())
        let result = eligibility.evaluate(candidates, request: request, analysis: analysis, device: device)
        let ranked = configuration.scoring.rank(result.eligible, request: request, analysis: analysis, device: device)
        return (ranked, result.ineligible)
    }

    /// The device's state, re-read at most once per refresh interval.
    func currentDeviceState() async -> DeviceState {
        let now = clock.now()
        if let readAt = deviceStateReadAt, now - readAt < configuration.stateRefreshInterval { return deviceState }
        deviceStateReadAt = now
        deviceState = await deviceStateSource.current()
        return deviceState
    }

    /// Re-reads the availability of providers last asked longer than the refresh interval ago.
    func refreshAvailability() async {
        let now = clock.now()
        let stale = registry.staleAvailability(at: now, interval: configuration.stateRefreshInterval)
        for entry in stale {
            // Marked first so requests arriving meanwhile do not ask again.
            entry.availabilityCheckedAt = now
            let availability = await entry.provider.availability()
            entry.availability = availability
            entry.availabilityCheckedAt = clock.now()
        }
    }
}
