import Testing
@testable import SwitchboardCore

@Suite("Retry budget")
struct RetryBudgetTests {
    @Test("Retries stay within ratio × requests + minimum")
    func cap() {
        var budget = RetryBudget(ratio: 0.2, minimumRetries: 3, window: .seconds(10))
        var retries = 0
        for i in 0..<1000 {
            let now = Duration.milliseconds(i)
            budget.recordRequest(at: now)
            // A client that would retry every request three times.
            for _ in 0..<3 where budget.withdraw(at: now) { retries += 1 }
        }
        #expect(retries <= 200 + 3)
        #expect(retries >= 190)
    }

    @Test("With no traffic, the minimum still allows a few retries")
    func minimum() {
        var budget = RetryBudget(ratio: 0.2, minimumRetries: 3)
        do { let result = budget.withdraw(at: .zero); #expect(result) }
        do { let result = budget.withdraw(at: .zero); #expect(result) }
        do { let result = budget.withdraw(at: .zero); #expect(result) }
        do { let result = budget.withdraw(at: .zero); #expect(!result) }
    }

    @Test("Old requests and retries leave the window")
    func window() {
        var budget = RetryBudget(ratio: 0.5, minimumRetries: 0, window: .seconds(10))
        for _ in 0..<10 { budget.recordRequest(at: .seconds(1)) }
        for _ in 0..<5 { let result = budget.withdraw(at: .seconds(1)); #expect(result) }
        do { let result = budget.withdraw(at: .seconds(1)); #expect(!result) }
        #expect(budget.usage(at: .seconds(30)) == (0, 0))
        do { let result = budget.withdraw(at: .seconds(30)); #expect(!result) }
    }
}
