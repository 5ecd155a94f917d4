import Switchboard
import SwitchboardCore
import SwitchboardTestKit
import Testing
@testable import SwitchboardLocal

/// The owner tag of the prefix cache, end to end without a model: a session's requests reach the
/// on-device engine tagged with that session, and its reset asks the engine to forget that tag
/// (what the engine then drops is `PrefixCacheEngineTests`' part).
@Suite struct SessionPrefixOwnerTests {
    @Test func sessionsTagTheirRequestsAndResetForgetsOnlyTheirOwn() async throws {
        let engine = ScriptedEngine()
        let fixture = try LocalProviderLifecycleTests.Fixture(engine: engine)
        defer { fixture.file.remove() }
        let coordinator = Coordinator(providers: [fixture.provider],
                                      configuration: SwitchboardConfiguration(defaultDeadline: RealModel.testDeadline),
                                      deviceState: FixedDeviceState())
        let options = Session.Options(maxTokens: 4)
        let first = Session(coordinator: coordinator, instructions: "Be brief.", options: options)
        let second = Session(coordinator: coordinator, instructions: "Be brief.", options: options)
        #expect(first.owner != second.owner)
        _ = try await first.respond(to: "hello there")
        _ = try await second.respond(to: "good morning")
        _ = try await first.respond(to: "and again")
        #expect(engine.owners == [first.owner, second.owner, first.owner])
        // A request without a session carries no owner.
        _ = try await coordinator.respond(to: GenerationRequest(prompt: "plain", maxTokens: 2))
        #expect(engine.owners.last == .some(nil))

        await first.reset()
        #expect(engine.forgotten == [first.owner])
        #expect(await first.transcript == [.instructions("Be brief.")])
        #expect(await second.transcript.count == 3)
        // The next turn of the reset session starts from its instructions.
        _ = try await first.respond(to: "new start")
        #expect(await first.transcript.count == 3)
    }
}
