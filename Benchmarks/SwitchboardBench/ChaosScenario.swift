import SwitchboardCore
import SwitchboardTestKit

/// One row of the chaos matrix: what each of the three remote servers does.
struct ChaosScenario: Sendable, Hashable {
    enum Remote: Sendable, Hashable {
        /// Answers, with `plan`'s fault at its rate.
        case serving(ChatFaultPlan)
        /// Its port is closed: every connection is refused.
        case refused
    }

    var name: String
    /// The fault every serving remote injects, for the report (nil: none or mixed).
    var fault: ChatFault?
    var rate: Double
    var remotes: [Remote]
    /// Hedged requests on (`HedgingPolicy(enabled: true)`): a slow remote gets a second one beside it.
    var hedged = false

    static let remoteCount = 3
    static let rates: [Double] = [0.02, 0.10, 0.50, 1.0]

    static func baseline() -> ChaosScenario {
        ChaosScenario(name: "baseline", fault: nil, rate: 0, remotes: Array(repeating: .serving(.healthy), count: remoteCount))
    }

    /// The same fault at the same rate on all three remotes (each its own seeded schedule).
    static func uniform(_ fault: ChatFault, rate: Double, seed: UInt64) -> ChaosScenario {
        ChaosScenario(name: "\(fault) @ \(percent(rate))", fault: fault, rate: rate,
                      remotes: (0..<remoteCount).map { .serving(ChatFaultPlan(fault: fault, rate: rate, seed: seed &+ UInt64($0) &* 7919)) })
    }

    /// One remote refuses every connection; the other two are healthy.
    static func oneDead() -> ChaosScenario {
        ChaosScenario(name: "one remote dead (refused)", fault: nil, rate: 1,
                      remotes: [.refused] + Array(repeating: .serving(.healthy), count: remoteCount - 1))
    }

    /// Every remote refuses every connection: the device serves everything.
    static func allDead() -> ChaosScenario {
        ChaosScenario(name: "all remotes dead (refused)", fault: nil, rate: 1, remotes: Array(repeating: .refused, count: remoteCount))
    }

    /// Faults the default matrix also runs at 100%: one that asks to wait, one that never answers,
    /// one that breaks after text reached the caller. (`--full`: every fault.)
    static let defaultFullFailure: Set<ChatFault> = [.rateLimitedRetryAfter, .timeout, .resetAfterFirstToken]

    /// The matrix. `full`: every fault at every rate (43 rows). Otherwise (26 rows) every fault at
    /// 10% and at one of 2% and 50% in turn, three faults at 100%, so every fault and every rate
    /// appear while the device (which serves most 100% rows) stays within a few minutes.
    static func matrix(full: Bool, seed: UInt64) -> [ChaosScenario] {
        var rows = [baseline()]
        for (index, fault) in ChatFault.allCases.enumerated() {
            var rates = full ? Self.rates : [index.isMultiple(of: 2) ? 0.02 : 0.50, 0.10]
            if !full, defaultFullFailure.contains(fault) { rates.append(1.0) }
            for rate in rates.sorted() { rows.append(uniform(fault, rate: rate, seed: seed &+ UInt64(index) &* 104_729)) }
        }
        // Hedging against remotes that never answer: the stall is raced instead of waited out.
        let hedgedRows = [0.10, 0.50].map { rate in
            var row = uniform(.timeout, rate: rate, seed: seed &+ 31)
            row.name += " hedged"
            row.hedged = true
            return row
        }
        return rows + hedgedRows + [oneDead(), allDead()]
    }

    /// Whether every remote fails every request (the retry-budget figure applies).
    var everyRemoteAlwaysFails: Bool {
        remotes.allSatisfy { remote in
            switch remote {
            case .refused: true
            case .serving(let plan): plan.fault != nil && plan.rate >= 1
            }
        }
    }

    static func percent(_ rate: Double) -> String {
        let value = rate * 100
        return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
    }
}
