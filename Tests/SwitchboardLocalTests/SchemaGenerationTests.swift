import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardInference
@testable import SwitchboardLocal

/// Generation keyword by keyword: each schema is imported, compiled for the decoder, and driven by
/// seeded random walks over a synthetic vocabulary (`SchemaWalk`); every finished document must
/// validate against the schema's own document. Some cases also check what the walks produced.
@Suite struct SchemaGenerationTests {
    /// The documents of `walks` random walks that finished, all checked against the schema.
    static func generate(_ text: String, walks: Int = 40, budget: Int = 160, seed: UInt64 = 7) throws -> [GeneratedContent] {
        let schema = try GenerationSchema(jsonSchema: text)
        let constraint = try schema.compiledConstraint()
        var random = SeededRandom(seed: seed)
        var documents: [GeneratedContent] = []
        for _ in 0..<walks {
            let (document, finished) = SchemaWalk.walk(constraint, budget: budget, random: &random)
            guard finished else { continue }
            do { documents.append(try schema.parseValid(document)) } catch {
                Issue.record("generated \(document) for \(text), which does not validate: \(error)")
            }
        }
        #expect(documents.count >= walks / 2, "only \(documents.count) of \(walks) walks finished for \(text)")
        return documents
    }

    @Test(arguments: [
        #"{"const":"flag"}"#, #"{"enum":[1,"a",null,[true],{"k":2.5}]}"#, #"{"type":"object","properties":{"kind":{"const":"flag"},"n":{"type":"integer"}},"required":["kind","n"]}"#,
        #"{"type":"string","pattern":"^[A-Z]{2}-[0-9]{3}$"}"#, #"{"type":"string","pattern":"ab+c"}"#, #"{"type":"string","pattern":"^(?:x|yz)*$","maxLength":5}"#,
        #"{"type":"string","pattern":"^[^\"\\\\]{2}$"}"#, #"{"type":"string","pattern":"^é+€?$"}"#, #"{"type":"string","minLength":3,"maxLength":4}"#,
        #"{"type":"string","format":"date"}"#, #"{"type":"string","format":"time"}"#, #"{"type":"string","format":"date-time"}"#,
        #"{"type":"string","format":"email"}"#, #"{"type":"string","format":"uuid"}"#, #"{"type":"string","format":"uri"}"#,
        #"{"type":"string","format":"ipv4"}"#, #"{"type":"string","format":"ipv6"}"#,
        #"{"type":"object","additionalProperties":{"type":"integer","minimum":0,"maximum":9},"maxProperties":3}"#,
        #"{"type":"object","additionalProperties":{"type":"boolean"},"minProperties":2}"#,
        #"{"type":"integer","exclusiveMinimum":3,"exclusiveMaximum":9}"#, #"{"type":"number","exclusiveMinimum":0,"maximum":1}"#,
        #"{"type":"integer","multipleOf":7,"minimum":-50,"maximum":50}"#, #"{"type":"number","multipleOf":0.01,"minimum":0,"maximum":5}"#,
        #"{"type":"array","prefixItems":[{"type":"integer"},{"type":"string","maxLength":3}],"items":false,"minItems":2}"#,
        #"{"type":"array","prefixItems":[{"type":"boolean"}],"items":{"type":"null"},"maxItems":3}"#,
        #"{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]}"#,
        #"{"allOf":[{"type":"integer","minimum":0},{"maximum":5},{"multipleOf":1}]}"#,
        #"{"oneOf":[{"type":"string","maxLength":2},{"type":"integer"}]}"#,
        #"{"type":"array","items":{"type":"integer"},"uniqueItems":true}"#, #"{"type":["integer","null"]}"#,
        ##"{"$defs":{"node":{"type":"object","properties":{"v":{"type":"integer","minimum":0,"maximum":9},"kids":{"type":"array","items":{"$ref":"#/$defs/node"},"maxItems":2}},"required":["v","kids"]}},"$ref":"#/$defs/node"}"##,
        ##"{"$defs":{"list":{"anyOf":[{"type":"null"},{"type":"object","properties":{"next":{"$ref":"#/$defs/list"}},"required":["next"]}]}},"$ref":"#/$defs/list"}"##,
        ##"{"$defs":{"a~b":{"type":"boolean"},"c/d":{"$ref":"#/$defs/a~0b"}},"type":"object","properties":{"x":{"$ref":"#/$defs/c~1d"}},"required":["x"]}"##,
        #"{"maxLength":3}"#, #"{"minimum":1,"maximum":3}"#, #"{"properties":{"a":{"type":"boolean"}},"required":["a"]}"#,
    ])
    func generatedDocumentsValidate(schema: String) throws {
        _ = try Self.generate(schema)
    }

