/// Which providers may take a request at all. Every rule here is a filter, not a preference: a
/// provider that fails one is out, and the reason is reported to the caller if nobody is left.
package struct EligibilityPolicy: Sendable, Hashable {
    package var privacy: PrivacyPolicy

    package init(privacy: PrivacyPolicy = PrivacyPolicy()) { self.privacy = privacy }

    package struct Result: Sendable, Hashable {
        /// In the order given.
        package var eligible: [ProviderCandidate]
        /// One entry per excluded provider: the first rule it failed.
        package var ineligible: [Ineligibility]
    }

    package func evaluate(_ candidates: [ProviderCandidate], request: GenerationRequest, analysis: RequestAnalysis,
                         device: DeviceState) -> Result {
        var result = Result(eligible: [], ineligible: [])
        result.eligible.reserveCapacity(candidates.count)
        for candidate in candidates {
            if let reason = reasonToExclude(candidate, request: request, analysis: analysis, device: device) {
                result.ineligible.append(Ineligibility(provider: candidate.id, reason: reason))
            } else {
                result.eligible.append(candidate)
            }
        }
        return result
    }

    /// The first rule `candidate` fails, or nil when it may take the request.
    package func reasonToExclude(_ candidate: ProviderCandidate, request: GenerationRequest, analysis: RequestAnalysis,
                                device: DeviceState) -> Ineligibility.Reason? {
        let caps = candidate.capabilities
        if request.excludedProviders.contains(candidate.id) { return .excluded }
        if !privacy.mayDispatch(analysis.privacy, to: caps.locality) { return .privacy }
        if !candidate.availability.canServe { return .unavailable }
        if case .open = candidate.breaker { return .circuitOpen }
        if analysis.contextNeeded(maxTokens: request.maxTokens) > caps.maxContextTokens { return .contextTooSmall }
        if max(analysis.imageCount, request.images.count) > 0 && !caps.supportsImages { return .noImageSupport }
        if (analysis.wantsStructuredOutput || request.output.isStructured) && !caps.supportsStructuredOutput {
            return .noStructuredOutput
        }
        if caps.isOnDevice && Self.deviceForbidsLocalWork(device) && privacy.allowsRemote(analysis.privacy) {
            // A critically hot or memory-starved device sheds work it can send elsewhere; private work
            // stays, since refusing it outright would be worse than running it slowly.
            return .deviceState
        }
        return nil
    }

    static func deviceForbidsLocalWork(_ device: DeviceState) -> Bool {
        device.thermal >= .critical || device.memoryPressure >= .critical
    }
}
