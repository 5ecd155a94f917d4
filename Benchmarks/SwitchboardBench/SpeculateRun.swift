import Foundation
import SwitchboardCore
import SwitchboardInference
import SwitchboardLocal

/// One prompt of `speculate`, tokenized once so both modes decode the same ids: the extraction
/// prompt, or a structured one (its schema constrains the decoding and the prompt carries the schema
/// instructions, as the local provider builds them).
struct SpeculatePrompt {
    var id: String
    var ids: [Int32]
    var schema: GenerationSchema?
    /// Strings a right answer copies from the prompt (empty for the public structured tasks).
    var facts: [String]
}

/// What one generation reported, as the tallies need it.
struct SpeculateSample: Equatable {
    var ids: [Int32]
    var text: String
    /// Tokens after the first (each needs a decode step in plain decoding).
    var decodedTokens: Int
    var decodeSeconds: Double
    var decodePasses: Int
    var acceptedDraftTokens: Int
    var draftedTokens: Int
    var reusedPromptTokens: Int

    init(ids: [Int32], text: String, decodeSeconds: Double, decodePasses: Int, acceptedDraftTokens: Int, draftedTokens: Int = 0,
         reusedPromptTokens: Int = 0) {
        self.ids = ids
        self.text = text
        decodedTokens = max(0, ids.count - 1)
        self.decodeSeconds = decodeSeconds
        self.decodePasses = decodePasses
        self.acceptedDraftTokens = acceptedDraftTokens
        self.draftedTokens = draftedTokens
        self.reusedPromptTokens = reusedPromptTokens
    }

    init(text: String, summary: GenerationSummary) {
        self.init(ids: summary.generatedIDs, text: text, decodeSeconds: EngineSupport.seconds(summary.decodeDuration),
                  decodePasses: summary.decodePasses, acceptedDraftTokens: summary.acceptedDraftTokens,
                  draftedTokens: summary.draftedTokens, reusedPromptTokens: summary.reusedPromptTokens)
    }

    var tokensPerSecond: Double { decodeSeconds > 0 ? Double(decodedTokens) / decodeSeconds : 0 }
}

/// One task's two runs and what they show.
struct SpeculatePair {
    var id: String
    var plain: SpeculateSample
    var speculative: SpeculateSample
    /// Structured tasks: whether each output parses and validates against the schema.
    var plainValid: Bool?
    var speculativeValid: Bool?
    /// Facts of the task found verbatim in the plain output, of `factCount`.
    var factsCopied: Int
    var factCount: Int

    var identical: Bool { plain.ids == speculative.ids }
}

/// Sums over a set of pairs: decode rate over all tasks is total tokens after the first over total
/// decode time (long answers weigh more, as they do for a user), not a mean of per-task rates.
struct SpeculateTally {
    private(set) var pairs: [SpeculatePair] = []

    mutating func add(_ pair: SpeculatePair) { pairs.append(pair) }

    private func rate(_ side: KeyPath<SpeculatePair, SpeculateSample>) -> Double {
        let seconds = pairs.reduce(0.0) { $0 + $1[keyPath: side].decodeSeconds }
        let tokens = pairs.reduce(0) { $0 + $1[keyPath: side].decodedTokens }
        return seconds > 0 ? Double(tokens) / seconds : 0
    }

    var plainRate: Double { rate(\.plain) }
    var speculativeRate: Double { rate(\.speculative) }
    var speedup: Double { plainRate > 0 ? speculativeRate / plainRate : 0 }
    var plainPasses: Int { pairs.reduce(0) { $0 + $1.plain.decodePasses } }
    var speculativePasses: Int { pairs.reduce(0) { $0 + $1.speculative.decodePasses } }
    var acceptedDraftTokens: Int { pairs.reduce(0) { $0 + $1.speculative.acceptedDraftTokens } }
    var draftedTokens: Int { pairs.reduce(0) { $0 + $1.speculative.draftedTokens } }
    var generatedTokens: Int { pairs.reduce(0) { $0 + $1.plain.ids.count } }
    var reusedPromptTokens: Int { pairs.reduce(0) { $0 + $1.plain.reusedPromptTokens + $1.speculative.reusedPromptTokens } }
    /// Vacuously true for no pairs; the command refuses to run an empty set.
    var identical: Bool { pairs.allSatisfy(\.identical) }
    var valid: Bool { pairs.allSatisfy { $0.plainValid != false && $0.speculativeValid != false } }
    var factsCopied: Double {
        let total = pairs.reduce(0) { $0 + $1.factCount }
        return total > 0 ? Double(pairs.reduce(0) { $0 + $1.factsCopied }) / Double(total) : 0
    }
}

