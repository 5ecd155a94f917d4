import Testing
@testable import SwitchboardBench

/// A small soak: the same workload as `switchboard-bench soak`, checked for its bookkeeping.
@Suite("switchboard-bench soak")
struct SoakTests {
    @Test func aSmallSoakBalancesItsBooks() async {
        let report = await SoakRun.run(SoakSettings(requests: 2_000, seconds: 300, concurrency: 8, seed: 11))
        #expect(report.requestsRun == 2_000 && !report.timeCapped)
        #expect(report.balanced)
        #expect(report.accepted == 2_000)
        #expect(report.accepted == report.completed + report.failed + report.cancelled && report.inProgress == 0)
        #expect(report.client.total == 2_000)
        // The workload did what it is for: some callers stopped early, some answers were resumed.
        #expect(report.client.cancelled > 0 && report.cancelled > 0)
        #expect(report.resumed > 0)
        #expect(report.completed > report.failed)
        #expect(report.rssMBAt10Percent > 0 && report.rssMBAt100Percent > 0)
    }

    @Test func aTimeCapEndsTheRunBalanced() async {
        let report = await SoakRun.run(SoakSettings(requests: 100_000_000, seconds: 1, concurrency: 4, seed: 3))
        #expect(report.timeCapped && report.requestsRun < 100_000_000)
        #expect(report.balanced)
    }

    @Test func soakNumbersAreChecked() async {
        #expect(await BenchCommandLine.run(["soak", "--requests", "0"]) == 64)
        #expect(await BenchCommandLine.run(["soak", "--requests", "99999999999999999999"]) == 64)
        #expect(await BenchCommandLine.run(["soak", "--seconds", "inf"]) == 64)
        #expect(await BenchCommandLine.run(["soak", "--concurrency", "-1"]) == 64)
    }
}
