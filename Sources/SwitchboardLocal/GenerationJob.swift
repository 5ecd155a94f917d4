import SwitchboardCore
import SwitchboardInference

/// One generation on an `InferenceSession`: prefill in batches, then sample and decode one token at a
/// time, streaming text pieces. Stops at an end-of-generation token, at `maxTokens`, or within one
/// forward pass of the consumer going away.
struct GenerationJob: Sendable {
    var prompt: BuiltPrompt
    var maxTokens: Int
    var sampling: SamplerConfiguration

    func run(on session: InferenceSession, tokenizer: Tokenizer, batchSize: Int, stop: StopFlag,
             into output: AsyncThrowingStream<LocalEngineEvent, any Error>.Continuation) {
        session.reset()
        let ids = tokenizer.encode(prompt.text, addBOS: true, parseSpecial: prompt.parseSpecial)
        guard ids.count + maxTokens <= session.contextLength else {
            output.finish(throwing: ProviderError.contextLengthExceeded(limit: session.contextLength, requested: ids.count + maxTokens))
            return
        }
        var sampler = Sampler(configuration: sampling)
        var decoder = StreamingDecoder(tokenizer: tokenizer)
        var recent = Array(ids.suffix(sampler.configuration.repetitionWindow))
        do throws(InferenceError) {
            var logits = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
            var start = 0
            while start < ids.count {
                if stop.isRaised { output.finish(throwing: CancellationError()); return }
                let end = min(ids.count, start + batchSize)
                logits = try session.prefill(Array(ids[start..<end]))
                start = end
            }
            var generated = 0
            var reason = FinishReason.length
            while generated < maxTokens {
                if stop.isRaised { output.finish(throwing: CancellationError()); return }
                let next = sampler.sample(logits, recent: recent)
                if tokenizer.endOfGenerationIDs.contains(next) { reason = .stop; break }
                generated += 1
                output.yield(.token(decoder.append(next)))
                if sampler.configuration.repetitionWindow > 0 {
                    recent.append(next)
                    if recent.count > sampler.configuration.repetitionWindow { recent.removeFirst() }
                }
                if generated < maxTokens { logits = try session.decode(next) }
            }
            let rest = decoder.flush()
            if !rest.isEmpty { output.yield(.token(rest)) }
            output.yield(.finished(reason, TokenUsage(promptTokens: ids.count, completionTokens: generated)))
            output.finish()
        } catch {
            output.finish(throwing: error)
        }
    }
}

/// The `engine` measurement in short: prefill a prompt of `promptTokens` tokens in one call, then
/// `generatedTokens` greedy single-token decodes, each timed on the continuous clock.
struct ThroughputProbe {
    var promptTokens: Int
    var generatedTokens: Int
    var threads: Int

    func run(on session: InferenceSession, tokenizer: Tokenizer) -> Result<EngineThroughput, InferenceError> {
        session.reset()
        let text = "The history of computing spans mechanical calculators, vacuum tubes, transistors and chips. "
        var ids = tokenizer.encode(text, addBOS: true)
        let body = tokenizer.encode(text, addBOS: false)
        while ids.count < promptTokens, !body.isEmpty { ids += body }
        ids = Array(ids.prefix(max(1, promptTokens)))
        let generate = max(0, min(generatedTokens, session.contextLength - ids.count))
        let clock = ContinuousClock()
        do throws(InferenceError) {
            let prefillStart = clock.now
            var logits = try session.prefill(ids)
            let prefill = prefillStart.duration(to: clock.now)
            let decodeStart = clock.now
            for _ in 0..<generate {
                logits = try session.decode(Sampler.argmax(UnsafeBufferPointer(logits)))
            }
            return .success(EngineThroughput(promptTokens: ids.count, generatedTokens: generate, prefill: prefill,
                                             decode: decodeStart.duration(to: clock.now), threads: threads))
        } catch {
            return .failure(error)
        }
    }
}
