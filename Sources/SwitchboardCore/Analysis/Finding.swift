/// One recognizer hit inside one text: the kind, the UTF-8 byte range and the privacy level it implies
/// (usually the kind's own level; a strong personal statement lifts `.personalContext` to `.personal`).
public struct Finding: Sendable, Hashable {
    public var kind: EntityKind
    public var range: Range<Int>
    public var level: PrivacyLevel
    /// Which recognizer (and rule or scheme) decided: "number", "identity:it-cf", "secret". Never the text.
    public var recognizer: String
    public init(kind: EntityKind, range: Range<Int>, level: PrivacyLevel? = nil, recognizer: String = "") {
        self.kind = kind; self.range = range; self.level = level ?? kind.privacy; self.recognizer = recognizer
    }
}

/// A recognizer: reads one scanned text, appends what it finds.
package protocol Recognizer {
    static var kinds: Set<EntityKind> { get }
    static func scan(_ text: TextScan, into findings: inout [Finding])
}

extension Recognizer {
    /// Convenience for tests and tools.
    package static func findings(in text: String) -> [Finding] {
        var findings: [Finding] = []
        scan(TextScan(text), into: &findings)
        return findings
    }
}

extension [Finding] {
    /// Whether one of the last few findings overlaps `range`. Scanners append in text order, so only the
    /// tail can overlap, and a text with many hits stays linear.
    func recentlyOverlap(_ range: Range<Int>) -> Bool { suffix(3).contains { $0.range.overlaps(range) } }
}
