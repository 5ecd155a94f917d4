/// Why analysis could not finish; the analyzer then fails closed.
public enum AnalysisFailure: Error, Sendable, Hashable {
    case tooLarge(bytes: Int, limit: Int)
    case inconsistentFinding
    /// The text carries signs of a failed decoding (U+FFFD, NUL): it cannot be vouched for.
    case unreadable
    /// A recognizer gave up on the text (an app's custom recognizer threw).
    case recognizerFailed(String)
}

/// The pure analysis behind `RequestAnalyzer`: runs the recognizers over the normalized view of every
/// text of a request (in `GenerationRequest.allText` order: messages and their tool calls, prompt, memory), then over any
/// base64 text decoded from it, and sums up.
public struct ContentAnalyzer: Sendable {
    public var configuration: AnalyzerConfiguration
    private typealias Scan = @Sendable (TextScan, inout [Finding]) -> Void
    /// The built-in recognizers this configuration runs, in order.
    private let recognizers: [Scan]

    public init(configuration: AnalyzerConfiguration = .init()) {
        self.configuration = configuration
        let all: [(Set<EntityKind>, Scan)] = [
            (NumberRecognizer.kinds, NumberRecognizer.scan), (SpelledNumberRecognizer.kinds, SpelledNumberRecognizer.scan),
            (IBANRecognizer.kinds, IBANRecognizer.scan), (SecretRecognizer.kinds, SecretRecognizer.scan),
            (IdentityRecognizer.kinds, IdentityRecognizer.scan), (HealthRecognizer.kinds, HealthRecognizer.scan),
            (EmailRecognizer.kinds, EmailRecognizer.scan), (PersonalRecognizer.kinds, PersonalRecognizer.scan),
        ]
        recognizers = all.filter { !$0.0.isSubset(of: configuration.disabledKinds) }.map(\.1)
    }

    public func analyze(_ request: GenerationRequest) throws(AnalysisFailure) -> RequestAnalysis {
        var bytes = 0
        for message in request.messages {
            bytes += message.content.utf8.count
            for call in message.toolCalls { bytes += call.arguments.utf8.count }
        }
        bytes += request.prompt?.utf8.count ?? 0
        if let memory = request.memory { for text in memory.allText { bytes += text.utf8.count } }
        guard bytes <= configuration.maxAnalyzedBytes else {
            throw .tooLarge(bytes: bytes, limit: configuration.maxAnalyzedBytes)
        }
        var state = State()
        var textIndex = 0
        for message in request.messages {
            try analyze(message.content, index: textIndex, into: &state); textIndex += 1
            // A tool's result is the `.tool` message's content; the model's call arguments are read too.
            for call in message.toolCalls { try analyze(call.arguments, index: textIndex, into: &state); textIndex += 1 }
        }
        if let prompt = request.prompt { try analyze(prompt, index: textIndex, into: &state); textIndex += 1 }
        if let memory = request.memory {
            let firstMemoryIndex = textIndex
            for text in memory.allText { try analyze(text, index: textIndex, into: &state); textIndex += 1 }
            if memory.containsPersonalData, !configuration.disabledKinds.contains(.personalMemory) {
                state.entities.append(DetectedEntity(kind: .personalMemory, textIndex: firstMemoryIndex))
                state.privacy = max(state.privacy, .personal)
            }
        }
        return RequestAnalysis(
            privacy: state.privacy, entities: state.entities, estimatedPromptTokens: (bytes + 3) / 4,
            imageCount: request.images.count, wantsStructuredOutput: request.output.isStructured,
            complexity: state.signals.complexity(messageCount: request.messages.count),
            language: state.signals.language, latencyBudget: request.latencyBudget)
    }

    private struct State {
        var privacy = PrivacyLevel.public
        var entities: [DetectedEntity] = []
        var signals = TextSignals()
        var findings: [Finding] = []
    }

    private func analyze(_ text: String, index: Int, into state: inout State) throws(AnalysisFailure) {
        guard !text.isEmpty else { return }
        let scan = TextScan(text)
        guard scan.normalized.isReadable else { throw .unreadable }
        state.signals.add(scan)
        state.findings.removeAll(keepingCapacity: true)
        try recognize(scan, into: &state.findings)
        for candidate in EncodedText.candidates(in: scan) {
            var inner: [Finding] = []
            try recognize(TextScan(candidate.decoded), into: &inner)
            for finding in inner { state.findings.append(Finding(kind: finding.kind, range: candidate.range, level: finding.level)) }
        }
        for finding in state.findings where !configuration.disabledKinds.contains(finding.kind) {
            guard finding.range.lowerBound >= 0, finding.range.upperBound <= scan.bytes.count else {
                throw .inconsistentFinding
            }
            // Findings point at the user's text, not at the normalized view.
            let range = scan.normalized.originalRange(finding.range)
            state.entities.append(DetectedEntity(kind: finding.kind, textIndex: index, range: range))
            state.privacy = max(state.privacy, finding.level)
        }
    }

    private func recognize(_ scan: TextScan, into findings: inout [Finding]) throws(AnalysisFailure) {
        for recognizer in recognizers { recognizer(scan, &findings) }
        for custom in configuration.customRecognizers {
            do { try custom.scan(scan, &findings) } catch { throw .recognizerFailed(custom.name) }
        }
    }
}
