/// Passport numbers: "passport" shortly before a 6–9 character id of letters and at least five digits.
package enum IdentityRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.passport]

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        guard text.allFlags.contains(.passport), text.digitCount >= 5 else { return }
        let words = text.words
        for index in words.indices where words[index].lexicon.contains(.passport) {
            var k = index + 1
            while k < words.count, k <= index + 5, words[k].sentence == words[index].sentence {
                let id = words[k]
                if id.length >= 6, id.length <= 9, id.digits >= 5, id.letters + id.digits == id.length,
                   isASCII(text, id) {
                    findings.append(Finding(kind: .passport, range: words[index].start..<id.end))
                    break
                }
                k += 1
            }
        }
    }

    private static func isASCII(_ text: TextScan, _ word: TextScan.Word) -> Bool {
        for i in word.start..<word.end where text.bytes[i] >= 0x80 { return false }
        return true
    }
}
