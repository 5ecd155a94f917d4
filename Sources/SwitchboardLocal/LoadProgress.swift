/// Where a model load is, for progress bars: verification (hashing the file), then loading weights.
public struct LoadProgress: Sendable, Hashable, CustomStringConvertible {
    public enum Phase: Sendable, Hashable {
        case verifying
        case loading
        case ready
        case failed(reason: String)
    }
    public var phase: Phase
    /// Overall 0...1 across both phases.
    public var fraction: Double

    public init(phase: Phase, fraction: Double) { self.phase = phase; self.fraction = min(max(fraction, 0), 1) }

    public var isFinal: Bool {
        switch phase {
        case .ready, .failed: true
        case .verifying, .loading: false
        }
    }

    public var description: String {
        switch phase {
        case .verifying: "verifying \(Int(fraction * 100))%"
        case .loading: "loading \(Int(fraction * 100))%"
        case .ready: "ready"
        case .failed(let reason): "failed: \(reason)"
        }
    }
}
