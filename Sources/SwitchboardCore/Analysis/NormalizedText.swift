/// The view of a text every recognizer reads, so look-alike and invisible characters cannot hide data:
/// NFKC compatibility forms (full-width digits and letters, ligatures, circled and super/subscript
/// digits), format characters removed (zero-width spaces and joiners, soft hyphens, bidi controls, BOM),
/// every space variant and run of spaces or tabs folded to one space, every dash variant to '-', curly
/// quotes to straight ones, accents dropped from Latin letters and non-ASCII capitals lowered (ASCII case
/// is kept: key formats and names need it). `origins` maps each byte back to the user's text.
package struct NormalizedText: Sendable {
    /// UTF-8 bytes of the normalized text.
    package let bytes: [UInt8]
    /// Original UTF-8 offset of each normalized byte, plus one entry for the end; nil when the text
    /// needed no change (the common, all-ASCII case, which costs one pass and no map).
    private let origins: [Int32]?
    /// False when the text carries signs of a failed decoding (U+FFFD, NUL, noncharacters): the
    /// analyzer then cannot vouch for it and fails closed.
    package let isReadable: Bool

    package init(_ text: String) {
        var utf8 = text.utf8
        let simple = utf8.withContiguousStorageIfAvailable(Self.needsNoChange) ?? false
        if simple {
            bytes = Array(utf8); origins = nil; isReadable = true
            return
        }
        utf8 = text.utf8
        var builder = NormalizedTextBuilder(Array(utf8))
        builder.run()
        bytes = builder.output
        origins = builder.origins
        isReadable = builder.isReadable
    }

    /// The range in the original text that normalized `range` came from.
    package func originalRange(_ range: Range<Int>) -> Range<Int> {
        guard let origins else { return range }
        let lower = Int(origins[min(max(range.lowerBound, 0), origins.count - 1)])
        let upper = Int(origins[min(max(range.upperBound, 0), origins.count - 1)])
        return lower..<max(lower, upper)
    }

    /// ASCII with no tab, CR, NUL, other control or double space needs no normalization.
    private static func needsNoChange(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte >= 0x80 || (byte < 0x20 && byte != 0x0A) || byte == 0x7F || (byte == 0x20 && previous == 0x20) {
                return false
            }
            previous = byte
        }
        return true
    }
}
