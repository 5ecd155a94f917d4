import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite("Coordinator priorities and queueing")
struct CoordinatorPriorityTests {
    @Test("With one slot, queued requests reach the provider by priority, then arrival")
    func priorityOrder() async throws {
        let clock = ManualClock()
        let slow = ScriptedProvider(id: "slow", capabilities: Fixture.localCapabilities(), output: .tokens(["ok"]),
                                    timeToFirstToken: .seconds(1), clock: clock)
        let coordinator = Coordinator(providers: [slow],
                                      configuration: Fixture.configuration(concurrency: 1, queue: QueuePolicy(timeout: nil)),
                                      clock: clock, deviceState: FixedDeviceState())
        let order: [(String, Priority)] = [("first", .normal), ("low", .low), ("normal", .normal), ("high", .high), ("high-2", .high)]
        var tasks: [Task<Response<String>, any Error>] = []
        for (index, (name, priority)) in order.enumerated() {
            tasks.append(Task { try await coordinator.respond(to: GenerationRequest(prompt: name, priority: priority)) })
            if index == 0 {
                #expect(await clock.waitForSleepers(1))
            } else {
                while await coordinator.loadBalancer.status(of: "slow").queued < index { await Task.yield() }
            }
        }
        for _ in order {
            #expect(await clock.waitForSleepers(1))
            clock.advance(by: .seconds(1))
        }
        for task in tasks { _ = try await task.value }
        #expect(await slow.receivedRequests.map(\.request.prompt) == ["first", "high", "high-2", "normal", "low"])
        let last = try await tasks[1].value
        #expect(last.timings.queueWait == .seconds(4))
    }

    @Test("A full queue fails fast with overloaded naming the provider")
    func overloaded() async {
        let clock = ManualClock()
        let slow = ScriptedProvider(id: "slow", capabilities: Fixture.localCapabilities(), timeToFirstToken: .seconds(1), clock: clock)
        let coordinator = Coordinator(providers: [slow],
                                      configuration: Fixture.configuration(concurrency: 1, queue: QueuePolicy(maxQueueLength: 1, timeout: nil)),
                                      clock: clock, deviceState: FixedDeviceState())
        let busy = Task { try await coordinator.respond(to: GenerationRequest(prompt: "a")) }
        #expect(await clock.waitForSleepers(1))
        let waiting = Task { try await coordinator.respond(to: GenerationRequest(prompt: "b")) }
        while await coordinator.loadBalancer.status(of: "slow").queued < 1 { await Task.yield() }
        let error = await Fixture.failure { try await coordinator.respond(to: GenerationRequest(prompt: "c")) }
        #expect(error == .overloaded("slow"))
        clock.advance(by: .seconds(1))
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(1))
        _ = try? await busy.value
        _ = try? await waiting.value
        let counts = coordinator.requestCounts()
        #expect(counts.completed == 2 && counts.failed == 1 && counts.inProgress == 0)
    }
}
