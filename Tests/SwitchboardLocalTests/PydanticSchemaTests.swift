import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardInference
@testable import SwitchboardLocal

/// The JSON Schemas Pydantic 2 generates for 31 ordinary models (`Tests/Fixtures/schemas`, written by
/// its `generate.py`): nested models by `$ref`, recursion, optional fields, `Literal`, enums, dicts,
/// dates and times, constrained strings and numbers. Every one is imported, compiles for the decoder,
/// and every document random walks produce under it validates.
@Suite struct PydanticSchemaTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/schemas")

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasPrefix("pydantic-") && $0.hasSuffix(".json") }.sorted()

    @Test func thereAreAtLeastThirtySchemas() { #expect(Self.files.count >= 30) }

    @Test(arguments: files)
    func everySchemaIsAcceptedAndGeneratesValidDocuments(file: String) throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
        let schema = try GenerationSchema(jsonSchema: text)
        let constraint = try schema.compiledConstraint()
        var random = SeededRandom(seed: UInt64(truncatingIfNeeded: file.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        var finished = 0
        for _ in 0..<25 {
            let (document, done) = SchemaWalk.walk(constraint, budget: 400, random: &random)
            guard done else { continue }
            finished += 1
            #expect((try? schema.parseValid(document)) != nil, "\(file): \(document)")
        }
        #expect(finished >= 10, "\(file): \(finished) of 25 walks finished")
    }
}
