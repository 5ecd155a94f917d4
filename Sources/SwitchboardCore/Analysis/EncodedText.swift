/// Base64 inside a text ("NDExMSAxMTEx…", `Basic`-less credentials, a pasted config blob): runs of
/// 12 or more base64 characters that decode to readable UTF-8 text. The analyzer reads each decoded
/// text with every recognizer (one level deep) and reports what it finds at the encoded run. Binary
/// payloads (images, hashes) and ordinary words do not decode to readable text and are left alone.
enum EncodedText {
    struct Candidate {
        var range: Range<Int>
        var decoded: String
    }

    static func candidates(in text: TextScan) -> [Candidate] {
        var result: [Candidate] = []
        let bytes = text.bytes
        var i = 0
        while i < bytes.count {
            guard Base64Decoding.isAlphabet(bytes[i]), !Base64Decoding.isAlphabet(text.at(i - 1)) else { i += 1; continue }
            var end = i, digits = 0, upper = 0
            while end < bytes.count, Base64Decoding.isAlphabet(bytes[end]) {
                if ByteClass.isDigit(bytes[end]) { digits += 1 } else if ByteClass.isUpper(bytes[end]) { upper += 1 }
                end += 1
            }
            // Encoded text mixes cases and digits; prose words of that length do not.
            if end - i >= 12, digits + upper >= 3, let decoded = Base64Decoding.decode(bytes[i..<end]), isReadable(decoded) {
                result.append(Candidate(range: i..<end, decoded: String(decoding: decoded, as: UTF8.self)))
            }
            i = end
        }
        return result
    }

    /// Nearly all printable ASCII or valid multi-byte UTF-8: what a person would have encoded.
    private static func isReadable(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 6 else { return false }
        var printable = 0
        for b in bytes where (b >= 0x20 && b < 0x7F) || b == 0x0A || b == 0x09 { printable += 1 }
        return printable * 10 >= bytes.count * 9 && String(validating: bytes, as: UTF8.self) != nil
    }
}
