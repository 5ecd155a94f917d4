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
        // Every long run of alphabet bytes, found through a buffer pointer (this scan sees every byte
        // of every request), then decoded.
        var runs: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            var i = 0
            while i < count {
                guard Base64Decoding.isAlphabet(buffer[i]) else { i += 1; continue }
                var end = i, digits = 0, upper = 0
                while end < count, Base64Decoding.isAlphabet(buffer[end]) {
                    let byte = buffer[end]
                    if ByteClass.isDigit(byte) { digits += 1 } else if ByteClass.isUpper(byte) { upper += 1 }
                    end += 1
                }
                // Encoded text mixes cases and digits; prose words of that length do not.
                if end - i >= 12, digits + upper >= 3 { runs.append(i..<end) }
                i = end
            }
        }
        for run in runs {
            if let decoded = Base64Decoding.decode(bytes[run]), isReadable(decoded) {
                result.append(Candidate(range: run, decoded: String(decoding: decoded, as: UTF8.self)))
            }
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
