import SwitchboardCore

extension Coordinator {
    /// Whether the provider that routing would try first for `request` calls tools natively (privacy,
    /// eligibility and scoring as for the real request); false when none is eligible.
    package func firstChoiceSupportsToolCalling(_ request: GenerationRequest) async -> Bool {
        let analysis = analyze(request)
        let (ranked, _) = await route(request, analysis: analysis, at: clock.now())
        return ranked.first?.capabilities.supportsToolCalling ?? false
    }
}
