/// How much each concern counts when eligible providers are ranked.
public struct ScoringWeights: Sendable, Hashable {
    public var privacy: Double
    public var contentFit: Double
    public var latency: Double
    public var health: Double
    public var cost: Double
    public var device: Double
    /// Whether the model is the right kind for the request (instruction model for chat, base model
    /// for completion).
    public var kind: Double

    public init(privacy: Double = 1, contentFit: Double = 0.5, latency: Double = 2, health: Double = 2,
                cost: Double = 1, device: Double = 1, kind: Double = 3) {
        self.privacy = privacy; self.contentFit = contentFit; self.latency = latency
        self.health = health; self.cost = cost; self.device = device; self.kind = kind
    }
}

/// One provider's score for one request; each part is in 0...1, higher is better.
package struct ProviderScore: Sendable, Hashable {
    package var provider: ProviderID
    package var privacy: Double
    package var contentFit: Double
    package var latency: Double
    package var health: Double
    package var cost: Double
    package var device: Double
    package var kind: Double
    /// Kept in seconds: ranking reads only `total`, and a `Duration` made per candidate and request
    /// cost a 128-bit multiplication each.
    var predictedSeconds: Double
    package var predictedLatency: Duration { .seconds(predictedSeconds) }
    /// Weighted sum times the optimizer's weight.
    package var total: Double
}

/// Ranks eligible providers. Deterministic: equal scores are ordered by provider id.
public struct ScoringPolicy: Sendable, Hashable {
    public var weights: ScoringWeights
    /// The latency at which the latency score is one half.
    public var referenceLatency: Duration { didSet { referenceSeconds = referenceLatency.seconds } }
    /// `referenceLatency` in seconds, kept beside it: converting a `Duration` divides 128-bit
    /// integers, once per candidate and request otherwise.
    private var referenceSeconds: Double
    /// The request cost (USD) at which the cost score is one half.
    public var referenceCost: Double

    public init(weights: ScoringWeights = ScoringWeights(), referenceLatency: Duration = .seconds(1),
                referenceCost: Double = 0.001) {
        self.weights = weights; self.referenceLatency = referenceLatency; self.referenceCost = referenceCost
        referenceSeconds = referenceLatency.seconds
    }

    package func score(_ candidate: ProviderCandidate, request: GenerationRequest, analysis: RequestAnalysis,
                      device: DeviceState) -> ProviderScore {
        let caps = candidate.capabilities
        let onDevice = caps.isOnDevice

        // Private work prefers the device even where it may legally leave it.
        let privacyFit = onDevice ? 1 : 1 - 0.3 * Double(analysis.privacy.rawValue)

        let needed = Double(analysis.contextNeeded(maxTokens: request.maxTokens))
        let headroom = 1 - needed / Double(max(caps.maxContextTokens, 1))
        // Small on-device models are weaker at long, multi-step or code-heavy work.
        let complexityFit: Double = switch (onDevice, analysis.complexity) {
        case (false, _), (true, .simple): 1
        case (true, .moderate): 0.7
        case (true, .complex): 0.3
        }
        let contentFit = min(1, max(0, headroom) * 2) * complexityFit

        let predicted = candidate.estimate.predictedSeconds(tokens: request.maxTokens, priors: caps)
        var latencyScore = 1 / (1 + predicted / max(referenceSeconds, 1e-9))
        if let budget = request.latencyBudget ?? analysis.latencyBudget, predicted > budget.seconds { latencyScore *= 0.1 }

        var health = 1 - candidate.estimate.errorRate
        if case .halfOpen = candidate.breaker { health *= 0.5 }

        let usage = TokenUsage(promptTokens: analysis.estimatedPromptTokens, completionTokens: request.maxTokens)
        let dollars = caps.pricing.cost(of: usage)
        let costScore = 1 / (1 + dollars / max(referenceCost, 1e-12))

        let deviceScore = onDevice ? Self.deviceFitness(device, privacy: analysis.privacy) : 1
        let kindFit = Self.kindFit(request, followsInstructions: caps.followsInstructions)

        let w = weights
        let sum = w.privacy * privacyFit + w.contentFit * contentFit + w.latency * latencyScore
            + w.health * health + w.cost * costScore + w.device * deviceScore + w.kind * kindFit
        return ProviderScore(provider: candidate.id, privacy: privacyFit, contentFit: contentFit,
                             latency: latencyScore, health: health, cost: costScore, device: deviceScore,
                             kind: kindFit, predictedSeconds: predicted, total: sum * max(candidate.weight, 0))
    }

    /// A chat (messages, or a prompt of kind chat) wants an instruction model: a base model only
    /// continues the text. A completion is best continued by a base model; an instruction model can
    /// still do it, less faithfully.
    static func kindFit(_ request: GenerationRequest, followsInstructions: Bool) -> Double {
        let isChat = request.kind == .chat || !request.messages.isEmpty
        return switch (isChat, followsInstructions) {
        case (true, true), (false, false): 1
        case (false, true): 0.5
        case (true, false): 0
        }
    }

    /// How well the device can take on-device work now. Only public work is pushed away; private work
    /// has nowhere else to go, so its ranking among local providers is not distorted.
    static func deviceFitness(_ device: DeviceState, privacy: PrivacyLevel) -> Double {
        guard privacy == .public else { return 1 }
        var fitness = 1.0
        if device.thermal >= .serious { fitness -= 0.5 }
        if let level = device.batteryLevel, level < 0.2, device.isCharging != true { fitness -= 0.3 }
        if device.lowPowerMode { fitness -= 0.2 }
        if device.memoryPressure >= .warning { fitness -= 0.3 }
        return max(0, fitness)
    }

    /// Eligible providers in the order to try them: the request's preferred providers first (in the
    /// request's order), then by descending score, ties by id.
    package func rank(_ candidates: [ProviderCandidate], request: GenerationRequest, analysis: RequestAnalysis,
                     device: DeviceState) -> [ProviderCandidate] {
        if candidates.count <= 1 { return candidates }
        // Sorts small keys, not the candidates (large values), in scratch memory: the only allocation
        // is the result. Each preferred position is looked up once.
        let preferred = request.preferredProviders
        return withUnsafeTemporaryAllocation(of: RankKey.self, capacity: candidates.count) { scratch in
            var keys = scratch
            for (index, candidate) in candidates.enumerated() {
                keys.initializeElement(at: index, to: RankKey(
                    position: preferred.isEmpty ? Int.max : preferred.firstIndex(of: candidate.id) ?? Int.max,
                    total: score(candidate, request: request, analysis: analysis, device: device).total, index: index))
            }
            keys.sort { a, b in
                if a.position != b.position { return a.position < b.position }
                if a.total != b.total { return a.total > b.total }
                return candidates[a.index].id < candidates[b.index].id
            }
            return keys.map { candidates[$0.index] }
        }
    }
}

/// One candidate's sort key in `ScoringPolicy.rank`.
private struct RankKey {
    var position: Int
    var total: Double
    var index: Int
}
