import Foundation
import Testing
import SwitchboardCore
import SwitchboardTestKit
@testable import SwitchboardRemote

/// The key is scrubbed however a server disguises it: any mix of letter case, hex in either case,
/// split by separators or invisible characters; and scrubbing costs time linear in the text.
@Suite("Key redaction: case, hex, separators")
struct KeyDisguiseRedactionTests {
    static let secret = KeyFragmentRedactionTests.secret

    static func swapCase(_ text: String) -> String {
        String(text.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })
    }

    static func alternateCase(_ text: String) -> String {
        String(text.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : Character($0.element.lowercased()) })
    }

    static func split(_ text: String, every count: Int, by separator: String) -> String {
        stride(from: 0, to: text.count, by: count).map { start in
            String(text.dropFirst(start).prefix(count))
        }.joined(separator: separator)
    }

    static let hex = Data(secret.utf8).map { String(format: "%02x", $0) }.joined()

    static let disguises: [String] = [
        swapCase(secret), alternateCase(secret), hex, hex.uppercased(), split(hex, every: 2, by: ":"),
        split(secret, every: 3, by: " "), split(secret, every: 4, by: "-"), split(secret, every: 2, by: "."),
        split(secret, every: 1, by: "\u{200B}"), split(secret, every: 5, by: "\u{2060}\u{00AD}"), split(secret, every: 3, by: "_"),
        split(swapCase(secret), every: 4, by: " - "), String(secret.dropFirst(10).prefix(12)).uppercased(),
    ]

    @Test(arguments: disguises)
    func aDisguisedKeyIsRedacted(_ disguise: String) throws {
        let key = try #require(APIKey(Self.secret))
        let scrubbed = key.scrub("Invalid key \(disguise) (check it). Bye.")
        #expect(scrubbed.contains("(redacted)"), "\(scrubbed)")
        #expect(scrubbed.hasPrefix("Invalid key ") && scrubbed.hasSuffix("(check it). Bye."), "\(scrubbed)")
        // No 8-character run of the key survives, in any case, with or without the separators.
        let flattened = String(scrubbed.unicodeScalars.filter { !APIKey.isSeparator($0) }).lowercased()
        let normalizedSecret = String(Self.secret.unicodeScalars.filter { !APIKey.isSeparator($0) }).lowercased()
        for start in 0...(normalizedSecret.count - 8) {
            let piece = String(normalizedSecret.dropFirst(start).prefix(8))
            #expect(!flattened.contains(piece), "\(piece) in \(scrubbed)")
        }
        #expect(!flattened.contains(String(Self.hex.dropFirst(20).prefix(16))))
    }

    @Test func anErrorEchoingTheKeyCaseFlippedIsNotPrinted() async throws {
        let echo = "\(Self.swapCase(Self.secret)) (hex \(Self.hex.uppercased()))"
        let body = #"{"error":{"message":"Incorrect API key provided: \#(echo)","type":"invalid_request_error"}}"#
        let server = try LoopbackHTTPServer([.json(401, body)])
        defer { server.stop() }
        let log = LogSink()
        let error = await failure(of: openAI(server, key: Self.secret, settings: settings(log: log)).generate(providerRequest()))
        let printed = (error?.description ?? "") + log.all.joined(separator: "\n")
        #expect(printed.contains("(redacted)"))
        #expect(!printed.lowercased().contains("zq81lmn0") && !printed.contains(String(Self.hex.prefix(16)).uppercased()), "\(printed)")
    }

    @Test func ordinaryTextWithSeparatorsIsUntouched() throws {
        let key = try #require(APIKey(Self.secret))
        for text in ["a-b.c d_e:f/g 0246 1357 8ace", "Ünïcödé — text… with · dots", "HTTP 401: invalid_api_key (see docs.example.invalid)"] {
            #expect(key.scrub(text) == text)
        }
    }

    @Test func scrubbingIsLinearInTheText() throws {
        let key = try #require(APIKey(Self.secret))
        var random = SeededRandom(seed: 24)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 -._\u{200B}")
        let text = String((0..<(1 << 20)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
        let clock = ContinuousClock()
        let start = clock.now
        let scrubbed = key.scrub(text + " " + Self.hex + " " + text)
        // Two million-character texts: seconds for a debug build on a busy machine; a quadratic pass never ends.
        #expect(clock.now - start < .seconds(30))
        #expect(scrubbed.contains("(redacted)") && !scrubbed.contains(Self.hex))
    }
}
