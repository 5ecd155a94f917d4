import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardInference
@testable import SwitchboardLocal

/// Hostile and random JSON Schemas through the importer, the grammar compiler, the automaton and the
/// validator: every outcome is a value or a typed error, never a trap or a hang (issue 24).
@Suite struct SchemaFuzzTests {
    /// The schema traps issue 24 found, each now a typed error or a schema that works.
    @Test(arguments: [
        // 7 levels of minItems 4096: the smallest document would be 4096^7 bytes.
        String(repeating: #"{"type":"array","minItems":4096,"items":"#, count: 7) + #"{"type":"integer"}"# + String(repeating: "}", count: 7),
        // Two 5-level arrays in one object.
        #"{"type":"object","required":["a","b"],"properties":{"a":"# + String(repeating: #"{"type":"array","minItems":4096,"items":"#, count: 5)
            + #"{"type":"boolean"}"# + String(repeating: "}", count: 5) + #","b":"#
            + String(repeating: #"{"type":"array","minItems":4096,"items":"#, count: 5) + #"{"type":"boolean"}"# + String(repeating: "}",
                count: 5) + "}}",
        #"{"type":"integer","maximum":-1e300}"#,
        #"{"type":"integer","minimum":1e19}"#,
        #"{"type":"number","maximum":-1e300}"#,
        #"{"type":"number","minimum":1e19}"#,
        #"{"type":"integer","minimum":-1e300,"maximum":1e300}"#,
        #"{"type":"array","items":{"type":"string"},"minItems":9223372036854775807}"#,
        #"{"type":"string","maxLength":1e300}"#,
    ])
    func issue24SchemasAreTypedErrors(schema: String) {
        #expect(Self.survives(schema, random: SeededRandom(seed: 24)) != .trapped)
    }

    @Test func nestedMinItemsBeyondAnyBudgetAreRefusedForGeneration() throws {
        let text = String(repeating: #"{"type":"array","minItems":4096,"items":"#, count: 7) + #"{"type":"integer"}"# + String(repeating: "}",
            count: 7)
        let schema = try GenerationSchema(jsonSchema: text)
        #expect(throws: ConstraintError.self) { try JSONConstraint(schema.grammar) }
    }

    /// Random and extreme schemas for a bounded time (seeded; the iteration count is printed).
    @Test func randomSchemasNeverTrap() {
        var random = SeededRandom(seed: 0x5C4E_4D41)
        let deadline = Date().addingTimeInterval(3)
        var iterations = 0, imported = 0, compiled = 0, walked = 0
        while Date() < deadline {
            let text = Self.randomSchema(depth: 0, random: &random).jsonText
            switch Self.survives(text, random: random) {
            case .refusedOnImport: break
            case .refusedOnCompile: imported += 1
            case .walked: imported += 1; compiled += 1; walked += 1
            case .compiled: imported += 1; compiled += 1
            case .trapped: Issue.record("unexpected outcome for \(text)")
            }
            _ = random.next()
            iterations += 1
        }
        print("schema fuzz: \(iterations) schemas, \(imported) imported, \(compiled) compiled, \(walked) walked to a document; crashes 0")
        #expect(iterations > 30)
    }

    enum Outcome: Equatable { case refusedOnImport, refusedOnCompile, compiled, walked, trapped }

    /// Imports, compiles, walks and validates `text`; anything but a typed error is `.trapped`
    /// (a real trap would end the process, which the test run reports as a crash).
    static func survives(_ text: String, random: SeededRandom) -> Outcome {
        var random = random
        let schema: GenerationSchema
        do { schema = try GenerationSchema(jsonSchema: text) } catch { return .refusedOnImport }
        _ = try? schema.parseValid("{}")
        _ = try? schema.parseValid("[1,2.5e300,-1e400,\"x\",null,true,{}]")
        _ = try? schema.parseValid("-9223372036854775809")
        let constraint: JSONConstraint
        do { constraint = try JSONConstraint(schema.grammar) } catch { return .refusedOnCompile }
        let (document, finished) = SchemaWalk.walk(constraint, budget: 200, random: &random)
        guard finished else { return .compiled }
        _ = try? schema.parseValid(document)
        return .walked
    }

    static let extremes: [String] = ["0", "-1", "1", "4096", "1e19", "-1e300", "1e300", "9223372036854775807", "-9223372036854775808",
                                     "9223372036854775808", "1.5", "-0.0", "1e-300", "2.5e15", "1e308", "-1e308", "0.1", "3"]

    static func number(_ random: inout SeededRandom) -> GeneratedContent {
        Int.random(in: 0..<3, using: &random) == 0
            ? .number(String(Int.random(in: -50...50, using: &random)))
            : .number(extremes[Int.random(in: 0..<extremes.count, using: &random)])
    }

    static func randomSchema(depth: Int, random: inout SeededRandom) -> GeneratedContent {
        let types = ["object", "array", "string", "integer", "number", "boolean", "null"]
        var members: [(key: String, value: GeneratedContent)] = []
        let type = types[Int.random(in: 0..<types.count, using: &random)]
        if Int.random(in: 0..<8, using: &random) != 0 { members.append(("type", .string(type))) }
        func maybe(_ key: String, _ value: @autoclosure () -> GeneratedContent) {
            if Int.random(in: 0..<3, using: &random) == 0 { members.append((key, value())) }
        }
        let deeper = depth < 6
        switch type {
        case "object" where deeper:
            let count = Int.random(in: 0...3, using: &random)
            var properties: [(key: String, value: GeneratedContent)] = []
            for i in 0..<count { properties.append(("p\(i)", randomSchema(depth: depth + 1, random: &random))) }
            members.append(("properties", .object(properties)))
            maybe("required", .array((0..<count).filter { _ in Bool.random(using: &random) }.map { .string("p\($0)") }))
        case "array" where deeper:
            members.append(("items", randomSchema(depth: depth + 1, random: &random)))
            maybe("minItems", number(&random))
            maybe("maxItems", number(&random))
        case "string":
            maybe("maxLength", number(&random))
            maybe("minLength", number(&random))
            if Int.random(in: 0..<4, using: &random) == 0 {
                let count = [0, 1, 3, 64, 65, 200][Int.random(in: 0..<6, using: &random)]
                members.append(("enum", .array((0..<count).map { .string("v\($0)") })))
            }
        case "integer", "number":
            maybe("minimum", number(&random))
            maybe("maximum", number(&random))
        default: break
        }
        // The keywords of issue 30, with hostile values now and then.
        let patterns = ["^[a-z]+$", "a|b", "(x", "\\d{2,1000}", "(a)\\1", "[^\"]*", "^.{3}$", "(?=a)", "é+", "\\p{L}", "^$", "[\\s\\S]{0,5}"]
        if Int.random(in: 0..<8, using: &random) == 0 { members.append(("pattern", .string(patterns[Int.random(in: 0..<patterns.count,
            using: &random)]))) }
        maybe("format", .string(["date", "time", "date-time", "email", "uuid", "uri", "ipv4", "ipv6", "hostname", "nope"][Int.random(in: 0..<10,
            using: &random)]))
        if Int.random(in: 0..<6, using: &random) == 0 { members.append(("const", number(&random))) }
        if Int.random(in: 0..<8, using: &random) == 0 { members.append(("multipleOf", number(&random))) }
        if Int.random(in: 0..<8, using: &random) == 0 { members.append(("exclusiveMinimum", number(&random))) }
        if Int.random(in: 0..<8, using: &random) == 0 { members.append(("uniqueItems", .bool(true))) }
        if Int.random(in: 0..<8, using: &random) == 0 { members.append(("minProperties", number(&random))) }
        if deeper, Int.random(in: 0..<8, using: &random) == 0 {
            members.append(("additionalProperties", randomSchema(depth: depth + 1, random: &random)))
        }
        if deeper, Int.random(in: 0..<8, using: &random) == 0 {
            members.append(("prefixItems", .array([randomSchema(depth: depth + 1, random: &random), .bool(Bool.random(using: &random))])))
        }
        if deeper, Int.random(in: 0..<6, using: &random) == 0 {
            let target = ["#", "#/$defs/a", "#/$defs/b", "#/nowhere", "#/$defs/a~1b", "https://x.y/z"][Int.random(in: 0..<6, using: &random)]
            members.append(("$defs", .object([("a", randomSchema(depth: depth + 1, random: &random)), ("b", .object([("$ref",
                .string("#/$defs/a"))]))])))
            members.append(("$ref", .string(target)))
        }
        if deeper, Int.random(in: 0..<10, using: &random) == 0 {
            let key = ["allOf", "oneOf", "not"][Int.random(in: 0..<3, using: &random)]
            let part = randomSchema(depth: depth + 1, random: &random)
            members.append((key, key == "not" ? part : .array([part, randomSchema(depth: depth + 1, random: &random)])))
        }
        if deeper, Int.random(in: 0..<10, using: &random) == 0 {
            members = [("anyOf", .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomSchema(depth: depth + 1, random: &random) }))]
        }
        return .object(members)
    }
}
