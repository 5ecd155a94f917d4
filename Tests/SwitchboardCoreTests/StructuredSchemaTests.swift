import Testing
import SwitchboardCore

@Suite struct StructuredSchemaTests {
    static let contact = GenerationSchema.object([
        .init("name", .string(description: "full name", maxLength: 40)),
        .optional("age", .integer(minimum: 0, maximum: 150)),
        .init("tags", .array(of: .string(enum: ["friend", "work"]), minItems: 1, maxItems: 2)),
        .init("score", .nullable(.number(minimum: -1, maximum: 1))),
    ])

    @Test func exportThenImportGivesTheSameSchemaInOrder() throws {
        let imported = try GenerationSchema(jsonSchema: Self.contact.jsonSchemaText)
        #expect(imported == Self.contact)
        guard case .object(let properties) = imported.kind else { Issue.record("not an object"); return }
        #expect(properties.map(\.name) == ["name", "age", "tags", "score"])
    }

    @Test func importReadsTypeListsNullableEnumsAndDescriptions() throws {
        let schema = try GenerationSchema(jsonSchema: """
            {"type":"object","properties":{"b":{"type":["integer","null"]},"a":{"enum":["x","y"],"description":"pick"}},"required":["a"]}
            """)
        #expect(schema == .object([
            .optional("b", .anyOf([.integer(), .null])),
            .init("a", .string(description: "pick", enum: ["x", "y"])),
        ]))
    }

    @Test(arguments: [
        (#"{"type":"string","pattern":"(a)\\1"}"#, "#/pattern"),
        (#"{"type":"string","pattern":"a(?=b)"}"#, "#/pattern"),
        (#"{"type":"string","pattern":"[a"}"#, "#/pattern"),
        (##"{"$ref":"#/defs/x"}"##, "#/$ref"),
        (#"{"$ref":"https://example.com/s.json"}"#, "#/$ref"),
        (#"{"properties":{"a":{"if":{"type":"string"}}}}"#, "#/properties/a/if"),
        (#"{"type":"date"}"#, "#/type"),
    ])
    func importNamesWhatItCannotExpress(document: String, path: String) {
        #expect(throws: StructuredOutputError.self) { try GenerationSchema(jsonSchema: document) }
        do { _ = try GenerationSchema(jsonSchema: document) } catch {
            guard case .unsupportedSchema(let at, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(at == path)
        }
    }

    @Test func importRefusesContradictionsAndNonObjects() {
        #expect(throws: StructuredOutputError.self) { try GenerationSchema(jsonSchema: #"{"type":"integer","minimum":5,"maximum":1}"#) }
        #expect(throws: StructuredOutputError.self) { try GenerationSchema(jsonSchema: #"{"type":"integer","minimum":"5"}"#) }
        #expect(throws: StructuredOutputError.self) { try GenerationSchema(jsonSchema: "[1]") }
        #expect(throws: StructuredOutputError.self) { try GenerationSchema(jsonSchema: "{nope") }
    }

    @Test(arguments: [
        (#"{"name":"Ann","tags":["work"],"score":null}"#, true),
        (#"{"name":"Ann","age":30,"tags":["friend","work"],"score":0.5}"#, true),
        (#"{"name":"Ann","tags":[],"score":null}"#, false),
        (#"{"name":"Ann","tags":["boss"],"score":null}"#, false),
        (#"{"name":"Ann","age":1.5,"tags":["work"],"score":null}"#, false),
        (#"{"name":"Ann","age":200,"tags":["work"],"score":null}"#, false),
        (#"{"name":"Ann","tags":["work"]}"#, false),
        (#"{"name":"Ann","tags":["work"],"score":null,"extra":1}"#, false),
        (#"{"name":"Ann","tags":["work"],"score":2}"#, false),
        (#"{"name":"Ann","tags":["work"],"score":null"#, false),
    ])
    func validation(document: String, valid: Bool) {
        #expect(((try? Self.contact.parseValid(document)) != nil) == valid)
    }

    @Test func partialJSONKeepsWhatWasWritten() {
        #expect(GeneratedContent.partial(json: #"{"title":"Par"#) == .object([("title", .string("Par"))]))
        #expect(GeneratedContent.partial(json: #"{"a":[1,2"#) == .object([("a", .array([.number("1"), .number("2")]))]))
        #expect(GeneratedContent.partial(json: #"{"a":1,"b"#) == .object([("a", .number("1"))]))
        #expect(GeneratedContent.partial(json: #"{"a":tr"#) == .object([]))
        #expect(GeneratedContent.partial(json: "") == nil)
    }

    @Test func samplesDecodeFromValidJSONAndRefuseInvalid() throws {
        let summary = try Summary.decode(generated: #"{"title":"Park","keyPoints":["Approved"],"summary":"A park."}"#)
        #expect(summary == Summary(title: "Park", keyPoints: ["Approved"], summary: "A park."))
        let entities = try ExtractedEntities.decode(generated: #"{"people":["Tim Cook"],"places":[],"organizations":["Apple"],"concepts":[]}"#)
        #expect(entities.people == ["Tim Cook"] && entities.organizations == ["Apple"])
        #expect(throws: StructuredOutputError.self) { try Summary.decode(generated: #"{"title":"Park","keyPoints":[],"summary":"x"}"#) }
    }

    @Test func quotingEscapesWhatJSONRequires() throws {
        let text = GeneratedContent.object([("k", .string("a\"b\\c\n\u{1}"))]).jsonText
        #expect(try GeneratedContent(json: text) == .object([("k", .string("a\"b\\c\n\u{1}"))]))
    }
}
