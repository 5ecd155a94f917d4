import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Coordinator streams")
struct CoordinatorStreamTests {
    @Test("Success: analyzed, providerChosen, tokens, one completed, then the end")
    func success() async {
        let coordinator = Coordinator(providers: [Fixture.local(tokens: ["a", "b", "c"])], configuration: Fixture.configuration(),
                                      deviceState: FixedDeviceState())
        let events = await Fixture.collect(coordinator.stream(GenerationRequest(prompt: "hi")))
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:local#1", "token:a", "token:b", "token:c", "completed:local"])
        #expect(events.filter(\.isTerminal).count == 1)
        if case .analyzed(let analysis)? = events.first { #expect(analysis.privacy == .public) }
    }

    @Test("Failure before any provider: analyzed, then one failed")
    func failure() async {
        let coordinator = Coordinator(providers: [Fixture.remote()], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let events = await Fixture.collect(coordinator.stream(GenerationRequest(prompt: "my password is hunter2!")))
        #expect(events.map(\.eventLabel) == ["analyzed", "failed"])
        guard case .failed(.noEligibleProvider(let reasons))? = events.last else { Issue.record("expected noEligibleProvider"); return }
        #expect(reasons == [Ineligibility(provider: "remote", reason: .privacy)])
    }

    @Test("An invalid request fails with a single event")
    func invalid() async {
        let coordinator = Coordinator(providers: [Fixture.local()], configuration: Fixture.configuration(), deviceState: FixedDeviceState())
        let events = await Fixture.collect(coordinator.stream(GenerationRequest(prompt: "")))
        #expect(events.map(\.eventLabel) == ["failed"])
    }

    @Test("Stopping the iteration cancels the request and the provider's stream")
    func consumerStops() async {
        let clock = ManualClock()
        let slow = ScriptedProvider(id: "slow", capabilities: Fixture.localCapabilities(), output: .tokens(["1", "2", "3", "4"]),
                                    timeToFirstToken: .seconds(1), tokenInterval: .seconds(1), clock: clock)
        let coordinator = Coordinator(providers: [slow], configuration: Fixture.configuration(), clock: clock, deviceState: FixedDeviceState())
        let consumer = Task { () -> [String] in
            var labels: [String] = []
            for await event in coordinator.stream(GenerationRequest(prompt: "count")) {
                labels.append(event.eventLabel)
                if case .token = event { break }
            }
            return labels
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(1))
        let labels = await consumer.value
        #expect(labels == ["analyzed", "chosen:slow#1", "token:1"])
        var counts = coordinator.requestCounts()
        for _ in 0..<10_000 where counts.inProgress > 0 { await Task.yield(); counts = coordinator.requestCounts() }
        #expect(counts.cancelled == 1)
        #expect(counts.accepted == 1)
        var active = await slow.activeStreams
        for _ in 0..<10_000 where active > 0 { await Task.yield(); active = await slow.activeStreams }
        #expect(active == 0)
        #expect(await coordinator.loadBalancer.totalInFlight == 0)
    }

    /// Events seen so far by a test's reader task.
    actor Seen {
        var events: [SwitchboardEvent] = []
        func append(_ event: SwitchboardEvent) { events.append(event) }
        var tokenCount: Int { events.filter { if case .token = $0 { true } else { false } }.count }
    }

    @Test("Tokens pace with the provider on the injected clock")
    func pacing() async {
        let clock = ManualClock()
        let paced = ScriptedProvider(id: "paced", capabilities: Fixture.localCapabilities(), output: .tokens(["x", "y"]),
                                     timeToFirstToken: .milliseconds(300), tokenInterval: .milliseconds(100), clock: clock)
        let coordinator = Coordinator(providers: [paced], configuration: Fixture.configuration(), clock: clock, deviceState: FixedDeviceState())
        let seen = Seen()
        let stream = coordinator.stream(GenerationRequest(prompt: "go"))
        let reader = Task { for await event in stream { await seen.append(event) } }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(300))
        // Time moves on only after the first token has reached the caller.
        #expect(await Fixture.eventually { await seen.tokenCount >= 1 })
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(100))
        await reader.value
        let events = await seen.events
        #expect(events.map(\.eventLabel) == ["analyzed", "chosen:paced#1", "token:x", "token:y", "completed:paced"])
        guard case .completed(let response)? = events.last else { return }
        #expect(response.timings.timeToFirstToken == .milliseconds(300))
        #expect(response.timings.total == .milliseconds(400))
        #expect(coordinator.estimate(for: "paced")?.timeToFirstToken == .milliseconds(300))
    }
}
