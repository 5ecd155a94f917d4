import Testing
import SwitchboardCore

/// The JSON Schemas zod 4 (`z.toJSONSchema`) generates for 12 ordinary models (`Tests/Fixtures/schemas`,
/// written by `generate-zod.mjs`): a shared model by `$ref`, recursion through `#`, optional, nullable
/// and defaulted fields, literals, enums, a discriminated union, records, ISO dates and times, formats
/// with zod's own patterns (its email pattern has lookaheads), constrained strings and numbers, tuples.
@Suite struct ZodSchemaTests {
    @Test func thereAreTwelveSchemasAndTogetherWithPydanticAtLeastThirty() {
        #expect(SchemaFixtures.zod.count == 12)
        #expect(SchemaFixtures.zod.count + SchemaFixtures.pydantic.count >= 30)
    }

    @Test(arguments: SchemaFixtures.zod)
    func everySchemaIsAcceptedAndGeneratesValidDocuments(file: String) throws {
        try SchemaFixtures.checkWalks(file)
    }

    /// `samples-zod.json`: instances near each model's edges with zod's own verdict (`safeParse`);
    /// the validator must agree with the library that wrote the schema.
    @Test func theValidatorAgreesWithZodOnItsSamples() throws {
        let samples = try GeneratedContent(json: SchemaFixtures.text("samples-zod.json"))
        guard case .object(let models) = samples else { Issue.record("samples-zod.json is not an object"); return }
        var checked = 0, valid = 0
        for (name, cases) in models {
            let schema = try GenerationSchema(jsonSchema: SchemaFixtures.text("zod-\(name).json"))
            guard case .array(let list) = cases else { Issue.record("\(name): no samples"); continue }
            for sample in list {
                guard let instance = sample["instance"], case .bool(let expected)? = sample["valid"] else {
                    Issue.record("\(name): a malformed sample")
                    continue
                }
                let verdict = (try? schema.validate(instance)) != nil
                #expect(verdict == expected, "\(name): \(instance.jsonText) is \(expected ? "valid" : "invalid") for zod")
                checked += 1
                if expected { valid += 1 }
            }
        }
        #expect(models.count == 12 && checked >= 60)
        #expect(valid >= 20 && checked - valid >= 30, "both verdicts are represented: \(valid) valid of \(checked)")
    }
}
