/// International bank account numbers: country code, two check digits and up to 30 letters or digits,
/// written solid or in groups of four, valid under ISO 7064 mod 97-10.
package enum IBANRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.iban]

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        guard text.digitCount >= 2 else { return }
        let count = text.bytes.count
        var i = 0
        while i + 15 <= count {
            // The start test, through a buffer pointer (every byte of every request passes it).
            let start: Int? = text.bytes.withUnsafeBufferPointer { bytes in
                while i + 15 <= count {
                    // The rarest condition first: most positions fail on it at once.
                    let a = bytes[i], b = bytes[i + 1]
                    if ByteClass.isDigit(bytes[i + 2]), ByteClass.isDigit(bytes[i + 3]),
                       ByteClass.isASCIILetter(a), ByteClass.isUpper(a) == ByteClass.isUpper(b), ByteClass.isASCIILetter(b),
                       i == 0 || !ByteClass.isASCIIAlphanumeric(bytes[i - 1]) { return i }
                    i += 1
                }
                return nil
            }
            guard let start else { return }
            if let end = validEnd(text, from: start) {
                findings.append(Finding(kind: .iban, range: start..<end))
                i = end
            } else {
                i = start + 4
            }
        }
    }

    /// Tries every group boundary, longest first; returns the end of the longest valid IBAN.
    private static func validEnd(_ text: TextScan, from start: Int) -> Int? {
        var ends: [Int] = []
        var i = start, characters = 0, groupLength = 0
        while characters < 34 {
            let byte = text.at(i)
            if ByteClass.isASCIIAlphanumeric(byte) {
                characters += 1; groupLength += 1; i += 1
                continue
            }
            // A single space continues a four-character group; anything else ends the number.
            if byte == 0x20, groupLength == 4, ByteClass.isASCIIAlphanumeric(text.at(i + 1)) {
                ends.append(i); groupLength = 0; i += 1
                continue
            }
            break
        }
        if ByteClass.isASCIIAlphanumeric(text.at(i)) { return nil }  // longer than any IBAN
        ends.append(i)
        for end in ends.reversed() where mod97(text, start..<end).map({ $0.length >= 15 && $0.remainder == 1 }) == true {
            return end
        }
        return nil
    }

    /// The rearranged number (BBAN then country code and check digits, letters as 10–35) mod 97.
    private static func mod97(_ text: TextScan, _ range: Range<Int>) -> (remainder: Int, length: Int)? {
        var remainder = 0, length = 0
        func add(_ byte: UInt8) -> Bool {
            if ByteClass.isDigit(byte) { remainder = (remainder * 10 + Int(byte &- 0x30)) % 97; return true }
            if ByteClass.isASCIILetter(byte) {
                let value = Int((byte | 0x20) &- 0x61) + 10
                remainder = (remainder * 100 + value) % 97; return true
            }
            return byte == 0x20
        }
        for i in (range.lowerBound + 4)..<range.upperBound {
            guard add(text.bytes[i]) else { return nil }
            if text.bytes[i] != 0x20 { length += 1 }
        }
        for i in range.lowerBound..<(range.lowerBound + 4) { guard add(text.bytes[i]) else { return nil } }
        return (remainder, length + 4)
    }
}
