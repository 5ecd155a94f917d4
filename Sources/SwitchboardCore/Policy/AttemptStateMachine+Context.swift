/// What a provider's context must hold, judged from facts the runtime can check rather than from a
/// server's word: a context-length error's claimed limit only rules out the provider that sent it
/// (and others only as far as the request could really need that much), and a resumed answer carries
/// only as much of the text so far as the next provider's context can take.
extension AttemptStateMachine {
    /// The request's size as routing estimated it.
    package struct RequestSize: Sendable, Hashable {
        /// The analyzer's estimate (UTF-8 bytes / 4, as eligibility used it).
        package var estimatedPromptTokens: Int
        package var maxTokens: Int
        package var imageCount: Int

        package init(estimatedPromptTokens: Int = 0, maxTokens: Int = 0, imageCount: Int = 0) {
            self.estimatedPromptTokens = max(0, estimatedPromptTokens); self.maxTokens = max(0, maxTokens)
            self.imageCount = max(0, imageCount)
        }

        /// Room for a chat template, a system turn and tool definitions the estimate does not see.
        static let templateSlack = 1_024
        /// What one image may take in a vision model's context (the largest tilings use a few thousand).
        static let tokensPerImage = 4_096

        /// The most tokens this request can take in any tokenizer: a token covers at least one UTF-8
        /// byte, and the estimate is a quarter of the bytes. A claim that the request needs more than
        /// this is not believed beyond it.
        package var contextCeiling: Int {
            estimatedPromptTokens.saturatingMultiply(4).saturatingAdd(maxTokens).saturatingAdd(Self.templateSlack)
                .saturatingAdd(imageCount.saturatingMultiply(Self.tokensPerImage))
        }
    }

    /// The fewest tokens a provider's context must exceed after a provider claimed `limit` was too
    /// small: the claim, but never more than the request can need (`contextCeiling` − 1), so a server
    /// claiming a limit of `Int.max` for a 21-token prompt rules out only itself.
    package func believedMinimumContext(claimed limit: Int) -> Int {
        min(limit, size.contextCeiling.saturatingAdd(-1))
    }

    /// Fewer carried bytes than this are no use as a prefix: the next provider starts over instead.
    static let minimumCarriedBytes = 16

    /// How much of the text delivered so far `candidate` can continue from. Each carried UTF-8 byte
    /// is counted as a token (no tokenizer makes more tokens than bytes), so a trimmed prefix always
    /// fits; the prompt counts as routing estimated it, the rest of the answer as what is left of
    /// `maxTokens`.
    func carriedText(for candidate: Candidate) -> (prefix: String?, carried: CarriedText) {
        guard !delivered.isEmpty else { return (nil, .whole) }
        let remainingAnswer = max(1, size.maxTokens.saturatingAdd(-deliveredTokens))
        let room = candidate.maxContextTokens.saturatingAdd(-size.estimatedPromptTokens)
            .saturatingAdd(-remainingAnswer).saturatingAdd(-Self.promptSlack)
        let bytes = delivered.utf8.count
        if max(bytes, deliveredTokens) <= room { return (delivered, .whole) }
        guard room >= Self.minimumCarriedBytes else { return (nil, .restarted(droppedBytes: bytes)) }
        // Keep the end of the answer: the continuation must follow the last text the caller saw.
        let utf8 = delivered.utf8
        var start = utf8.index(utf8.endIndex, offsetBy: -room)
        while start < utf8.endIndex, utf8[start] & 0xC0 == 0x80 { start = utf8.index(after: start) }
        let tail = String(delivered.unicodeScalars[start...])
        return (tail, .trimmed(keptBytes: tail.utf8.count, droppedBytes: bytes - tail.utf8.count))
    }

    /// Tokens a continuation's template adds around the prefix (the assistant turn's markers).
    static let promptSlack = 16
}
