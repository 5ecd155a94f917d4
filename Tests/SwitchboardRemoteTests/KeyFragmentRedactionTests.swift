import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote

/// A server that echoes part of the key, in any form, does not get it printed; a key with a line break
/// is refused with a typed error.
@Suite("Key fragments and malformed keys")
struct KeyFragmentRedactionTests {
    static let secret = "sk-proj-Zq81LmN0pQrStUvWxYz0123456789abcdefGHIJ"

    @Test(arguments: [
        "middle fragment: LmN0pQrStU",
        "upper-cased: SK-PROJ-ZQ81LMN0PQRSTUVWXYZ0123456789ABCDEFGHIJ",
        "lower-cased tail 0123456789abcdefghij",
        "base64: " + Data(Self.secret.utf8).base64EncodedString(),
        "base64 of the header: " + Data(("Bearer " + Self.secret).utf8).base64EncodedString(),
        "url-encoded: sk%2Dproj%2DZq81LmN0pQrStUvWxYz0123456789abcdefGHIJ",
        "masked: sk-proj-****StUvWxYz****",
    ])
    func anyEightCharacterPieceIsRedacted(_ echo: String) throws {
        let key = try #require(APIKey(Self.secret))
        let scrubbed = key.scrub("Incorrect API key provided. \(echo). Try again.")
        #expect(scrubbed.contains("(redacted)"), "\(scrubbed)")
        #expect(scrubbed.contains("Incorrect API key provided.") && scrubbed.hasSuffix("Try again."))
        for start in 0...(Self.secret.count - 8) {
            let piece = String(Self.secret.dropFirst(start).prefix(8))
            #expect(!scrubbed.contains(piece) && !scrubbed.contains(piece.uppercased()), "\(piece) in \(scrubbed)")
        }
    }

    @Test func unrelatedTextIsUntouched() throws {
        let key = try #require(APIKey(Self.secret))
        let text = "model gemma not found; see https://example.invalid/docs (code 404)"
        #expect(key.scrub(text) == text)
    }

    @Test func errorsFromTheMapperCarryNoFragment() throws {
        let key = try #require(APIKey(Self.secret))
        let body = Data(#"{"error":{"message":"key ending 789abcdefGHIJ is revoked (b64 \#(Data(Self.secret.utf8).base64EncodedString()))"}}"#.utf8)
        let mapper = APIErrorMapper(dialect: .openAI, model: "gemma", key: key, now: Date(), contextLimit: 4096,
                                    requestedTokens: 10, maxMessageLength: 500)
        let error = mapper.map(status: 401, headers: [:], body: body)
        #expect(!error.description.contains("789abcdef") && !error.description.contains("c2stcHJv"), "\(error)")
    }

    @Test(arguments: ["sk-abc\r\ndef0123456789", "sk-abc\ndef0123456789", "sk-abc\rdef0123456789"])
    func lineBreakInsideTheKeyIsATypedError(_ raw: String) async {
        #expect(throws: APIKeyError.lineBreak) { try APIKey(validating: raw) }
        #expect(APIKey(raw) == nil)
        let store = EnvironmentKeyStore(variables: ["openai-compatible": "K"], environment: ["K": raw])
        await #expect(throws: KeyStoreError.invalidKey(KeyReference("openai-compatible"), .lineBreak)) {
            try await store.get(KeyReference("openai-compatible"))
        }
    }

    @Test func trailingNewlineIsTrimmedNotRefused() throws {
        #expect(try APIKey(validating: "sk-abc0123456789\n").revealForAuthenticationHeader() == "sk-abc0123456789")
        #expect(throws: APIKeyError.empty) { try APIKey(validating: " \n") }
        #expect(throws: APIKeyError.controlCharacter) { try APIKey(validating: "sk-abc\u{1B}[2J0123") }
    }
}
