/// Turns a stream of token ids into text as it is generated. A character split across byte tokens
/// is held back until its last byte arrives, so each character is emitted exactly once.
public struct StreamingDecoder: Sendable {
    private let tokenizer: Tokenizer
    private let skipSpecial: Bool
    private var pending: [UInt8] = []

    public init(tokenizer: Tokenizer, skipSpecial: Bool = true) {
        self.tokenizer = tokenizer
        self.skipSpecial = skipSpecial
    }

    /// Adds one token and returns the text it completes (possibly empty).
    public mutating func append(_ id: Int32) -> String {
        tokenizer.appendPieceBytes(id, skipSpecial: skipSpecial, to: &pending)
        let complete = Self.completePrefixLength(pending)
        guard complete > 0 else { return "" }
        let text = String(decoding: pending[..<complete], as: UTF8.self)
        pending.removeFirst(complete)
        return text
    }

    /// Emits whatever is still held back; incomplete sequences become U+FFFD.
    public mutating func flush() -> String {
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Bytes held back waiting for the rest of a character.
    public var pendingByteCount: Int { pending.count }

    /// Length of the prefix that can be decoded now: everything except a trailing lead byte (and its
    /// continuation bytes) whose sequence is not complete yet. Definitely invalid bytes are released
    /// so they decode to U+FFFD instead of stalling the stream.
    static func completePrefixLength(_ bytes: [UInt8]) -> Int {
        var index = bytes.count - 1
        var continuations = 0
        while index >= 0, continuations < 3, bytes[index] & 0xC0 == 0x80 {
            continuations += 1
            index -= 1
        }
        guard index >= 0 else { return bytes.count }
        let lead = bytes[index]
        let needed: Int
        switch lead {
        case 0xC2...0xDF: needed = 2
        case 0xE0...0xEF: needed = 3
        case 0xF0...0xF4: needed = 4
        default: return bytes.count
        }
        return continuations + 1 < needed ? index : bytes.count
    }
}
