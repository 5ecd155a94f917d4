import Foundation
import SwitchboardCore
import SwitchboardInference
import SwitchboardLocal

/// Runs one structured task on the engine with the prompt the local provider would build.
struct StructuredTaskRunner {
    let model: LanguageModel
    let generator: BatchedGenerator
    let template: ChatTemplate
    let maxTokens: Int

    struct Result {
        var text: String
        var schema: GenerationSchema
        var summary: GenerationSummary
        var seconds: Double

        func line(expected: GeneratedContent?) -> String {
            let content = try? schema.parseValid(text)
            var members: [(key: String, value: GeneratedContent)] = [
                ("output", .string(text)), ("valid", .bool(content != nil)),
                ("tokens", .number(String(summary.completionTokens))),
                ("seconds", .number(String(format: "%.3f", seconds))),
            ]
            if let expected { members.append(("correct", .bool(Self.matches(content, expected)))) }
            return GeneratedContent.object(members).jsonText
        }

        /// Every member of `expected` is in `content` with an equal value (numbers compared by value).
        static func matches(_ content: GeneratedContent?, _ expected: GeneratedContent) -> Bool {
            guard let content, case .object(let members) = expected else { return false }
            return members.allSatisfy { member in
                guard let actual = content[member.key] else { return false }
                if let a = actual.numberValue, let b = member.value.numberValue { return a == b }
                return actual == member.value
            }
        }
    }

    /// `tokens` caps the generation below `maxTokens` (timing: the unconstrained run decodes as many
    /// tokens as the constrained one did, at the same positions).
    func run(_ task: StructuredTask, constrained: Bool, tokens: Int? = nil) async throws -> Result {
        let request = GenerationRequest(prompt: task.prompt, messages: [ChatMessage(.system, AskCommand.defaultSystem)],
                                        output: .schema(task.schema), maxTokens: maxTokens)
        let tokenizer = model.tokenizer
        let builder = PromptBuilder(format: .chat(template), contextLength: 2048,
                                    counter: TokenCounter { tokenizer.encode($0, addBOS: false, parseSpecial: $1).count })
        let prompt = try builder.build(request)
        let ids = tokenizer.encode(prompt.text, addBOS: true, parseSpecial: prompt.parseSpecial)
        let constraint = constrained ? try task.schema.compiledConstraint() : nil
        let options = GenerationOptions(maxTokens: max(1, min(tokens ?? maxTokens, maxTokens)), sampler: .greedy, constraint: constraint)
        let start = ContinuousClock.now
        var text = ""
        var summary: GenerationSummary?
        for try await event in generator.events(ids: ids, options: options) {
            switch event {
            case .token(let token): text += token.text
            case .finished(let done): summary = done
            }
        }
        guard let summary else { throw ProviderError.malformedResponse("the generation ended without a summary") }
        return Result(text: text, schema: task.schema, summary: summary, seconds: EngineSupport.seconds(ContinuousClock.now - start))
    }
}

/// Decode tokens/s summed over tasks, constrained and not.
struct StructuredTiming {
    private var tokens = [0, 0]
    private var seconds = [0.0, 0.0]

    mutating func add(_ summary: GenerationSummary, constrained: Bool) {
        let i = constrained ? 0 : 1
        tokens[i] += max(0, summary.generatedIDs.count - 1)
        seconds[i] += EngineSupport.seconds(summary.decodeDuration)
    }

    private func rate(_ i: Int) -> Double { seconds[i] > 0 ? Double(tokens[i]) / seconds[i] : 0 }

    var line: String {
        let constrained = rate(0), unconstrained = rate(1)
        return GeneratedContent.object([
            ("constrained_tokens_per_second", .number(String(format: "%.1f", constrained))),
            ("unconstrained_tokens_per_second", .number(String(format: "%.1f", unconstrained))),
            ("ratio", .number(String(format: "%.3f", unconstrained > 0 ? constrained / unconstrained : 0))),
        ]).jsonText
    }
}
