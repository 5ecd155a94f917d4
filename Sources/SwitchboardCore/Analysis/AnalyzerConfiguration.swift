/// Settings of the request analyzer.
public struct AnalyzerConfiguration: Sendable, Hashable {
    /// Recognizers to switch off (an app that knows its traffic has no such data). Default: none.
    public var disabledKinds: Set<EntityKind>
    /// Above this many UTF-8 bytes of text in one request, analysis stops and fails closed (`.sensitive`),
    /// so a huge request can never be classified as public unread.
    public var maxAnalyzedBytes: Int

    public init(disabledKinds: Set<EntityKind> = [], maxAnalyzedBytes: Int = 4 << 20) {
        self.disabledKinds = disabledKinds; self.maxAnalyzedBytes = maxAnalyzedBytes
    }
}
