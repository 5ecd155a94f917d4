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
    /// The built-in recognizers this configuration runs, in order.
    private let recognizers: [BuiltIn]

    public init(configuration: AnalyzerConfiguration = .init()) {
        self.configuration = configuration
        recognizers = BuiltIn.allCases.filter { !$0.kinds.isSubset(of: configuration.disabledKinds) }
    }

    /// The built-in recognizers, called through a switch (closures cost a retain and a release
    /// each, eight times per text).
    private enum BuiltIn: CaseIterable {
        case number, spelledNumber, iban, secret, identity, identityNumber, bankAccount, health, email, personal

        /// The name `analyze` reasons show.
        var name: String {
            switch self {
            case .number: "number"
            case .spelledNumber: "spelled-number"
            case .iban: "iban"
            case .secret: "secret"
            case .identity: "passport"
            case .identityNumber: "identity"
            case .bankAccount: "bank-account"
            case .health: "health"
            case .email: "email"
            case .personal: "personal"
            }
        }

        var kinds: Set<EntityKind> {
            switch self {
            case .number: NumberRecognizer.kinds
            case .spelledNumber: SpelledNumberRecognizer.kinds
            case .iban: IBANRecognizer.kinds
            case .secret: SecretRecognizer.kinds
            case .identity: IdentityRecognizer.kinds
            case .identityNumber: IdentityNumberRecognizer.kinds
            case .bankAccount: BankAccountRecognizer.kinds
            case .health: SpecialCategoryRecognizer.kinds
            case .email: EmailRecognizer.kinds
            case .personal: PersonalRecognizer.kinds
            }
        }

        func scan(_ text: TextScan, into findings: inout [Finding]) {
            switch self {
            case .number: NumberRecognizer.scan(text, into: &findings)
            case .spelledNumber: SpelledNumberRecognizer.scan(text, into: &findings)
            case .iban: IBANRecognizer.scan(text, into: &findings)
            case .secret: SecretRecognizer.scan(text, into: &findings)
            case .identity: IdentityRecognizer.scan(text, into: &findings)
            case .identityNumber: IdentityNumberRecognizer.scan(text, into: &findings)
            case .bankAccount: BankAccountRecognizer.scan(text, into: &findings)
            // Health, the special categories and the personal details their tables cue, in one pass.
            case .health: SpecialCategoryRecognizer.scan(text, into: &findings)
            case .email: EmailRecognizer.scan(text, into: &findings)
            case .personal: PersonalRecognizer.scan(text, into: &findings)
            }
        }
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
        var analysis = RequestAnalysis(
            privacy: state.privacy, entities: state.entities, estimatedPromptTokens: (bytes + 3) / 4,
            imageCount: request.images.count, wantsStructuredOutput: request.output.isStructured,
            complexity: state.signals.complexity(messageCount: request.messages.count),
            language: state.signals.language, latencyBudget: request.latencyBudget)
        analysis.omittedEntities = state.omitted
        return analysis
    }

    private struct State {
        var privacy = PrivacyLevel.public
        var entities: [DetectedEntity] = []
        var signals = TextSignals()
        var findings: [Finding] = []
        var omitted = 0
    }

    private func analyze(_ text: String, index: Int, into state: inout State) throws(AnalysisFailure) {
        guard !text.isEmpty else { return }
        let scan = TextScan(text)
        guard scan.normalized.isReadable else { throw .unreadable }
        state.signals.add(scan)
        state.findings.removeAll(keepingCapacity: true)
        try recognize(scan, into: &state.findings)
        // A text already sensitive cannot become more so: its decoded forms are not read (their entities
        // would only repeat what is known, at the cost of more passes).
        let alreadySensitive = state.findings.contains { $0.level == .sensitive && !configuration.disabledKinds.contains($0.kind) }
        // Encoded and disguised forms (base64, hex, percent and HTML escapes, ROT13, reversed or
        // letter-for-digit numbers, spaced-out letters), one layer deep: what a recognizer finds in the
        // decoded text is reported at the encoded span.
        for candidate in alreadySensitive ? [] : DecodingLayers.candidates(in: scan) {
            var inner: [Finding] = []
            try recognize(TextScan(candidate.decoded), into: &inner)
            for finding in inner {
                state.findings.append(Finding(kind: finding.kind, range: candidate.range, level: finding.level,
                                              recognizer: candidate.layer + "/" + finding.recognizer))
            }
        }
        for finding in state.findings where !configuration.disabledKinds.contains(finding.kind) {
            guard finding.range.lowerBound >= 0, finding.range.upperBound <= scan.bytes.count else {
                throw .inconsistentFinding
            }
            // Findings point at the user's text, not at the normalized view.
            state.privacy = max(state.privacy, finding.kind.isSpecialCategory ? .sensitive : finding.level)
            guard state.entities.count < configuration.maxEntities else { state.omitted += 1; continue }
            let range = scan.normalized.originalRange(finding.range)
            state.entities.append(DetectedEntity(kind: finding.kind, textIndex: index, range: range, recognizer: finding.recognizer))
        }
    }

    private func recognize(_ scan: TextScan, into findings: inout [Finding]) throws(AnalysisFailure) {
        for recognizer in recognizers {
            let before = findings.count
            recognizer.scan(scan, into: &findings)
            for k in before..<findings.count where findings[k].recognizer.isEmpty { findings[k].recognizer = recognizer.name }
        }
        for custom in configuration.customRecognizers {
            let before = findings.count
            do { try custom.scan(scan, &findings) } catch { throw .recognizerFailed(custom.name) }
            for k in before..<findings.count where findings[k].recognizer.isEmpty { findings[k].recognizer = custom.name }
        }
    }
}