    @Test func constantsAndPatternsAreWhatWasAskedFor() throws {
        #expect(try Self.generate(#"{"const":{"a":[1,"x"]}}"#).allSatisfy { $0.jsonText == #"{"a":[1,"x"]}"# })
        let codes = try Self.generate(#"{"type":"string","pattern":"^[A-Z]{2}-[0-9]{3}$"}"#)
        #expect(codes.allSatisfy { $0.stringValue?.count == 6 })
        let counts = try Self.generate(#"{"type":"object","additionalProperties":{"type":"integer"},"minProperties":2}"#, walks: 20)
        #expect(counts.allSatisfy { (($0.objectMembersForTest)?.count ?? 0) >= 2 })
        // A pattern and a format together: what both accept (the format as generated).
        let dates = try Self.generate(#"{"type":"string","format":"date","pattern":"^2024-0[1-3]-"}"#)
        #expect(!dates.isEmpty && dates.allSatisfy { $0.stringValue?.hasPrefix("2024-0") == true })
        let emails = try Self.generate(#"{"type":"string","format":"email","pattern":"^(?!a)(?!.*\\.\\.)[b-z.]+@"}"#)
        #expect(!emails.isEmpty && emails.allSatisfy { $0.stringValue.map { !$0.hasPrefix("a") && !$0.contains("..") } == true })
        let tuples = try Self.generate(#"{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}],"items":false,"minItems":2}"#)
        #expect(tuples.allSatisfy { if case .array(let items) = $0 { items.count == 2 } else { false } })
    }

    @Test(arguments: [
        (#"{"description":"anything"}"#, "no type"), ("true", "allows any value"), ("false", "allows no value"),
        (#"{"type":"object","required":["x"]}"#, "'x' has no schema"),
        (#"{"type":"array","items":{"type":"integer"},"uniqueItems":true,"minItems":2}"#, "uniqueItems"),
        (#"{"type":"number","multipleOf":0.3}"#, "multipleOf"),
        (##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##, "loop"),
        (##"{"$defs":{"t":{"type":"object","properties":{"t":{"$ref":"#/$defs/t"}},"required":["t"]}},"$ref":"#/$defs/t"}"##, "too large"),
        (#"{"type":"string","pattern":"^a$","format":"date"}"#, "format date matches the pattern"),
    ])
    func schemasTooOpenOrUnboundedAreTypedRefusals(schema: String, reason: String) throws {
        let imported = try GenerationSchema(jsonSchema: schema)   // valid JSON Schema: validation works
        do {
            _ = try imported.compiledConstraint()
            Issue.record("\(schema) compiled")
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
        }
    }

    @Test func recursionNestsNoDeeperThanTheBound() throws {
        let schema = try GenerationSchema(jsonSchema: ##"{"$defs":{"l":{"type":"array","items":{"$ref":"#/$defs/l"}}},"$ref":"#/$defs/l"}"##)
        var automaton = JSONAutomaton(try schema.compiledConstraint())
        var depth = 0
        while automaton.feed(UInt8(ascii: "[")) { depth += 1 }
        #expect(depth == JSONAutomaton.maxDepth)
        #expect(automaton.closingCost >= depth)
    }

    @Test func codeBuiltReferencesRecursionConstantsAndMaps() throws {
        let tree = GenerationSchema.object([
            .init("name", .string(maxLength: 6, pattern: "^[a-z]+$")),
            .init("kind", .constant(.string("node"))),
            .init("counts", .dictionary(of: .integer(minimum: 0, maximum: 5), maxProperties: 2)),
            .init("children", .array(of: .reference("Tree"), maxItems: 2)),
        ])
        let root = GenerationSchema.reference("Tree").defining(["Tree": tree])
        #expect(try GenerationSchema(jsonSchema: root.jsonSchemaText).definitions.count == 1)
        var random = SeededRandom(seed: 3)
        let constraint = try root.compiledConstraint()
        var finished = 0
        for _ in 0..<30 {
            let (text, done) = SchemaWalk.walk(constraint, budget: 300, random: &random)
            guard done else { continue }
            finished += 1
            #expect((try? root.parseValid(text)) != nil, "\(text)")
        }
        #expect(finished >= 15)
        #expect(throws: StructuredOutputError.self) { try root.parseValid(#"{"name":"a","kind":"leaf","counts":{},"children":[]}"#) }
    }
}

extension GeneratedContent {
    var objectMembersForTest: [(key: String, value: GeneratedContent)]? { if case .object(let m) = self { m } else { nil } }
}

/// The `Generable` example of the documentation: a recursive type with a constant, a pattern, a
/// format and a dictionary, generated by random walks and decoded into the Swift type.
struct Folder: Generable {
    var kind: String
    var name: String
    var created: String
    var sizes: [String: Int]
    var children: [Folder]
    static let generationSchema = GenerationSchema.reference("Folder").defining(["Folder": .object([
        .init("kind", .constant(.string("folder"))),
        .init("name", .string(maxLength: 40, pattern: "^[A-Za-z0-9 _-]+$")),
        .init("created", .string(format: .date)),
        .init("sizes", .dictionary(of: .integer(minimum: 0), maxProperties: 8)),
        .init("children", .array(of: .reference("Folder"), maxItems: 4)),
    ])])
}

@Suite struct GenerableRecursiveTests {
    @Test func recursiveGenerableTypesDecodeFromGeneratedDocuments() throws {
        let constraint = try Folder.generationSchema.compiledConstraint()
        var random = SeededRandom(seed: 11)
        var decoded = 0
        for _ in 0..<20 {
            let (text, finished) = SchemaWalk.walk(constraint, budget: 400, random: &random)
            guard finished else { continue }
            let folder = try Folder.decode(generated: text)
            #expect(folder.kind == "folder")
            decoded += 1
        }
        #expect(decoded >= 10)
        #expect(throws: StructuredOutputError.self) {
            try Folder.decode(generated: #"{"kind":"folder","name":"a/b","created":"2024-01-01","sizes":{},"children":[]}"#)
        }
    }
}
