/// Numbers written so a digit scanner misses them, undone as decoding layers (`DecodingLayers`):
/// reversed ("1111 1111 1111 1114 backwards"), letters for digits inside a numeric run ("5l29 5O29",
/// "O78-O5-ll2O"), and one number split over sentences after its card or SSN words. Each returns one
/// whole-text candidate or nil; all are linear in the text.
enum NumericDisguise {
    /// A run of digit groups: pieces of digits (and, for `letterDigits`, look-alike letters) joined by
    /// `IdentityNumberRecognizer.joinable` separators.
    private static func runs(_ text: TextScan, _ pieces: [IdentityNumberRecognizer.Piece],
                             accept: (IdentityNumberRecognizer.Piece) -> Bool) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var i = 0
        while i < pieces.count {
            guard accept(pieces[i]) else { i += 1; continue }
            var j = i
            while j + 1 < pieces.count, accept(pieces[j + 1]), IdentityNumberRecognizer.joinable(text, pieces[j].end, pieces[j + 1].start) { j += 1 }
            result.append(i..<(j + 1))
            i = j + 1
        }
        return result
    }

    private static let reversalCues = WordSet("""
        reversed reverse backwards backward inverted invertido invertida umgekehrt ruckwarts envers наоборот rovescio
        """)

    /// Digit runs of nine or more digits reversed character by character, when the text says so or
    /// names a card or SSN.
    static func reversed(_ text: TextScan) -> DecodingLayers.Candidate? {
        guard text.digitCount >= 9 else { return nil }
        let cue = !text.allFlags.isDisjoint(with: [.cardContext, .ssnContext]) || text.words.contains { reversalCues.contains($0.hash) }
        guard cue else { return nil }
        let pieces = IdentityNumberRecognizer.pieces(text)
        var output = text.bytes
        var first = Int.max, last = 0
        for run in runs(text, pieces, accept: { $0.digits == $0.length }) {
            let digits = pieces[run].reduce(0) { $0 + $1.digits }
            guard digits >= 9 else { continue }
            let span = pieces[run.lowerBound].start..<pieces[run.upperBound - 1].end
            output.replaceSubrange(span, with: text.bytes[span].reversed())
            first = min(first, span.lowerBound); last = max(last, span.upperBound)
        }
        guard first < last else { return nil }
        return DecodingLayers.Candidate(range: first..<last, decoded: String(decoding: output, as: UTF8.self), layer: "reversed")
    }

    /// Look-alike letters and the digit each stands for.
    static func digit(for b: UInt8) -> UInt8? {
        switch b {
        case 0x4F, 0x6F, 0x44: 0x30  // O o D
        case 0x6C, 0x49, 0x69: 0x31  // l I i
        case 0x5A, 0x7A: 0x32  // Z z
        case 0x45: 0x33  // E
        case 0x41: 0x34  // A
        case 0x53, 0x73: 0x35  // S s
        case 0x47, 0x62: 0x36  // G b
        case 0x54: 0x37  // T
        case 0x42: 0x38  // B
        case 0x67, 0x71: 0x39  // g q
        default: nil
        }
    }

    /// Runs of pieces made only of digits and look-alike letters, rewritten as digits when a piece
    /// mixes the two ("5l29") or the run is long enough to be a card or an id (twelve or more).
    static func letterDigits(_ text: TextScan) -> DecodingLayers.Candidate? {
        guard text.digitCount >= 1, hasDigitBesideLookAlike(text) else { return nil }
        let pieces = IdentityNumberRecognizer.pieces(text)
        func lookAlike(_ piece: IdentityNumberRecognizer.Piece) -> Bool {
            for k in piece.start..<piece.end where !ByteClass.isDigit(text.bytes[k]) && digit(for: text.bytes[k]) == nil { return false }
            return true
        }
        var output = text.bytes
        var first = Int.max, last = 0
        for run in runs(text, pieces, accept: lookAlike) {
            let slice = pieces[run]
            let digits = slice.reduce(0) { $0 + $1.digits }, length = slice.reduce(0) { $0 + $1.length }
            let mixed = slice.contains { $0.digits > 0 && $0.digits < $0.length && $0.digits * 2 >= $0.length - 1 }
            guard digits > 0, digits < length, length >= 7, mixed || length >= 12 else { continue }
            for piece in slice { for k in piece.start..<piece.end { if let d = digit(for: text.bytes[k]) { output[k] = d } } }
            first = min(first, slice.first!.start); last = max(last, slice.last!.end)
        }
        guard first < last else { return nil }
        return DecodingLayers.Candidate(range: first..<last, decoded: String(decoding: output, as: UTF8.self), layer: "letter-digits")
    }

    /// One pass: a digit next to a look-alike letter ("5l", "O7"), or a look-alike run of 12+ after a digit.
    private static func hasDigitBesideLookAlike(_ text: TextScan) -> Bool {
        text.bytes.withUnsafeBufferPointer { bytes in
            var i = 1
            while i < bytes.count {
                let a = bytes[i - 1], b = bytes[i]
                if (ByteClass.isDigit(a) && digit(for: b) != nil) || (ByteClass.isDigit(b) && digit(for: a) != nil) { return true }
                i += 1
            }
            return false
        }
    }

    /// "My card starts 4111 1111. The rest is 1111 1111.": with card or SSN words in the text and its
    /// digit groups (two to six runs, 9–19 digits in all, none a number on its own) rejoined after the
    /// first such word.
    static func splitNumber(_ text: TextScan) -> DecodingLayers.Candidate? {
        guard text.digitCount >= 9, text.digitCount <= 19, !text.allFlags.isDisjoint(with: [.cardContext, .ssnContext]),
              let cue = text.words.first(where: { !$0.lexicon.isDisjoint(with: [.cardContext, .ssnContext]) }) else { return nil }
        let pieces = IdentityNumberRecognizer.pieces(text)
        let groups = runs(text, pieces, accept: { $0.digits == $0.length })
        guard groups.count >= 2, groups.count <= 6 else { return nil }
        var decoded = String(decoding: text.bytes[cue.start..<cue.end], as: UTF8.self)
        for run in groups {
            for piece in pieces[run] { decoded += " " + String(decoding: text.bytes[piece.start..<piece.end], as: UTF8.self) }
        }
        let range = pieces[groups[0].lowerBound].start..<pieces[groups[groups.count - 1].upperBound - 1].end
        return DecodingLayers.Candidate(range: range, decoded: decoded, layer: "split-number")
    }
}
