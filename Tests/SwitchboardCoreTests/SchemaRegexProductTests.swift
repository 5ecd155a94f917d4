import Testing
@testable import SwitchboardCore

/// Products of pattern automata: lookaheads after a leading `^` (ECMA-262 §22.2.2.4: the lookahead
/// matches at that position without consuming) and the intersection the decoder follows for a
/// string with both a `pattern` and a `format`. Checked against the definition on every short
/// string over a small alphabet, not only on chosen examples.
@Suite struct SchemaRegexProductTests {
    /// Every string of length 0…4 over `alphabet`.
    static func strings(_ alphabet: [Character], upTo length: Int = 4) -> [String] {
        var all = [""], layer = [""]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in alphabet.map { prefix + String($0) } }
            all += layer
        }
        return all
    }

    @Test(arguments: [
        // (with lookaheads, the main part alone, each condition as a prefix search, negative?)
        ("^(?!\\.)[a.]+$", "^[a.]+$", [("^\\.", true)]),
        ("^(?!.*\\.\\.)[a.]*$", "^[a.]*$", [("^.*\\.\\.", true)]),
        ("^(?=.*b)(?=.*a).{2,}$", "^.{2,}$", [("^.*b", false), ("^.*a", false)]),
        ("^(?=a)(?!ab)", "^", [("^a", false), ("^ab", true)]),
        ("^(?!\\.)(?!.*\\.\\.)([ab'.]*)[ab]@b$", "^([ab'.]*)[ab]@b$", [("^\\.", true), ("^.*\\.\\.", true)]),
    ])
    func leadingLookaheadsMeanTheirDefinition(pattern: String, main: String, conditions: [(String, Bool)]) throws {
        let regex = try SchemaRegex(pattern)
        let body = try SchemaRegex(main)
        let checks = try conditions.map { (try SchemaRegex($0.0), $0.1) }
        for text in Self.strings(["a", "b", ".", "@"]) {
            let expected = body.matches(text) && checks.allSatisfy { $0.0.matches(text) != $0.1 }
            #expect(regex.matches(text) == expected, "\(pattern) on \(text)")
        }
    }

    @Test func theIntersectionMatchesWhatBothMatch() throws {
        let pairs = [("^[ab]{2,3}$", "b$"), ("a", "^[^a]*$"), ("^(?:ab)*$", "^a.{0,3}$"), ("^$", "a")]
        for (left, right) in pairs {
            let a = try SchemaRegex(left), b = try SchemaRegex(right)
            let both = try a.intersecting(b)
            var any = false
            for text in Self.strings(["a", "b", "c"]) {
                #expect(both.matches(text) == (a.matches(text) && b.matches(text)), "\(left) ∩ \(right) on \(text)")
                any = any || both.matches(text)
            }
            #expect(both.isEmpty == !any, "\(left) ∩ \(right)")
        }
        #expect(try SchemaRegex("^a+$").intersecting(SchemaRegex("^b+$")).isEmpty)
        #expect(try !SchemaRegex("^a+$").intersecting(SchemaRegex("a{3}")).isEmpty)
    }

    /// zod's uuid and email patterns with our generation patterns for the formats: not empty, and
    /// what both accept is what each accepts.
    @Test func zodPatternsMeetTheFormatsGenerationPatterns() throws {
        let email = try SchemaRegex(#"^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$"#)
        #expect(email.matches("ada.l@example.com") && !email.matches(".ada@example.com") && !email.matches("a..b@example.com"))
        let generated = try email.intersecting(SchemaRegex(SchemaFormat.email.generationPattern))
        #expect(!generated.isEmpty && generated.matches("ada@example.com") && !generated.matches("a..b@example.com"))
        let uuid = try SchemaRegex("^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$")
        let both = try uuid.intersecting(SchemaRegex(SchemaFormat.uuid.generationPattern))
        #expect(both.matches("3f1c9a2e-8b4d-4c6e-9f0a-1b2c3d4e5f60"))
        #expect(!both.matches("3f1c9a2e-8b4d-0c6e-9f0a-1b2c3d4e5f60"))   // version 0: the pattern refuses it
        #expect(!both.matches("3F1C9A2E-8B4D-4C6E-9F0A-1B2C3D4E5F60"))   // upper case: not generated
    }

    /// Two lookaheads of about a thousand states each: their product would have about a million, so it
    /// stops at the state cap with a typed error instead of building it.
    @Test func aProductBeyondTheCapIsATypedError() {
        let started = ContinuousClock.now
        #expect(throws: RegexError.self) { try SchemaRegex("^(?=.*a.{9})(?=.*b.{9}).*$") }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(throws: RegexError.self) { try SchemaRegex("^" + String(repeating: "(?!a)", count: 9) + "b") }
        #expect((try? SchemaRegex("^" + String(repeating: "(?!a)", count: 8) + "b"))?.matches("bc") == true)
    }

    @Test(arguments: ["a(?=b)", "^a(?!b)", "(?=a)", "^(?:(?=a)b)", "^(?=a)*b", "^(?<=a)b"])
    func otherLookaroundIsRefused(pattern: String) {
        #expect(throws: RegexError.self) { try SchemaRegex(pattern) }
    }
}
