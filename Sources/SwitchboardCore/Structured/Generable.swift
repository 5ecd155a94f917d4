import Foundation

/// A Swift type that describes its own schema and decodes from the JSON a model generated for it.
/// `Codable` does the decoding, so a conforming type needs only `generationSchema` (no macros: the
/// package has no dependencies). Keep the schema's property names equal to the coding keys.
///
/// ```swift
/// struct Contact: Generable {
///     var name: String
///     var age: Int?
///     static let generationSchema = GenerationSchema.object([
///         .init("name", .string()), .optional("age", .integer(minimum: 0)),
///     ])
/// }
/// ```
///
/// Nested and recursive types are references to definitions on the root schema; constants,
/// patterns, formats and dictionaries have their own constructors:
///
/// ```swift
/// struct Folder: Generable {
///     var kind: String            // always "folder"
///     var name: String
///     var created: String         // a date
///     var sizes: [String: Int]
///     var children: [Folder]
///     static let generationSchema = GenerationSchema.reference("Folder").defining(["Folder": .object([
///         .init("kind", .constant(.string("folder"))),
///         .init("name", .string(maxLength: 40, pattern: "^[A-Za-z0-9 _-]+$")),
///         .init("created", .string(format: .date)),
///         .init("sizes", .dictionary(of: .integer(minimum: 0), maxProperties: 8)),
///         .init("children", .array(of: .reference("Folder"), maxItems: 4)),
///     ])])
/// }
/// ```
public protocol Generable: Codable, Sendable {
    /// What a stream shows of a value still being generated (`ResponseStream.Snapshot.content`).
    /// FoundationModels' macro writes a twin type with every property optional; without macros the
    /// default is `Self?`: nil until the partial JSON decodes (every required property has started).
    associatedtype PartiallyGenerated: Sendable = Self?
    static var generationSchema: GenerationSchema { get }
    /// Decodes already validated (or partial, closed) content; `Codable` does it by default.
    static func decode(_ content: GeneratedContent) throws(StructuredOutputError) -> Self
    /// The snapshot of `content`, the value the JSON written so far holds.
    static func partiallyGenerated(from content: GeneratedContent) -> PartiallyGenerated
}

extension Generable {
    /// Validates `text` against the schema, then decodes it.
    public static func decode(generated text: String) throws(StructuredOutputError) -> Self {
        let content = try generationSchema.parseValid(text)
        return try decode(content)
    }

    public static func decode(_ content: GeneratedContent) throws(StructuredOutputError) -> Self {
        do { return try JSONDecoder().decode(Self.self, from: Data(content.jsonText.utf8)) } catch {
            throw .decoding("\(Self.self): \(error)")
        }
    }
}

extension Generable where PartiallyGenerated == Self? {
    public static func partiallyGenerated(from content: GeneratedContent) -> Self? { try? decode(content) }
}

/// Plain text, as FoundationModels has it: `Response<String>` is a text answer. Generated as a
/// schema (`respond(to:generating: String.self)`) it is one JSON string.
extension String: Generable {
    public typealias PartiallyGenerated = String
    public static var generationSchema: GenerationSchema { .string() }
    public static func decode(_ content: GeneratedContent) throws(StructuredOutputError) -> String {
        if case .string(let text) = content { return text }
        throw .decoding("String: the generated value is \(content.jsonText.prefix(80)), not a string")
    }
    public static func partiallyGenerated(from content: GeneratedContent) -> String {
        if case .string(let text) = content { text } else { content.jsonText }
    }
}

/// Named people, places, organizations and concepts in a text: the sample of an on-device extraction
/// (a user's own note stays on the device).
public struct ExtractedEntities: Generable, Hashable {
    public var people: [String]
    public var places: [String]
    public var organizations: [String]
    public var concepts: [String]

    public init(people: [String] = [], places: [String] = [], organizations: [String] = [], concepts: [String] = []) {
        self.people = people; self.places = places; self.organizations = organizations; self.concepts = concepts
    }

    public static let generationSchema = GenerationSchema.object([
        .init("people", .array(of: .string(), description: "names of people mentioned", maxItems: 8)),
        .init("places", .array(of: .string(), description: "cities, countries and other places", maxItems: 8)),
        .init("organizations", .array(of: .string(), description: "companies and institutions", maxItems: 8)),
        .init("concepts", .array(of: .string(), description: "main topics, in a few words each", maxItems: 8)),
    ], description: "the entities named in the text")
}

/// A short summary of a text: a title, its key points and one paragraph.
public struct Summary: Generable, Hashable {
    public var title: String
    public var keyPoints: [String]
    public var summary: String

    public init(title: String, keyPoints: [String], summary: String) {
        self.title = title; self.keyPoints = keyPoints; self.summary = summary
    }

    public static let generationSchema = GenerationSchema.object([
        .init("title", .string(description: "a short title", maxLength: 80)),
        .init("keyPoints", .array(of: .string(maxLength: 160), description: "the main points, one sentence each", minItems: 1, maxItems: 5)),
        .init("summary", .string(description: "the text summarized in one or two sentences", maxLength: 400)),
    ], description: "a summary of the text")
}
