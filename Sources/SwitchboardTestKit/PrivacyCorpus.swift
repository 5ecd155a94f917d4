import Foundation
import SwitchboardCore

/// A labelled privacy corpus: one line per prompt, `label<TAB>family<TAB>text`, where the label is
/// `sensitive`, `personal` or `public` and the text may use `\n`, `\t`, `\"`, `\\` and `\u{XXXX}`, so
/// invisible characters stay visible in the file. Lines starting with `#` are comments.
public struct PrivacyCorpus: Sendable {
    public struct Line: Sendable, Hashable {
        /// The least privacy the analyzer must give (`public` lines: the most it may give is below sensitive).
        public var label: PrivacyLevel
        public var family: String
        public var text: String
        public var lineNumber: Int
    }

    public enum ParseError: Error, CustomStringConvertible {
        case malformed(line: Int, reason: String)
        public var description: String {
            switch self {
            case .malformed(let line, let reason): "corpus line \(line): \(reason)"
            }
        }
    }

    public var lines: [Line]

    public init(lines: [Line]) { self.lines = lines }

    public init(contentsOf url: URL) throws {
        try self.init(String(contentsOf: url, encoding: .utf8))
    }

    public init(_ source: String) throws(ParseError) {
        lines = []
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if raw.isEmpty || raw.hasPrefix("#") { continue }
            let fields = raw.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw .malformed(line: index + 1, reason: "expected label, family and text") }
            let label: PrivacyLevel
            switch fields[0] {
            case "sensitive": label = .sensitive
            case "personal": label = .personal
            case "public": label = .public
            default: throw .malformed(line: index + 1, reason: "unknown label '\(fields[0])'")
            }
            lines.append(Line(label: label, family: String(fields[1]), text: try Self.unescape(fields[2], line: index + 1),
                              lineNumber: index + 1))
        }
    }

    public func lines(labelled label: PrivacyLevel) -> [Line] { lines.filter { $0.label == label } }

    static func unescape(_ text: Substring, line: Int) throws(ParseError) -> String {
        var result = ""
        var rest = text[...]
        while let slash = rest.firstIndex(of: "\\") {
            result += rest[..<slash]
            let next = rest.index(after: slash)
            guard next < rest.endIndex else { throw .malformed(line: line, reason: "trailing backslash") }
            switch rest[next] {
            case "n": result += "\n"; rest = rest[rest.index(after: next)...]
            case "t": result += "\t"; rest = rest[rest.index(after: next)...]
            case "\"", "\\": result.append(rest[next]); rest = rest[rest.index(after: next)...]
            case "u":
                let brace = rest.index(after: next)
                guard brace < rest.endIndex, rest[brace] == "{", let close = rest[brace...].firstIndex(of: "}"),
                      let value = UInt32(rest[rest.index(after: brace)..<close], radix: 16),
                      let scalar = Unicode.Scalar(value) else {
                    throw .malformed(line: line, reason: "bad \\u{…} escape")
                }
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(after: close)...]
            default: throw .malformed(line: line, reason: "unknown escape \\\(rest[next])")
            }
        }
        return result + rest
    }
}
