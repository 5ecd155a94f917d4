import Testing
@testable import SwitchboardCore

@Suite("Circuit breaker")
struct BreakerTests {
    let config = CircuitBreaker.Configuration(consecutiveFailures: 3, failureRatio: 0.5, minimumCalls: 10,
                                              window: .seconds(60), openDuration: .seconds(10),
                                              maxOpenDuration: .seconds(35), backoffMultiplier: 2, halfOpenProbes: 1)

    @Test("Opens after N consecutive failures; a success in between resets the count")
    func consecutive() {
        var breaker = CircuitBreaker(configuration: config)
        breaker.recordFailure(at: .seconds(1)); breaker.recordFailure(at: .seconds(1))
        breaker.recordSuccess(at: .seconds(1))
        breaker.recordFailure(at: .seconds(1)); breaker.recordFailure(at: .seconds(1))
        do { let result = breaker.currentState(at: .seconds(1)); #expect(result == .closed) }
        do { let result = breaker.recordFailure(at: .seconds(2)); #expect(result == .opened(until: .seconds(12))) }
        do { let result = breaker.admit(at: .seconds(5)); #expect(result == .rejected) }
    }

    @Test("Opens on the failure ratio once the window has the minimum number of calls")
    func ratio() {
        var breaker = CircuitBreaker(configuration: config)
        // Alternate so the consecutive rule never fires: F S F S ... 
        var opened: CircuitBreaker.Transition?
        for i in 0..<10 {
            if i % 2 == 0 { opened = breaker.recordFailure(at: .seconds(1)) ?? opened } else { breaker.recordSuccess(at: .seconds(1)) }
            if i < 9 { let result = breaker.currentState(at: .seconds(1)); #expect(result == .closed, "call \(i)") }
        }
        // Ten calls, five failures: 0.5 ≥ 0.5 trips on the last failure? the tenth call is a success.
        do { let result = breaker.currentState(at: .seconds(1)); #expect(result == .closed) }
        do { let result = breaker.recordFailure(at: .seconds(1)); #expect(result == .opened(until: .seconds(11))) }
    }

    @Test("Half-open after the open time; one probe at a time; success closes")
    func halfOpenSuccess() {
        var breaker = CircuitBreaker(configuration: config)
        for _ in 0..<3 { breaker.recordFailure(at: .zero) }
        do { let result = breaker.admit(at: .seconds(9)); #expect(result == .rejected) }
        do { let result = breaker.admit(at: .seconds(10)); #expect(result == .probe) }
        do { let result = breaker.admit(at: .seconds(10)); #expect(result == .rejected) }
        do { let result = breaker.recordSuccess(at: .seconds(11)); #expect(result == .closed) }
        do { let result = breaker.admit(at: .seconds(11)); #expect(result == .allowed) }
    }

    @Test("A failed probe re-opens for longer, growing exponentially up to the cap")
    func backoff() {
        var breaker = CircuitBreaker(configuration: config)
        for _ in 0..<3 { breaker.recordFailure(at: .zero) }
        #expect(breaker.state == .open(until: .seconds(10)))
        do { let result = breaker.admit(at: .seconds(10)); #expect(result == .probe) }
        do { let result = breaker.recordFailure(at: .seconds(10)); #expect(result == .opened(until: .seconds(30))) }
        do { let result = breaker.admit(at: .seconds(30)); #expect(result == .probe) }
        do { let result = breaker.recordFailure(at: .seconds(30)); #expect(result == .opened(until: .seconds(65))) }  // 40s capped at 35s
        do { let result = breaker.admit(at: .seconds(65)); #expect(result == .probe) }
        do { let result = breaker.recordFailure(at: .seconds(65)); #expect(result == .opened(until: .seconds(100))) }
    }

    @Test("A cancelled probe frees its slot without a verdict")
    func cancelledProbe() {
        var breaker = CircuitBreaker(configuration: config)
        for _ in 0..<3 { breaker.recordFailure(at: .zero) }
        do { let result = breaker.admit(at: .seconds(10)); #expect(result == .probe) }
        breaker.recordCancelled()
        do { let result = breaker.currentState(at: .seconds(10)); #expect(result == .halfOpen) }
        do { let result = breaker.admit(at: .seconds(10)); #expect(result == .probe) }
    }

    @Test("Outcomes of calls admitted before the trip do not change an open breaker")
    func staleOutcomes() {
        var breaker = CircuitBreaker(configuration: config)
        for _ in 0..<3 { breaker.recordFailure(at: .zero) }
        do { let result = breaker.recordSuccess(at: .seconds(1)); #expect(result == nil) }
        do { let result = breaker.recordFailure(at: .seconds(1)); #expect(result == nil) }
        #expect(breaker.state == .open(until: .seconds(10)))
    }

    @Test("Ejections are forgotten after a quiet window")
    func ejectionsReset() {
        var breaker = CircuitBreaker(configuration: config)
        for _ in 0..<3 { breaker.recordFailure(at: .zero) }
        _ = breaker.admit(at: .seconds(10))
        breaker.recordSuccess(at: .seconds(10))
        #expect(breaker.ejections == 1)
        // Trip again long after: the open time starts over from the base.
        for _ in 0..<3 { breaker.recordFailure(at: .seconds(500)) }
        #expect(breaker.state == .open(until: .seconds(510)))
    }

    @Test("A cool-down keeps calls out until its end, then probes; it is no ejection and never shortens an open time")
    func coolDown() {
        var breaker = CircuitBreaker(configuration: config)
        breaker.coolDown(until: .seconds(3600))
        do { let result = breaker.admit(at: .seconds(3599)); #expect(result == .rejected) }
        #expect(breaker.ejections == 0)
        breaker.coolDown(until: .seconds(100))  // shorter: the longer one stands
        do { let result = breaker.currentState(at: .seconds(200)); #expect(result == .open(until: .seconds(3600))) }
        do { let result = breaker.admit(at: .seconds(3600)); #expect(result == .probe) }
        do { let result = breaker.recordSuccess(at: .seconds(3601)); #expect(result == .closed) }
    }
}
