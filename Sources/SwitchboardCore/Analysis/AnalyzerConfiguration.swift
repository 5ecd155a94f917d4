/// Settings of the request analyzer.
public struct AnalyzerConfiguration: Sendable, Hashable {
    /// Recognizers to switch off (an app that knows its traffic has no such data). Default: none.
    public var disabledKinds: Set<EntityKind>
    /// Above this many UTF-8 bytes of text in one request, analysis stops and fails closed (`.sensitive`),
    /// so a huge request can never be classified as public unread.
    public var maxAnalyzedBytes: Int
    /// The app's own recognizers (employee ids, internal project names), run after the built-in ones on
    /// the same normalized text. One that throws makes the request fail closed.
    public var customRecognizers: [CustomRecognizer]
    /// Entities kept per request (the rest are counted in `RequestAnalysis.omittedEntities`): a pasted
    /// megabyte of "password: password: …" must not become a hundred thousand entities. The privacy level
    /// is decided from all of them.
    public var maxEntities: Int

    public init(disabledKinds: Set<EntityKind> = [], maxAnalyzedBytes: Int = 4 << 20, customRecognizers: [CustomRecognizer] = [],
                maxEntities: Int = 256) {
        self.disabledKinds = disabledKinds; self.maxAnalyzedBytes = maxAnalyzedBytes
        self.customRecognizers = customRecognizers; self.maxEntities = max(0, maxEntities)
    }
}

/// An app-supplied recognizer. Identified by its name (two with the same name are the same recognizer).
public struct CustomRecognizer: Sendable, Hashable {
    public let name: String
    let scan: @Sendable (TextScan, inout [Finding]) throws -> Void

    /// `scan` reads the request's text and appends what it finds; a finding's range is in UTF-8 bytes
    /// of that text. A recognizer that throws fails the analysis closed (the request stays on device).
    public init(name: String, scan: @escaping @Sendable (String, inout [Finding]) throws -> Void) {
        self.name = name
        self.scan = { text, findings in try scan(String(decoding: text.bytes, as: UTF8.self), &findings) }
    }

    public static func == (a: CustomRecognizer, b: CustomRecognizer) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
