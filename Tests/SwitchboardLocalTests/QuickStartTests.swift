import Foundation
import Testing
@testable import SwitchboardLocal

/// The README quick start is `QuickStart.swift`, and it runs.
@Suite("README quick start")
struct QuickStartTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A quick start as the README would print it: the imports, then the body dedented.
    static func code(_ file: String = "QuickStart.swift", marker: String = "QUICK START") throws -> String {
        let source = try String(contentsOf: root.appendingPathComponent("Tests/SwitchboardLocalTests/\(file)"), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let imports = lines.prefix { $0.hasPrefix("import ") }
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// BEGIN \(marker)") }),
              let end = lines.firstIndex(where: { $0.hasSuffix("// END \(marker)") }) else { return "" }
        let body = lines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
        return (imports + [""] + body).joined(separator: "\n")
    }

    @Test("README.md prints the tested quick start, character for character")
    func readmeShowsTheTestedCode() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let code = try Self.code()
        #expect(code.contains("LocalModelProvider(model: .smolLM2)"))
        #expect(readme.contains("```swift\n" + code + "\n```"), "README.md's quick start differs from Tests/SwitchboardLocalTests/QuickStart.swift")
        let session = try Self.code("QuickStartSession.swift", marker: "SESSION QUICK START")
        #expect(session.contains("tools: [Weather()]"))
        #expect(readme.contains("```swift\n" + session + "\n```"),
                "README.md's session quick start differs from Tests/SwitchboardLocalTests/QuickStartSession.swift")
    }

    @Test("the session quick start answers on device", .enabled(if: RealModel.chatEnabled, RealModel.chatSkipReason))
    func sessionQuickStartRuns() async throws {
        let printed = try await QuickStartOutput.capture { try await readmeSessionQuickStart() }
        // The typed answer's two fields, then the session's answer after the tool's result.
        #expect(printed.count == 2, "\(printed)")
        #expect(printed.allSatisfy { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }, "\(printed)")
    }

    @Test("the quick start answers on device", .enabled(if: RealModel.chatEnabled, RealModel.chatSkipReason))
    func quickStartRuns() async throws {
        // The quick start reads the registry's folder; the test command stores the models there.
        #expect(FileManager.default.fileExists(atPath: ModelRegistry.default.path(for: .smolLM2_135mInstruct)))
        let printed = try await QuickStartOutput.capture { try await readmeQuickStart() }
        #expect(printed.count == 1 && printed[0].contains("Paris"), "the quick start answered \(printed)")
    }
}