/// Runs prompts on a single-sequence generator that keeps nothing between requests
/// (`reusePrefixes: false`: each request starts from an empty KV cache, so neither mode decodes on
/// the other's cache). Greedy, so plain and speculative must agree token for token.
struct SpeculateRunner {
    let model: LanguageModel
    let generator: BatchedGenerator
    let template: ChatTemplate
    let maxTokens: Int
    static let contextLength = 2048

    init(model: LanguageModel, template: ChatTemplate, maxTokens: Int, threads: Int) {
        self.model = model
        self.template = template
        self.maxTokens = maxTokens
        generator = BatchedGenerator(model: model, capacity: 1, contextLength: Self.contextLength, threads: threads, reusePrefixes: false)
    }

    /// The prompt the local provider would build: the system line, the user turn, and for a schema
    /// its instructions.
    func prompt(id: String, text: String, schema: GenerationSchema?, facts: [String]) throws -> SpeculatePrompt {
        let request = GenerationRequest(prompt: text, messages: [ChatMessage(.system, AskCommand.defaultSystem)],
                                        output: schema.map { OutputFormat.schema($0) } ?? .text, maxTokens: maxTokens)
        let tokenizer = model.tokenizer
        let builder = PromptBuilder(format: .chat(template), contextLength: Self.contextLength,
                                    counter: TokenCounter { tokenizer.encode($0, addBOS: false, parseSpecial: $1).count })
        let built = try builder.build(request)
        let ids = tokenizer.encode(built.text, addBOS: true, parseSpecial: built.parseSpecial)
        return SpeculatePrompt(id: id, ids: ids, schema: schema, facts: facts)
    }

    func generate(_ prompt: SpeculatePrompt, speculative: Bool, maxTokens: Int? = nil) async throws -> SpeculateSample {
        let constraint = try prompt.schema?.compiledConstraint()
        let options = GenerationOptions(maxTokens: maxTokens ?? self.maxTokens, sampler: .greedy, constraint: constraint,
                                        speculative: speculative)
        var text = ""
        var summary: GenerationSummary?
        for try await event in generator.events(ids: prompt.ids, options: options) {
            switch event {
            case .token(let token): text += token.text
            case .finished(let done): summary = done
            }
        }
        guard let summary else { throw ProviderError.malformedResponse("the generation ended without a summary") }
        return SpeculateSample(text: text, summary: summary)
    }

    /// Both modes, one after the other; which goes first alternates with `order` so a machine
    /// drifting between speed phases does not favour one mode.
    func pair(_ prompt: SpeculatePrompt, order: Int) async throws -> SpeculatePair {
        let plain: SpeculateSample, speculative: SpeculateSample
        if order.isMultiple(of: 2) {
            plain = try await generate(prompt, speculative: false)
            speculative = try await generate(prompt, speculative: true)
        } else {
            speculative = try await generate(prompt, speculative: true)
            plain = try await generate(prompt, speculative: false)
        }
        let valid: (SpeculateSample) -> Bool? = { sample in prompt.schema.map { (try? $0.parseValid(sample.text)) != nil } }
        return SpeculatePair(id: prompt.id, plain: plain, speculative: speculative, plainValid: valid(plain),
                             speculativeValid: valid(speculative), factsCopied: prompt.facts.filter { plain.text.contains($0) }.count,
                             factCount: prompt.facts.count)
    }
}
