/// name@domain.tld: a local part, '@', dot-separated domain labels and a top-level domain of two or
/// more letters.
package enum EmailRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.email]

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        var searchFrom = 0
        while let at = text.bytes[searchFrom...].firstIndex(of: 0x40) {
            searchFrom = at + 1
            var start = at
            while start > 0, isLocal(text.bytes[start - 1]) { start -= 1 }
            while start < at, text.bytes[start] == 0x2E { start += 1 }
            guard start < at else { continue }
            var end = at + 1, lastDot = -1
            while end < text.bytes.count {
                let b = text.bytes[end]
                if ByteClass.isASCIIAlphanumeric(b) || b == 0x2D { end += 1 }
                else if b == 0x2E, ByteClass.isASCIIAlphanumeric(text.at(end + 1)), text.at(end - 1) != 0x2E, end > at + 1 {
                    lastDot = end; end += 1
                } else { break }
            }
            guard lastDot > at + 1 else { continue }
            var tldLetters = 0
            for i in (lastDot + 1)..<end where ByteClass.isASCIILetter(text.bytes[i]) { tldLetters += 1 }
            guard tldLetters >= 2, tldLetters == end - lastDot - 1 else { continue }
            findings.append(Finding(kind: .email, range: start..<end))
            searchFrom = end
        }
    }

    private static func isLocal(_ b: UInt8) -> Bool {
        ByteClass.isASCIIAlphanumeric(b) || b == 0x2E || b == 0x5F || b == 0x25 || b == 0x2B || b == 0x2D
    }
}
