import Foundation
import Testing
@testable import SwitchboardCore

/// Validation keyword by keyword, from the JSON Schema 2020-12 specification (Validation §6, Core
/// §10 and §8.2.3): each case is a schema, an instance and whether the instance is valid.
@Suite struct SchemaKeywordTests {
    static func valid(_ schema: String, _ instance: String) throws -> Bool {
        let compiled = try GenerationSchema(jsonSchema: schema)
        return (try? compiled.parseValid(instance)) != nil
    }

    @Test(arguments: [
        // A keyword constrains only values of its type (§7.6.1 of Core: assertions are type-specific).
        (#"{"maxLength":2}"#, "5", true), (#"{"maxLength":2}"#, #""abc""#, false), (#"{"minimum":3}"#, #""x""#, true),
        (#"{"properties":{"a":{"type":"string"}}}"#, "[1]", true), (#"{"required":["a"]}"#, "12", true),
        (#"{"required":["a"]}"#, "{}", false), (#"{"items":{"type":"string"}}"#, #"{"0":1}"#, true),
        // type: integer is a number with no fraction (1.0 is an integer); lists of types.
        (#"{"type":"integer"}"#, "1.0", true), (#"{"type":"integer"}"#, "1.5", false), (#"{"type":"integer"}"#, "1e2", true),
        (#"{"type":"number"}"#, "1", true), (#"{"type":["string","null"]}"#, "null", true), (#"{"type":["string","null"]}"#, "1", false),
        (#"{"type":"object"}"#, "[]", false), (#"{"type":"array"}"#, "{}", false), (#"{"type":"boolean"}"#, "0", false),
        // Boolean schemas.
        ("true", #"{"a":[1,null]}"#, true), ("false", "null", false), (#"{"properties":{"a":false}}"#, #"{"a":1}"#, false),
        (#"{"properties":{"a":false}}"#, #"{"b":1}"#, true),
        // const and enum: any JSON values, compared as JSON (1 == 1.0; members in any order).
        (#"{"const":1}"#, "1.0", true), (#"{"const":{"a":1,"b":2}}"#, #"{"b":2,"a":1}"#, true), (#"{"const":[1,2]}"#, "[2,1]", false),
        (#"{"const":null}"#, "false", false), (#"{"const":"flag"}"#, #""flag""#, true),
        (#"{"enum":[1,"a",null,[true]]}"#, "[true]", true), (#"{"enum":[1,"a",null]}"#, "false", false), (#"{"enum":[0]}"#, "-0.0", true),
        // properties, additionalProperties (false or a schema), min/maxProperties.
        (#"{"properties":{"a":{"type":"integer"}},"additionalProperties":false}"#, #"{"a":1,"b":2}"#, false),
        (#"{"properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"string"}}"#, #"{"a":1,"b":"x"}"#, true),
        (#"{"properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"string"}}"#, #"{"a":1,"b":2}"#, false),
        (#"{"type":"object","additionalProperties":{"type":"integer"}}"#, #"{"x":1,"y":2}"#, true),
        (#"{"type":"object","additionalProperties":{"type":"integer"}}"#, #"{"x":"1"}"#, false),
        (#"{"minProperties":2}"#, #"{"a":1}"#, false), (#"{"maxProperties":1}"#, #"{"a":1,"b":2}"#, false), (#"{"maxProperties":1}"#, "[1,2]", true),
        // items, prefixItems (items after them), min/maxItems, uniqueItems (JSON equality).
        (#"{"prefixItems":[{"type":"integer"},{"type":"string"}]}"#, #"[1,"a",null]"#, true),
        (#"{"prefixItems":[{"type":"integer"}],"items":false}"#, "[1,2]", false),
        (#"{"prefixItems":[{"type":"integer"}],"items":{"type":"string"}}"#, #"[1,"x","y"]"#, true),
        (#"{"prefixItems":[{"type":"integer"}],"items":{"type":"string"}}"#, "[1,2]", false),
        (#"{"prefixItems":[{"type":"integer"}]}"#, "[]", true), (#"{"minItems":2}"#, "[1]", false), (#"{"maxItems":1}"#, "[1,2]", false),
        (#"{"uniqueItems":true}"#, "[1,1.0]", false), (#"{"uniqueItems":true}"#, #"[{"a":1,"b":2},{"b":2,"a":1}]"#, false),
        (#"{"uniqueItems":true}"#, "[1,true]", true), (#"{"uniqueItems":true}"#, "[[1],[2]]", true), (#"{"uniqueItems":false}"#, "[1,1]", true),
        // Lengths count Unicode code points (a surrogate pair in UTF-16 is one).
        (#"{"minLength":2}"#, #""💩""#, false), (#"{"maxLength":2}"#, #""💩💩""#, true), (#"{"minLength":1}"#, #""""#, false),
        (#"{"maxLength":1}"#, #""é""#, true),
        // Bounds, exclusive bounds, multipleOf (exact decimals).
        (#"{"minimum":1.1}"#, "1.1", true), (#"{"exclusiveMinimum":1.1}"#, "1.1", false), (#"{"exclusiveMaximum":3}"#, "2.9999", true),
        (#"{"maximum":-1e300}"#, "-1e301", true), (#"{"minimum":1e19}"#, "9223372036854775807", false),
        (#"{"minimum":1e19}"#, "1e20", true), (#"{"multipleOf":0.0001}"#, "0.0075", true), (#"{"multipleOf":0.01}"#, "19.99", true),
        (#"{"multipleOf":0.01}"#, "0.015", false), (#"{"multipleOf":2}"#, "10", true), (#"{"multipleOf":2}"#, "7", false),
        (#"{"type":"integer","multipleOf":0.123456789}"#, "1e308", false), (#"{"multipleOf":1.5}"#, "4.5", true),
        // Applicators: anyOf, oneOf (exactly one), allOf, not.
        (#"{"anyOf":[{"type":"integer"},{"minimum":2}]}"#, "1.5", false), (#"{"anyOf":[{"type":"integer"},{"minimum":2}]}"#, "3", true),
        (#"{"oneOf":[{"type":"integer"},{"minimum":2}]}"#, "3", false), (#"{"oneOf":[{"type":"integer"},{"minimum":2}]}"#, "2.5", true),
        (#"{"oneOf":[{"type":"integer"},{"minimum":2}]}"#, "1", true), (#"{"allOf":[{"type":"integer"},{"minimum":2}]}"#, "1", false),
        (#"{"not":{"type":"string"}}"#, "1", true), (#"{"not":{"type":"string"}}"#, #""a""#, false), (#"{"not":true}"#, "1", false),
    ])
    func keyword(schema: String, instance: String, expected: Bool) throws {
        #expect(try Self.valid(schema, instance) == expected, "\(schema) with \(instance)")
    }

    @Test(arguments: [
        // Local references: $defs, definitions, JSON-pointer escapes (~0 ~1) and percent-encoding, recursion.
        (##"{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}"##, #"{"a":"x"}"#, false),
        (##"{"definitions":{"n":{"type":"integer"}},"items":{"$ref":"#/definitions/n"}}"##, "[1,2]", true),
        (##"{"$defs":{"a/b":{"type":"integer"},"c~d":{"type":"string"}},"prefixItems":[{"$ref":"#/$defs/a~1b"},{"$ref":"#/$defs/c~0d"}]}"##,
         #"[1,"x"]"#, true),
        (##"{"$defs":{"a%b":{"type":"integer"}},"items":{"$ref":"#/$defs/a%25b"}}"##, #"["x"]"#, false),
        (##"{"$defs":{"t":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}},"required":["v"]}},"$ref":"#/$defs/t"}"##,
         #"{"v":1,"kids":[{"v":2,"kids":[{"v":3}]}]}"#, true),
        (##"{"$defs":{"t":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}},"required":["v"]}},"$ref":"#/$defs/t"}"##,
         #"{"v":1,"kids":[{"v":2,"kids":[{"w":3}]}]}"#, false),
        (##"{"properties":{"a":{"type":"integer"},"b":{"$ref":"#/properties/a"}}}"##, #"{"b":1.5}"#, false),
        (##"{"$ref":"#/$defs/a","$defs":{"a":{"minimum":2}},"maximum":3}"##, "4", false),
    ])
    func references(schema: String, instance: String, expected: Bool) throws {
        #expect(try Self.valid(schema, instance) == expected, "\(schema) with \(instance)")
    }

    @Test func aReferenceCycleIsATypedErrorNotAHang() throws {
        let schema = try GenerationSchema(jsonSchema: ##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##)
        #expect(throws: StructuredOutputError.self) { try schema.parseValid("1") }
    }

    @Test(arguments: [
        // pattern is a search (unanchored unless anchored), in the ECMA-262 subset.
        ("^a", "abc", true), ("^a", "bac", false), ("b", "abc", true), ("c$", "abc", true), ("c$", "cab", false),
        ("^[A-Z]{2}-\\\\d{3}$", "AB-123", true), ("^[A-Z]{2}-\\\\d{3}$", "AB-1234", false), ("^(?:cat|dog)s?$", "dogs", true),
        ("^(?:cat|dog)s?$", "cow", false), ("^[^0-9]+$", "abc", true), ("^[^0-9]+$", "ab1", false), ("^\\\\w+@\\\\w+$", "a@b", true),
        ("^\\\\s*$", " \\t", true), ("^a{2,3}$", "aaaa", false), ("^a{2,}$", "aaaa", true), ("^a+?b*?$", "aab", true),
        ("^\\\\S+$", "a b", false), ("^.$", "\\n", false), ("^.$", "é", true), ("^(?<year>\\\\d{4})$", "2024", true),
        ("^[\\\\-+]?\\\\d$", "-1", true), ("^\\\\u00e9$", "é", true), ("^\\\\D\\\\W$", "a!", true), ("x{,2}", "x{,2}", true),
        ("^$", "", true), ("^a|b$", "ab", true), ("^a|b$", "ca", false),
    ])
    func pattern(pattern: String, text: String, expected: Bool) throws {
        let schema = #"{"type":"string","pattern":"\#(pattern)"}"#
        #expect(try Self.valid(schema, GeneratedContent.quoted(text.replacingOccurrences(of: "\\t", with: "\t")
            .replacingOccurrences(of: "\\n", with: "\n"))) == expected, "\(pattern) on \(text)")
    }

    @Test(arguments: [
        ("date", "2024-02-29", true), ("date", "2023-02-29", false), ("date", "2024-04-31", false), ("date", "2024-13-01", false),
        ("date", "24-01-01", false), ("time", "23:59:60Z", true), ("time", "12:00:60Z", false), ("time", "08:30:00.123+02:00", true),
        ("time", "08:30", false), ("time", "24:00:00Z", false), ("date-time", "2024-01-31T10:00:00Z", true),
        ("date-time", "2024-01-31 10:00:00Z", false), ("email", "ann.lee+x@example.co.uk", true), ("email", "ann..lee@x.com", false),
        ("email", "no-at-sign", false), ("uuid", "123e4567-e89b-12d3-a456-426614174000", true), ("uuid", "123e4567e89b12d3a456426614174000", false),
        ("uri", "https://example.com/a?b=c#d", true), ("uri", "/relative/path", false), ("uri", "https://exa mple.com", false),
        ("ipv4", "192.168.0.1", true), ("ipv4", "256.1.1.1", false), ("ipv4", "01.1.1.1", false), ("ipv6", "::1", true),
        ("ipv6", "2001:db8::8a2e:370:7334", true), ("ipv6", "::ffff:192.168.0.1", true), ("ipv6", "1::2::3", false), ("ipv6", "12345::", false),
        ("hostname", "anything at all", true),   // an annotation only: not asserted
    ])
    func format(format: String, text: String, expected: Bool) throws {
        #expect(try Self.valid(#"{"type":"string","format":"\#(format)"}"#, GeneratedContent.quoted(text)) == expected, "\(format): \(text)")
    }

    @Test func formatPatternsCompileAndTheirGenerationPatternsToo() throws {
        let validation = SchemaFormat.validation
        #expect(validation.email != nil && validation.uuid != nil && validation.uri != nil && validation.ipv4 != nil)
        for format in SchemaFormat.allCases { _ = try SchemaRegex(format.generationPattern) }
    }

    @Test func exactNumbersDecideBoundsAndMultiples() {
        let big = JSONDecimal("123456789012345678901234567890")!
        #expect(big < JSONDecimal("123456789012345678901234567891")!)
        #expect(JSONDecimal("1e400")!.isMultiple(of: JSONDecimal("0.5")!))
        #expect(JSONDecimal("-0.0") == JSONDecimal("0"))
        #expect(JSONDecimal("1e99999999999999999999") != nil)
        #expect(JSONDecimal("1.") == nil && JSONDecimal("") == nil)
    }
}
