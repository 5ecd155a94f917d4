import SwitchboardCore

/// The schema a structured request asks for, and the reply held back until it validates.
///
/// A structured reply is held, not streamed, until the call finishes: once a token reaches the
/// caller the router can no longer fall back, and an invalid document must be able to fall back
/// (to the on-device model, which constrains its decoding). Text requests pass straight through.
/// The held text is bounded by the output budget (`maxTokens`) and by `maxHeldBytes`.
struct StructuredReplyCheck: Sendable {
    /// The most reply bytes held for validation, whatever `maxTokens` allows: validating holds the
    /// document and its parse, so this bounds the memory of the largest structured reply (a 28.8 MB
    /// reply peaked at 1,082 MB when held whole). Past it the reply is `responseTooLarge`.
    static let maxHeldBytes = 4 << 20

    let schema: GenerationSchema?
    /// The document's start already delivered by another call (a resumed answer): validated together
    /// with this call's continuation.
    let prefix: String
    private var held: [String] = []
    private var heldBytes = 0

    /// Throws `invalidRequest` for a schema the package cannot import (it could not be validated).
    init(_ output: OutputFormat, prefix: String? = nil) throws {
        schema = try Self.schema(output)
        self.prefix = prefix ?? ""
    }

    /// The request's schema, imported; nil for text output.
    static func schema(_ output: OutputFormat) throws -> GenerationSchema? {
        guard case .jsonSchema(let text) = output else { return nil }
        do { return try GenerationSchema(jsonSchema: text) } catch {
            throw ProviderError.invalidRequest("the output schema cannot be used: \(error)")
        }
    }

    /// Keeps `piece` when the reply must be validated first; false means deliver it now.
    mutating func hold(_ piece: Substring) throws(ProviderError) -> Bool {
        guard schema != nil else { return false }
        guard piece.utf8.count <= Self.maxHeldBytes - heldBytes else {
            throw .responseTooLarge(what: "the structured reply", limit: Self.maxHeldBytes)
        }
        held.append(String(piece))
        heldBytes += piece.utf8.count
        return true
    }

    /// The held pieces, once the whole reply follows the schema; otherwise a retryable
    /// `malformedResponse` naming the first problem (cut to `maxMessageLength`), so the router
    /// retries or falls back.
    func release(maxMessageLength: Int) throws(ProviderError) -> [String] {
        guard let schema else { return [] }
        do { _ = try schema.parseValid(prefix + held.joined()) } catch {
            throw .malformedResponse(String("the structured reply was rejected: \(error)".prefix(max(1, maxMessageLength))))
        }
        return held
    }
}
