import Foundation
import Synchronization
import Testing
@testable import SwitchboardInference

/// Generation runs off the Swift cooperative pool: other tasks progress while it runs, and dropping
/// the stream stops it within a token even when every cooperative thread is busy.
@Suite(.requiresModel, .serialized) struct GenerationThreadingTests {
    /// What the inference thread did, observed from the thread itself (through `transform`).
    final class Progress: Sendable {
        let tokens = Atomic<Int>(0)
        let finished = Atomic<Bool>(false)
        let summary = Mutex<GenerationSummary?>(nil)

        func observe(_ event: GenerationEvent) -> GenerationEvent {
            switch event {
            case .token: tokens.add(1, ordering: .sequentiallyConsistent)
            case .finished(let value):
                summary.withLock { $0 = value }
                finished.store(true, ordering: .sequentiallyConsistent)
            }
            return event
        }
    }

    actor Hop { var count = 0; func bump() { count += 1 } }

    /// Holds each generation at its first token until opened (bounded wait, reached only when broken).
    final class HopGate: Sendable {
        let arrived = Atomic<Int>(0)
        let heldInTime = Atomic<Int>(0)
        private let semaphore = DispatchSemaphore(value: 0)

        /// Called on each generation's own thread; holds there at its first token.
        func hold() {
            arrived.add(1, ordering: .sequentiallyConsistent)
            if semaphore.wait(timeout: .now() + 120) == .success { heldInTime.add(1, ordering: .sequentiallyConsistent) }
        }

        func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
    }

    static let prompt = "Once upon a time"

    /// Each generation blocks its first token until 50 actor hops on the cooperative pool are done.
    /// Inside an actor the generations would hold the pool's threads, so the hops could never run and
    /// the gate would time out; on their own threads they wait, however long other work holds the pool.
    @Test func cooperativeTasksProgressWhileGenerationsRun() async throws {
        let model = try fidelityModel.get()
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)  // one generation per cooperative thread
        let generators = (0..<width).map { _ in BatchedGenerator(model: model, capacity: 1, contextLength: 128, threads: 1) }
        let gate = HopGate()
        let ids = model.tokenizer.encode(Self.prompt, addBOS: true, parseSpecial: true)
        var streams = generators.map { generator in
            let first = Atomic<Int>(0)
            return generator.events(ids: ids, options: GenerationOptions(maxTokens: 8)) { event in
                if case .token = event, first.add(1, ordering: .relaxed).newValue == 1 { gate.hold() }
                return event
            }
        }
        while gate.arrived.load(ordering: .sequentiallyConsistent) < width { try await Task.sleep(for: .milliseconds(1)) }

        let hop = Hop()
        for _ in 0..<50 {
            await hop.bump()
            await Task.yield()
        }
        #expect(await hop.count == 50)
        gate.open(width)
        var completions: [Int] = []
        for index in streams.indices {
            for try await event in streams[index] {
                if case .finished(let summary) = event { completions.append(summary.completionTokens) }
            }
        }
        #expect(gate.heldInTime.load(ordering: .sequentiallyConsistent) == width,
                "a generation gave up waiting for the hops: it was holding a cooperative thread")
        streams.removeAll()
        #expect(completions.count == width && completions.allSatisfy { $0 > 0 })
    }

    /// The generation holds at its fourth token until the consumer has dropped the stream (so other
    /// tests delaying the consumer cannot let it run ahead); from then on every cooperative thread the
    /// test can get is blocked, and the generation must notice the drop on its own.
    @Test func droppingTheStreamStopsGenerationWhileThePoolIsSaturated() async throws {
        let model = try fidelityModel.get()
        let generator = BatchedGenerator(model: model, capacity: 1, contextLength: 512, threads: 1)
        let progress = Progress()
        let dropped = DispatchSemaphore(value: 0)
        let ids = model.tokenizer.encode(Self.prompt, addBOS: true, parseSpecial: true)
        let deadline = ContinuousClock.now + .seconds(120)  // bounds every wait; never reached when correct
        let stopped: @Sendable () -> Bool = { progress.finished.load(ordering: .sequentiallyConsistent) || ContinuousClock.now > deadline }
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let consumer = Task.detached { () async throws -> Int in
            var seen = 0
            // Only the loop holds the stream, so `break` releases it and terminates it.
            for try await event in generator.events(ids: ids, options: GenerationOptions(maxTokens: 400), transform: { event in
                let observed = progress.observe(event)
                // The 4th token's transform runs after the 3rd was yielded: hold there.
                if case .token = event, progress.tokens.load(ordering: .sequentiallyConsistent) == 4 {
                    _ = dropped.wait(timeout: .now() + 120)
                }
                return observed
            }) {
                if case .token = event { seen += 1 }
                if seen == 3 { break }
            }
            let producedAtDrop = progress.tokens.load(ordering: .sequentiallyConsistent)
            // Block the other cooperative threads and this one until the generation has finished.
            for _ in 1..<width { Task.detached { while !stopped() { spinBriefly() } } }
            dropped.signal()
            while !stopped() { spinBriefly() }
            return producedAtDrop
        }
        let producedAtDrop = try await consumer.value
        let summary = try #require(progress.summary.withLock { $0 })
        print("threading: dropped after \(producedAtDrop) tokens produced; generation stopped at \(summary.completionTokens)")
        #expect(summary.finishReason == .cancelled)
        #expect(summary.completionTokens - producedAtDrop <= 2)
    }
}

/// Blocking work that keeps a thread busy without a syscall-free hot loop burning the other helpers' CPU.
private func spinBriefly() { usleep(200) }
