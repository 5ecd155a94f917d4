import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote

/// The schema keywords of issue 30 in each API's request: OpenAI strict mode keeps `$defs`/`$ref`
/// (recursion included), `const`, `pattern` and its formats, closing every object; what strict mode
/// rejects goes non-strict (validated after the reply); Gemini gets references inlined and refuses
/// a recursive schema before sending.
@Suite struct SchemaWireExportTests {
    static let tree = ##"""
        {"$defs":{"Node":{"type":"object","properties":{"value":{"type":"integer"},"kind":{"const":"node"},
         "children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["value","kind","children"]}},
         "type":"object","properties":{"root":{"$ref":"#/$defs/Node"},"day":{"type":"string","format":"date"},
         "code":{"type":"string","pattern":"^[A-Z]{3}$"}},"required":["root","day","code"]}
        """##

    static func json(_ text: String) throws -> JSONValue { try JSONValue.decode(Data(text.utf8)) }

    @Test func openAIStrictModeKeepsReferencesAndClosesDefinitions() throws {
        let strict = try #require(OpenAIWireFormat.strictSchema(try Self.json(Self.tree)))
        #expect(strict["additionalProperties"] == false)
        #expect(strict["$defs"]?["Node"]?["additionalProperties"] == false)
        #expect(strict["$defs"]?["Node"]?["properties"]?["children"]?["items"]?["$ref"] == "#/$defs/Node")
        #expect(strict["properties"]?["code"]?["pattern"] == "^[A-Z]{3}$")
    }

    @Test(arguments: [
        #"{"type":"object","properties":{"a":{"type":"string","format":"uri"}},"required":["a"]}"#,
        #"{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"integer"}]}},"required":["a"]}"#,
        #"{"type":"object","properties":{"a":{"allOf":[{"type":"integer"}]}},"required":["a"]}"#,
        #"{"type":"object","additionalProperties":{"type":"integer"}}"#,
        ##"{"$defs":{"x":{"type":"object","properties":{"a":{"type":"integer"}}}},"type":"object","properties":{"b":{"$ref":"#/$defs/x"}},"required":["b"]}"##,
    ])
    func whatStrictModeRejectsGoesNonStrict(schema: String) throws {
        #expect(OpenAIWireFormat.strictSchema(try Self.json(schema)) == nil)
    }

    @Test func geminiInlinesReferencesAndRefusesRecursion() throws {
        let nested = try GenerationSchema(jsonSchema: ##"""
            {"$defs":{"A":{"type":"object","properties":{"city":{"type":"string","format":"date-time"}},"required":["city"]}},
             "type":"object","properties":{"home":{"$ref":"#/$defs/A"},"kind":{"const":"x"}},"required":["home","kind"]}
            """##)
        let converted = try GeminiWireFormat.responseSchema(nested)
        #expect(converted["properties"]?["home"]?["properties"]?["city"]?["format"] == "date-time")
        #expect(converted["properties"]?["kind"]?["enum"] == ["x"])
        let recursive = try GenerationSchema(jsonSchema: Self.tree)
        #expect(throws: ProviderError.self) { try GeminiWireFormat.responseSchema(recursive) }
    }
}
