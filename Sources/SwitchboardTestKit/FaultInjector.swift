import SwitchboardCore

/// A way a scripted call goes wrong.
public enum Fault: Sendable, Hashable {
    /// The stream throws this error before any token.
    case error(ProviderError)
    /// The stream yields nothing until the consumer cancels.
    case hang
    /// The stream yields this many tokens, then throws the error.
    case failAfterTokens(Int, ProviderError)
    /// The stream yields its tokens and ends without `finished` (a truncated response).
    case truncate
}

/// A seeded, shareable schedule of faults for scripted providers. Whether call number `n` of a
/// provider fails is a pure function of the seed, the provider's id and `n`, so the schedule replays
/// exactly whatever order concurrent calls arrive in.
public struct FaultInjector: Sendable, Hashable {
    public var seed: UInt64
    /// Chance, 0...1, that a call fails.
    public var rate: Double
    /// Faults picked from uniformly when a call fails.
    public var faults: [Fault]
    /// Faults by 1-based call index, applied regardless of `rate`.
    public var scheduled: [Int: Fault]

    public init(seed: UInt64 = 1, rate: Double = 0, faults: [Fault] = [.error(.timeout)], scheduled: [Int: Fault] = [:]) {
        self.seed = seed; self.rate = min(max(rate, 0), 1); self.faults = faults; self.scheduled = scheduled
    }

    /// The fault for call `call` (1-based) of `provider`, if any.
    public func fault(for provider: ProviderID, call: Int) -> Fault? {
        if !scheduled.isEmpty, let fault = scheduled[call] { return fault }
        guard rate > 0, !faults.isEmpty else { return nil }
        var random = SeededRandom(seed: seed ^ Self.fnv1a(provider.rawValue) ^ (UInt64(truncatingIfNeeded: call) &* 0x9E37_79B9_7F4A_7C15))
        guard random.nextUnit() < rate else { return nil }
        return faults[Int(random.next() % UInt64(faults.count))]
    }

    /// A stable string hash (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}
