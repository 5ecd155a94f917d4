import Testing
import SwitchboardCore
@testable import SwitchboardFoundationModels

@Suite("Foundation Models schema mapping")
struct SchemaMappingTests {
    @Test("Every construct the framework can express maps to its DynamicGenerationSchema initializer")
    func supportedConstructs() throws {
        let schema = GenerationSchema.object([
            .init("name", .string(description: "full name")),
            .init("mood", .string(enum: ["happy", "sad"])),
            .init("code", .string(pattern: "^[A-Z]{3}$")),
            .init("age", .integer(minimum: 0, maximum: 150)),
            .init("score", .number(minimum: -1.5, maximum: 1.5)),
            .init("ok", .boolean()),
            .init("tags", .array(of: .string(), minItems: 1, maxItems: 5)),
            .init("kind", .constant(.string("fixed"))),
            .init("unit", .oneOf(values: [.string("cm"), .string("in")])),
            .init("either", .anyOf([.integer(), .boolean()])),
            .optional("nickname", .string()),
            .optional("middle", .nullable(.string())),
            .init("next", .reference("Node")),
        ], description: "a person").defining(["Node": .object([.init("value", .integer())])])
        let set = try DynamicSchemaSet(schema)
        guard case .object(let name, let description, let properties) = set.root else { Issue.record("root: \(set.root)"); return }
        #expect(name == "Root" && description == "a person")
        let byName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0) })
        #expect(properties.map(\.name) == ["name", "mood", "code", "age", "score", "ok", "tags", "kind", "unit", "either",
                                           "nickname", "middle", "next"])
        #expect(byName["name"]?.schema == .string(pattern: nil) && byName["name"]?.description == "full name")
        #expect(byName["mood"]?.schema == .stringChoices(name: "Root.mood", description: nil, choices: ["happy", "sad"]))
        #expect(byName["code"]?.schema == .string(pattern: "^[A-Z]{3}$"))
        #expect(byName["age"]?.schema == .integer(minimum: 0, maximum: 150))
        #expect(byName["score"]?.schema == .number(minimum: -1.5, maximum: 1.5))
        #expect(byName["ok"]?.schema == .boolean)
        #expect(byName["tags"]?.schema == .array(of: .string(pattern: nil), minimumElements: 1, maximumElements: 5))
        #expect(byName["kind"]?.schema == .stringChoices(name: "Root.kind", description: nil, choices: ["fixed"]))
        #expect(byName["unit"]?.schema == .stringChoices(name: "Root.unit", description: nil, choices: ["cm", "in"]))
        #expect(byName["either"]?.schema == .anyOf(name: "Root.either", description: nil,
                                                   choices: [.integer(minimum: nil, maximum: nil), .boolean]))
        #expect(byName["nickname"]?.isOptional == true && byName["name"]?.isOptional == false)
        // An optional nullable property: optional, of the non-null type (the framework leaves it out).
        #expect(byName["middle"]?.schema == .string(pattern: nil) && byName["middle"]?.isOptional == true)
        #expect(byName["next"]?.schema == .reference("Node"))
        #expect(set.dependencies == [.object(name: "Node", description: nil, properties: [
            .init(name: "value", description: nil, schema: .integer(minimum: nil, maximum: nil), isOptional: false)])])
    }

    @Test("A recursive definition and a definition reached only through another are both dependencies, once")
    func recursiveDefinitions() throws {
        let schema = GenerationSchema.reference("Tree").defining([
            "Tree": .object([.init("leaf", .reference("Leaf")), .optional("children", .array(of: .reference("Tree")))]),
            "Leaf": .object([.init("label", .string())]),
            "Unused": .object([.init("x", .boolean())]),
        ])
        let set = try DynamicSchemaSet(schema)
        #expect(set.root == .reference("Tree"))
        #expect(set.dependencies.compactMap(\.name) == ["Tree", "Leaf"])  // in the order reached
    }

    @Test("An imported JSON Schema document maps the same way")
    func importedDocument() throws {
        let text = #"{"type":"object","properties":{"city":{"type":"string"},"pop":{"type":"integer","minimum":0}},"required":["city","pop"]}"#
        let set = try DynamicSchemaSet(try GenerationSchema(jsonSchema: text))
        guard case .object(_, _, let properties) = set.root else { Issue.record("root: \(set.root)"); return }
        #expect(properties.map(\.name) == ["city", "pop"])
        #expect(properties.map(\.schema) == [.string(pattern: nil), .integer(minimum: 0, maximum: nil)])
    }

    static let refusedSchemas: [(String, GenerationSchema, String)] = [
        ("dictionary", .object([.init("m", .dictionary(of: .string()))]), "$.m"),
        ("tuple", .tuple([.string(), .integer()]), "$"),
        ("string length", .object([.init("s", .string(minLength: 2))]), "$.s"),
        ("string maxLength", .string(maxLength: 9), "$"),
        ("format", .string(format: .dateTime), "$"),
        ("multipleOf", .integer(multipleOf: 5), "$"),
        ("number constant", .constant(.number("3")), "$"),
        ("null root", .null, "$"),
        ("required nullable", .object([.init("n", .nullable(.integer()))]), "$.n"),
        ("open", .any, "$"),
        ("empty anyOf", .anyOf([]), "$"),
        ("empty enum", .string(enum: []), "$"),
        ("inverted range", .integer(minimum: 5, maximum: 1), "$"),
        ("inverted items", .array(of: .boolean(), minItems: 4, maxItems: 2), "$"),
        ("infinite bound", .number(maximum: .infinity), "$"),
        ("dangling reference", .reference("Missing"), "$"),
        ("unnamed definition", .reference("S").defining(["S": .string()]), "S"),
        ("duplicate property", .object([.init("a", .boolean()), .init("a", .integer())]), "$"),
    ]

    @Test("What the framework cannot express is a typed unsupportedSchema naming where", arguments: 0..<refusedSchemas.count)
    func refusals(index: Int) {
        let (label, schema, path) = Self.refusedSchemas[index]
        #expect(throws: StructuredOutputError.self, "\(label)") { try DynamicSchemaSet(schema) }
        do { _ = try DynamicSchemaSet(schema); Issue.record("\(label) was accepted") } catch {
            guard case .unsupportedSchema(let where_, _) = error else { Issue.record("\(label): \(error)"); return }
            #expect(where_ == path, "\(label)")
        }
    }

    @Test("A schema nested deeper than the limit is refused, not walked")
    func depthLimit() {
        var schema = GenerationSchema.boolean()
        for _ in 0..<100 { schema = .array(of: schema) }
        #expect(throws: StructuredOutputError.self) { try DynamicSchemaSet(schema) }
    }

    @Test("The provider turns a refused schema into invalidRequest, which the router answers by falling back")
    func refusalFallsBack() async {
        let model = ScriptedSystemModel(pieces: ["{}"])
        let provider = FoundationModelsProvider(id: "fm", model: model)
        var request = GenerationRequest(prompt: "map")
        request.output = .schema(.object([.init("m", .dictionary(of: .string()))]))
        let result = await provider.prepare(ProviderRequest(request: request, analysis: RequestAnalysis(privacy: .public)))
        guard case .failure(let error) = result, case .invalidRequest = error else { Issue.record("\(result)"); return }
        #expect(error.classification == .fallbackOnly)
        #expect(model.calls.isEmpty)
    }
}
