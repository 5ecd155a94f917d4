import Foundation
import Testing

/// The public API an app sees, listed in `Docs/API.md` and compared here, so every addition, removal or
/// change of a public declaration is seen in review. After a deliberate change, rewrite the list with
/// `SWITCHBOARD_WRITE_API=1 swift test --filter PublicAPITests` and commit it with the change.
@Suite struct PublicAPITests {
    /// The libraries an app links. (`SwitchboardTestKit` is test support and not listed.)
    static let modules = ["Switchboard", "SwitchboardCore", "SwitchboardLocal", "SwitchboardRemote", "SwitchboardInference",
                          "SwitchboardFoundationModels"]

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test func theListingMatchesTheSources() throws {
        let listing = try Self.render(Self.modules.map { ($0, try PublicAPIScanner.declarations(inModule: $0, root: Self.root)) })
        let file = Self.root.appendingPathComponent("Docs/API.md")
        if ProcessInfo.processInfo.environment["SWITCHBOARD_WRITE_API"] != nil {
            try listing.write(to: file, atomically: true, encoding: .utf8)
        }
        let recorded = try String(contentsOf: file, encoding: .utf8)
        let want = Set(listing.split(separator: "\n")), have = Set(recorded.split(separator: "\n"))
        let added = want.subtracting(have).sorted(), removed = have.subtracting(want).sorted()
        #expect(added.isEmpty && removed.isEmpty, """
            Docs/API.md is stale. New or changed public declarations:
            \(added.prefix(40).joined(separator: "\n"))
            Gone from the sources:
            \(removed.prefix(40).joined(separator: "\n"))
            Rewrite it with SWITCHBOARD_WRITE_API=1 swift test --filter PublicAPITests if the change is meant.
            """)
    }

    /// The scanner itself: nested types, extensions, multi-line signatures, strings and comments.
    @Test func theScannerReadsDeclarationsInTheirContext() {
        let source = #"""
            /// A doc comment saying public struct NotReal {
            public struct Outer: Sendable,
                                 Hashable {
                public var name: String
                let hidden = "public func inString() {"
                public init(name: String,
                            other: Int = 0) { self.name = name }
                package func notListed() {}
                public enum Inner { case a }
            }
            public protocol Shape: Sendable {
                associatedtype Unit
                var area: Double { get }
                func scaled(by factor: Double) -> Self
            }
            public enum Level: Int {
                case low, high
                var hidden: Bool { false }
            }
            extension Outer {
                @discardableResult public static func make() -> Outer { Outer(name: "") }
            }
            struct Internal {
                public var shown: Int
            }
            """#
        let found = PublicAPIScanner.declarations(in: source)
        #expect(found == [
            "public struct Outer: Sendable, Hashable",
            "Outer: public var name: String",
            "Outer: public init(name: String, other: Int = 0)",
            "Outer: public enum Inner",
            "public protocol Shape: Sendable",
            "Shape: associatedtype Unit",
            "Shape: var area: Double",
            "Shape: func scaled(by factor: Double) -> Self",
            "public enum Level: Int",
            "Level: case low, high",
            "Outer: @discardableResult public static func make() -> Outer",
            "Internal: public var shown: Int",
        ])
    }

    static func render(_ modules: [(String, [String])]) throws -> String {
        var text = """
            # Public API

            Every public declaration of the libraries an app links, one per line with the type it belongs to,
            generated from the sources and checked by `Tests/SwitchboardCoreTests/PublicAPITests.swift`: an
            addition shows up here in review. Everything else is `package` (shared between this package's
            modules, its tests and its benchmarks) or internal.

            """
        for (module, declarations) in modules {
            let types = declarations.filter { PublicAPIScanner.declaresType($0) }.count
            text += "\n## \(module) (\(types) public types, \(declarations.count) declarations)\n\n```swift\n"
            text += declarations.sorted().joined(separator: "\n") + "\n```\n"
        }
        return text
    }
}

/// Reads Swift source as text: enough of the grammar to find `public`/`open` declarations and the type
/// or extension each sits in (brackets counted outside strings and comments).
enum PublicAPIScanner {
    static func declarations(inModule module: String, root: URL) throws -> [String] {
        let folder = root.appendingPathComponent("Sources/\(module)")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            found += declarations(in: try String(contentsOf: url, encoding: .utf8))
        }
        return found
    }

    static func declaresType(_ declaration: String) -> Bool {
        declaration.range(of: #"(^|: )(@\w+ )*(public|open) (final )?(struct|class|enum|actor|protocol|typealias) "#,
                          options: .regularExpression) != nil
    }

    static func declarations(in source: String) -> [String] {
        var found: [String] = []
        // `implicit`: what is public without the keyword: a public protocol's requirements, a public enum's cases.
        var contexts: [(name: String, depth: Int, implicit: String?)] = []
        var depth = 0
        var pendingContext: (name: String, implicit: String?)?
        var inBlockComment = false, inMultilineString = false
        var signature: String?
        var parens = 0
        for rawLine in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = stripped(String(rawLine), inBlockComment: &inBlockComment, inMultilineString: &inMultilineString)
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            if signature == nil, let type = typeName(trimmed) {
                // A nested type is named by its path (`Outer.Inner`); an extension names its own.
                let path = type.kind == "extension" ? type.name : (contexts.last.map { "\($0.name)." } ?? "") + type.name
                let implicit = !isPublicDeclaration(trimmed) ? nil
                    : type.kind == "protocol" ? #"^((static|mutating|nonisolated) )*(func|var|init|subscript|associatedtype) "#
                    : type.kind == "enum" ? #"^(indirect )?case "# : nil
                pendingContext = (path, implicit)
            }
            let implicitlyPublic = contexts.last.flatMap { context in
                context.depth == depth ? context.implicit.map { trimmed.range(of: $0, options: .regularExpression) != nil } : nil
            } ?? false
            if signature == nil, isPublicDeclaration(trimmed) || implicitlyPublic {
                signature = ""
                parens = 0
            }
            if var text = signature {
                let cut = bodyStart(trimmed, level: parens)
                text += (text.isEmpty ? "" : " ") + String(trimmed[..<cut]).trimmingCharacters(in: .whitespaces)
                parens += trimmed[..<cut].reduce(0) { $0 + ($1 == "(" || $1 == "[" ? 1 : $1 == ")" || $1 == "]" ? -1 : 0) }
                // A conformance list or a where clause may go on: a line ending in `,` or `&` is not the end.
                let goesOn = cut == trimmed.endIndex && (text.hasSuffix(",") || text.hasSuffix("&"))
                if (parens <= 0 && !goesOn) || cut != trimmed.endIndex {
                    let context = contexts.last.map { "\($0.name): " } ?? ""
                    found.append(context + text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
                        .replacingOccurrences(of: "( ", with: "(").trimmingCharacters(in: .whitespaces))
                    signature = nil
                } else {
                    signature = text
                }
            }
            for character in code {
                if character == "{" {
                    depth += 1
                    if let pending = pendingContext { contexts.append((pending.name, depth, pending.implicit)); pendingContext = nil }
                } else if character == "}" {
                    if contexts.last?.depth == depth { contexts.removeLast() }
                    depth -= 1
                }
            }
        }
        return found
    }

    /// The line without comments and without the contents of string literals.
    private static func stripped(_ line: String, inBlockComment: inout Bool, inMultilineString: inout Bool) -> String {
        var out = ""
        var characters = Array(line)[...]
        var inString = false
        while let c = characters.first {
            let rest = String(characters.prefix(3))
            if inMultilineString {
                if rest == "\"\"\"" { inMultilineString = false; characters = characters.dropFirst(3) } else { characters = characters.dropFirst() }
                continue
            }
            if inBlockComment {
                if rest.hasPrefix("*/") { inBlockComment = false; characters = characters.dropFirst(2) } else { characters = characters.dropFirst() }
                continue
            }
            if inString {
                if c == "\\" { characters = characters.dropFirst(2); continue }
                if c == "\"" { inString = false; out.append("\"") }
                characters = characters.dropFirst()
                continue
            }
            if rest == "\"\"\"" { inMultilineString = true; out += "\"\""; characters = characters.dropFirst(3); continue }
            if rest.hasPrefix("//") { break }
            if rest.hasPrefix("/*") { inBlockComment = true; characters = characters.dropFirst(2); continue }
            if c == "\"" { inString = true }
            out.append(c)
            characters = characters.dropFirst()
        }
        return out
    }

    private static func isPublicDeclaration(_ line: String) -> Bool {
        line.range(of: #"^(@[\w.]+(\([^)]*\))? )*(nonisolated )?(public|open)( |\()"#, options: .regularExpression) != nil
            && !line.hasPrefix("public import") && !line.hasPrefix("@_exported")
    }

    /// The name a type or extension declared on this line gives its members.
    private static func typeName(_ line: String) -> (kind: String, name: String)? {
        let pattern = #"^(@[\w.]+(\([^)]*\))? )*((public|package|private|fileprivate|internal|open|final|indirect|nonisolated) )*"#
            + #"(struct|class|enum|actor|protocol|extension) [\w.]+"#
        guard let range = line.range(of: pattern, options: .regularExpression) else { return nil }
        let words = line[range].split(separator: " ")
        return (String(words[words.count - 2]), String(words[words.count - 1]))
    }

    /// Where a declaration's body (or its where-less `{`) starts; the end of the line when it has none.
    private static func bodyStart(_ line: String, level start: Int) -> String.Index {
        var level = start
        for index in line.indices {
            switch line[index] {
            case "(", "[": level += 1
            case ")", "]": level -= 1
            case "{" where level == 0: return index
            default: continue
            }
        }
        return line.endIndex
    }
}
