import Testing

/// The JSON Schemas Pydantic 2 generates for 31 ordinary models (`Tests/Fixtures/schemas`, written by
/// its `generate.py`): nested models by `$ref`, recursion, optional fields, `Literal`, enums, dicts,
/// dates and times, constrained strings and numbers. Every one is imported, compiles for the decoder,
/// and every document random walks produce under it validates.
@Suite struct PydanticSchemaTests {
    @Test func thereAreAtLeastThirtySchemas() { #expect(SchemaFixtures.pydantic.count >= 30) }

    @Test(arguments: SchemaFixtures.pydantic)
    func everySchemaIsAcceptedAndGeneratesValidDocuments(file: String) throws {
        try SchemaFixtures.checkWalks(file)
    }
}
