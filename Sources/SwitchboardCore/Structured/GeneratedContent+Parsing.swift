/// A small JSON reader over UTF-8 bytes. Complete mode is strict (RFC 8259, one value, whitespace
/// around it). Partial mode reads a prefix of a document, as it streams in, into the value it has
/// so far: an open string keeps the characters read, open arrays and objects keep their finished
/// items, and a member whose value has not started is left out.
extension GeneratedContent {
    /// Parses one complete JSON document.
    public init(json text: String) throws(StructuredOutputError) {
        var reader = JSONReader(bytes: Array(text.utf8), partial: false)
        reader.skipWhitespace()
        guard let value = try reader.value() else { throw .invalidJSON("the text is empty") }
        reader.skipWhitespace()
        guard reader.atEnd else { throw .invalidJSON("unexpected text after the value at byte \(reader.index)") }
        self = value
    }

    /// The value a prefix of a JSON document has so far (nil when nothing of it has started).
    public static func partial(json prefix: String) -> GeneratedContent? {
        var reader = JSONReader(bytes: Array(prefix.utf8), partial: true)
        reader.skipWhitespace()
        return (try? reader.value()) ?? nil
    }
}

struct JSONReader {
    let bytes: [UInt8]
    let partial: Bool
    var index = 0
    /// Nesting guard: a hostile document must not overflow the stack.
    var depth = 0

    init(bytes: [UInt8], partial: Bool) { self.bytes = bytes; self.partial = partial }

    var atEnd: Bool { index >= bytes.count }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    /// nil only in partial mode, when the input ends before the value starts (or mid-literal).
    mutating func value() throws(StructuredOutputError) -> GeneratedContent? {
        guard !atEnd else { if partial { return nil }; throw .invalidJSON("the text ends before a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try container(object: true)
        case UInt8(ascii: "["): return try container(object: false)
        case UInt8(ascii: "\""): return try string().map(GeneratedContent.string)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: String, _ value: GeneratedContent) throws(StructuredOutputError) -> GeneratedContent? {
        for byte in word.utf8 {
            if atEnd, partial { return nil }
            guard !atEnd, bytes[index] == byte else { throw .invalidJSON("expected \(word) at byte \(index)") }
            index += 1
        }
        return value
    }

    private mutating func number() throws(StructuredOutputError) -> GeneratedContent? {
        let start = index
        while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !text.isEmpty else { throw .invalidJSON("unexpected character at byte \(start)") }
        if Self.isJSONNumber(text) { return .number(text) }
        if partial, atEnd { return nil }
        throw .invalidJSON("'\(text)' is not a JSON number")
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    static func isJSONNumber(_ text: String) -> Bool {
        var chars = Array(text.utf8)[...]
        func digits(_ chars: inout ArraySlice<UInt8>) -> Int {
            var n = 0
            while let c = chars.first, c >= 0x30, c <= 0x39 { chars.removeFirst(); n += 1 }
            return n
        }
        if chars.first == UInt8(ascii: "-") { chars.removeFirst() }
        if chars.first == UInt8(ascii: "0") { chars.removeFirst() } else if digits(&chars) == 0 { return false }
        if chars.first == UInt8(ascii: ".") { chars.removeFirst(); if digits(&chars) == 0 { return false } }
        if let c = chars.first, c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            chars.removeFirst()
            if let s = chars.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { chars.removeFirst() }
            if digits(&chars) == 0 { return false }
        }
        return chars.isEmpty
    }

    private mutating func container(object: Bool) throws(StructuredOutputError) -> GeneratedContent? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 128 else { throw .invalidJSON("nesting deeper than 128 levels") }
        index += 1
        var items: [GeneratedContent] = []
        var members: [(key: String, value: GeneratedContent)] = []
        let close = UInt8(ascii: object ? "}" : "]")
        var result: GeneratedContent { object ? .object(members) : .array(items) }
        skipWhitespace()
        if !atEnd, bytes[index] == close { index += 1; return result }
        while true {
            skipWhitespace()
            if atEnd, partial { return result }
            if object {
                guard !atEnd, bytes[index] == UInt8(ascii: "\"") else { throw .invalidJSON("expected a key at byte \(index)") }
                let keyStart = index
                let key = try string()
                skipWhitespace()
                if atEnd, partial { return result }
                guard let key, bytes[index] == UInt8(ascii: ":") else { throw .invalidJSON("expected ':' after key at byte \(keyStart)") }
                index += 1
                skipWhitespace()
                guard let value = try value() else { return result }
                members.append((key, value))
            } else {
                guard let value = try value() else { return result }
                items.append(value)
            }
            skipWhitespace()
            if atEnd, partial { return result }
            guard !atEnd else { throw .invalidJSON("the text ends inside \(object ? "an object" : "an array")") }
            if bytes[index] == close { index += 1; return result }
            guard bytes[index] == UInt8(ascii: ",") else { throw .invalidJSON("expected ',' at byte \(index)") }
            index += 1
        }
    }

    /// A string literal; in partial mode an unterminated one yields what was read.
    mutating func string() throws(StructuredOutputError) -> String? {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let c = bytes[index]
            index += 1
            switch c {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count else { index = bytes.count; break }
                    guard let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                        throw .invalidJSON("bad \\u escape at byte \(index)")
                    }
                    index += 4
                    var scalar = code
                    // A UTF-16 surrogate pair (`\ud83d\udca9`) is one character; a half alone becomes U+FFFD.
                    if (0xD800...0xDBFF).contains(code), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                       bytes[index + 1] == UInt8(ascii: "u"),
                       let low = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16), (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                    out += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default: throw .invalidJSON("bad escape at byte \(index - 1)")
                }
            case 0..<0x20: throw .invalidJSON("control character in a string at byte \(index - 1)")
            default: out.append(c)
            }
        }
        if partial { return String(decoding: out, as: UTF8.self) }
        throw .invalidJSON("unterminated string")
    }
}
