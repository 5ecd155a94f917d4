/// A JSON number read exactly as a decimal: `digits × 10^exponent`, so bounds, `multipleOf` and
/// equality (1 == 1.0 == 10e-1) are decided without rounding, whatever size the number has.
/// The exponent saturates far beyond any digit count a document can hold, so no text traps.
struct JSONDecimal: Sendable, Comparable {
    var negative: Bool
    /// Significant decimal digits, most significant first, no leading or trailing zeros (empty for 0).
    var digits: [UInt8]
    var exponent: Int

    var isZero: Bool { digits.isEmpty }
    /// The value has no fractional part.
    var isInteger: Bool { exponent >= 0 }

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0
        negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var mantissa: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { mantissa.append(bytes[i] - 0x30); i += 1; sawDigit = true }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                mantissa.append(bytes[i] - 0x30); exponent -= 1; i += 1; sawDigit = true
            }
        }
        guard sawDigit else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var sign = 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
            }
            var value = 0
            var any = false
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                value = min(value * 10 + Int(bytes[i] - 0x30), 1 << 40)
                i += 1; any = true
            }
            guard any else { return nil }
            exponent += sign * value
        }
        guard i == bytes.count else { return nil }
        while mantissa.first == 0 { mantissa.removeFirst() }
        while mantissa.last == 0 { mantissa.removeLast(); exponent += 1 }
        digits = mantissa
        self.exponent = mantissa.isEmpty ? 0 : exponent
        if mantissa.isEmpty { negative = false }
    }

    init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init("\(value)")
    }

    /// Position of the most significant digit (10^magnitude), for comparison.
    private var magnitude: Int { digits.count + exponent }

    static func < (a: JSONDecimal, b: JSONDecimal) -> Bool {
        if a.negative != b.negative { return a.negative }
        let less = magnitudeLess(a, b)
        return a.negative ? magnitudeLess(b, a) : less
    }

    static func == (a: JSONDecimal, b: JSONDecimal) -> Bool {
        a.negative == b.negative && a.digits == b.digits && a.exponent == b.exponent
    }

    private static func magnitudeLess(_ a: JSONDecimal, _ b: JSONDecimal) -> Bool {
        if a.isZero || b.isZero { return a.isZero && !b.isZero }
        if a.magnitude != b.magnitude { return a.magnitude < b.magnitude }
        for i in 0..<max(a.digits.count, b.digits.count) {
            let x = i < a.digits.count ? a.digits[i] : 0, y = i < b.digits.count ? b.digits[i] : 0
            if x != y { return x < y }
        }
        return false
    }

    /// Whether `self` is an integer multiple of `divisor` (> 0), exactly. Decided on the digits:
    /// `a·10^p` is a multiple of `b·10^q` when `a·10^(p-e)` mod `b·10^(q-e)` is 0, `e = min(p, q)`.
    /// A divisor of more than 17 digits, or a shift beyond 100,000 digits, falls back to Doubles.
    func isMultiple(of divisor: JSONDecimal) -> Bool {
        guard !divisor.isZero else { return false }
        if isZero { return true }
        let e = min(exponent, divisor.exponent)
        let shiftA = exponent - e, shiftB = divisor.exponent - e
        guard divisor.digits.count + shiftB <= 17, digits.count + shiftA <= 100_000 else {
            guard let x = Double(text), let m = Double(divisor.text) else { return false }
            let q = x / m
            return q.isFinite && q == q.rounded()
        }
        var modulus: UInt64 = 0
        for d in divisor.digits { modulus = modulus * 10 + UInt64(d) }
        for _ in 0..<shiftB { modulus *= 10 }
        var remainder: UInt64 = 0
        for d in digits { remainder = (remainder * 10 + UInt64(d)) % modulus }
        for _ in 0..<shiftA { remainder = (remainder * 10) % modulus }
        return remainder == 0
    }

    var text: String {
        if isZero { return "0" }
        return (negative ? "-" : "") + digits.map { String($0) }.joined() + "e" + String(exponent)
    }
}

extension GeneratedContent {
    /// JSON Schema equality: numbers by value (1 == 1.0), objects regardless of member order.
    func jsonEquals(_ other: GeneratedContent) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        // Code point by code point: Swift's `==` would equate canonically equivalent strings.
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.number(let a), .number(let b)):
            guard let x = JSONDecimal(a), let y = JSONDecimal(b) else { return a == b }
            return x == y
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.jsonEquals($1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.contains { $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) && $0.value.jsonEquals(member.value) }
            }
        default: return false
        }
    }
}
