import Foundation

/// How much JSON work one document may cost. Everything a server sends is parsed under these limits:
/// Foundation's `JSONDecoder`, driven through `JSONValue`'s `Codable` conformance, threw and caught
/// up to five errors per value while it guessed each value's type, so a 15 MB reply of `[{},{},…]` took
/// 18–24 s of CPU; and every value it built cost memory without bound.
package struct JSONLimits: Sendable, Hashable {
    /// Arrays and objects nested inside each other.
    package var maxDepth: Int
    /// Values (and object keys) in the whole document.
    package var maxValues: Int

    package init(maxDepth: Int = 128, maxValues: Int = 1 << 18) {
        self.maxDepth = max(1, maxDepth); self.maxValues = max(1, maxValues)
    }

    /// For replies, stream events, error bodies and tool arguments: a real reply has a few dozen
    /// values; 262,144 of them take a few milliseconds (release) and tens of megabytes at most.
    package static let reply = JSONLimits()
}

/// Why a document was refused.
package enum JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalid(offset: Int, reason: String)
    case tooDeep(limit: Int)
    case tooManyValues(limit: Int)

    package var description: String {
        switch self {
        case .invalid(let offset, let reason): "invalid JSON at byte \(offset): \(reason)"
        case .tooDeep(let limit): "JSON nested deeper than \(limit) levels"
        case .tooManyValues(let limit): "JSON with more than \(limit) values"
        }
    }
}

/// A one-pass RFC 8259 parser into `JSONValue`, linear in the input and bounded by `JSONLimits`.
/// Integers that fit `Int` become `.int`, other numbers `.double` (magnitudes past `Double`'s range
/// clamp to its largest finite value rather than become infinities); strings with invalid UTF-8 keep
/// their valid parts (U+FFFD for the rest), as lenient as a reply parser should be; a later duplicate
/// key wins.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var position = 0
    private var values = 0

    static func parse(_ data: Data, limits: JSONLimits) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            return Result { () throws(JSONParseError) -> JSONValue in try parser.document() }
        }
        return try result.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes; self.limits = limits
    }

    private mutating func document() throws(JSONParseError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated at the very start.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        let value = try self.value(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw fail("unexpected text after the document") }
        return value
    }

    private func fail(_ reason: String) -> JSONParseError { .invalid(offset: position, reason: reason) }

    private mutating func count() throws(JSONParseError) {
        values += 1
        guard values <= limits.maxValues else { throw .tooManyValues(limit: limits.maxValues) }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw fail("the document ends where a value should start") }
        try count()
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count else { throw fail("truncated literal") }
        for i in 0..<expected.count where bytes[position + i] != expected[i] { throw fail("unknown literal") }
        position += expected.count
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth) }
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            items.append(try value(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw fail("unterminated array") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "]") { return .array(items) }
            guard byte == UInt8(ascii: ",") else { position -= 1; throw fail("expected , or ] in an array") }
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth) }
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a key string") }
            try count()
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected : after a key") }
            position += 1
            members[key] = try value(depth: depth)
            skipWhitespace()
            guard position < bytes.count else { throw fail("unterminated object") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "}") { return .object(members) }
            guard byte == UInt8(ascii: ",") else { position -= 1; throw fail("expected , or } in an object") }
        }
    }

    /// At the opening quote; leaves `position` after the closing one.
    private mutating func string() throws(JSONParseError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes, the bytes are the text.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                defer { position += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw fail("a control character inside a string") }
            position += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &buffer)
            case ..<0x20:
                position -= 1
                throw fail("a control character inside a string")
            default:
                buffer.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func escape(into buffer: inout [UInt8]) throws(JSONParseError) {
        guard position < bytes.count else { throw fail("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate pairs with an escaped low one; alone it stands for nothing.
                if bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                    let mark = position
                    position += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = mark
                        scalar = 0xFFFD
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00..<0xE000).contains(scalar) {
                scalar = 0xFFFD
            }
            buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        default:
            position -= 1
            throw fail("unknown escape")
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("bad hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard digits() > 0 else { throw fail("a number without digits") }
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1; integral = false
            guard digits() > 0 else { throw fail("no digits after the decimal point") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1; integral = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw fail("no digits in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if integral, text.utf8.count <= 20, let int = Int(text) { return .int(int) }
        guard let double = Double(text) else { throw fail("unreadable number") }
        if double.isInfinite { return .double(double < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude) }
        return .double(double)
    }

    private mutating func digits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - start
    }
}
