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

    static let prompt = "Once upon a time"

    @Test func cooperativeTasksProgressWhileGenerationsRun() async throws {
        let model = try fidelityModel.get()
        // One generation per cooperative thread: run inside actors, these would occupy the whole pool.
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let generators = (0..<width).map { _ in LocalGenerator(model: model, contextLength: 128, threads: 1) }
        let progress = generators.map { _ in Progress() }
        let ids = model.tokenizer.encode(Self.prompt, addBOS: true, parseSpecial: true)
        var streams: [AsyncThrowingStream<GenerationEvent, any Error>] = []
        for (generator, observer) in zip(generators, progress) {
            streams.append(generator.events(ids: ids, options: GenerationOptions(maxTokens: 96)) { observer.observe($0) })
        }
        var iterators = streams.map { $0.makeAsyncIterator() }
        for index in iterators.indices { _ = try await iterators[index].next() }  // every generation is running

        let hop = Hop()
        for _ in 0..<50 {
            await hop.bump()
            await Task.yield()
        }
        #expect(await hop.count == 50)
        let unfinished = progress.filter { !$0.finished.load(ordering: .sequentiallyConsistent) }.count
        print("threading: 50 actor hops done with \(unfinished)/\(width) generations still running, tokens \(progress.map { $0.tokens.load(ordering: .relaxed) })")
        #expect(unfinished == width, "the hops waited for a generation to end: it occupied the cooperative pool")
        iterators.removeAll()
        streams.removeAll()  // dropping the streams cancels the generations
        for generator in generators { #expect(await generator.lastSummary?.finishReason == .cancelled) }
    }

    @Test func droppingTheStreamStopsGenerationWhileThePoolIsSaturated() async throws {
        let model = try fidelityModel.get()
        let generator = LocalGenerator(model: model, contextLength: 512, threads: 1)
        let progress = Progress()
        let ids = model.tokenizer.encode(Self.prompt, addBOS: true, parseSpecial: true)
        let deadline = ContinuousClock.now + .seconds(20)  // a bound for the blocking loops, never reached when correct
        let stopped: @Sendable () -> Bool = { progress.finished.load(ordering: .sequentiallyConsistent) || ContinuousClock.now > deadline }
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        // Every cooperative thread but the consumer's blocks until the generation has finished.
        let blockers = (1..<width).map { _ in Task.detached { while !stopped() { spinBriefly() } } }
        // The consumer reads 3 tokens, drops the stream, and then blocks its thread too.
        let consumer = Task.detached { () async throws -> Int in
            var seen = 0
            // Only the loop holds the stream, so `break` releases it and terminates it.
            for try await event in generator.events(ids: ids, options: GenerationOptions(maxTokens: 400), transform: progress.observe) {
                if case .token = event { seen += 1 }
                if seen == 3 { break }
            }
            let producedAtDrop = progress.tokens.load(ordering: .sequentiallyConsistent)
            while !stopped() { spinBriefly() }
            return producedAtDrop
        }
        let producedAtDrop = try await consumer.value
        for blocker in blockers { await blocker.value }
        let summary = try #require(progress.summary.withLock { $0 })
        print("threading: dropped after \(producedAtDrop) tokens produced; generation stopped at \(summary.completionTokens)")
        #expect(summary.finishReason == .cancelled)
        #expect(summary.completionTokens - producedAtDrop <= 2)
        #expect(await generator.lastSummary == summary)
    }
}

/// Blocking work that keeps a thread busy without a syscall-free hot loop burning the other helpers' CPU.
private func spinBriefly() { usleep(200) }
