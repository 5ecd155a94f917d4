/// A number being written: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`, within the node's bounds. A
/// digit is accepted only if some completion of the number still lands in [minimum, maximum], so
/// the number can always be finished in range. Digit counts are capped so a model cannot loop.
struct JSONNumberState: Sendable, Equatable {
    enum Phase: Sendable, Equatable { case sign, zero, integer, point, fraction, exponentMark, exponentSign, exponent }

    var phase: Phase
    var negative = false
    var digits = 0
    /// The absolute value written so far (integer part, then with the fraction).
    var magnitude: Double = 0
    var fractionDigits = 0
    var exponentDigits = 0

    struct Bounds: Sendable {
        var minimum: Double
        var maximum: Double
        var isInteger: Bool
        /// Integers only: the value is a multiple of `step` (1 for any integer).
        var step: Double = 1
        var allowsExponent: Bool { !isInteger && minimum == -.infinity && maximum == .infinity }
    }

    /// The state after a number's first byte (`-` or a digit), or nil when it cannot start so.
    static func start(_ byte: UInt8, _ bounds: Bounds) -> JSONNumberState? {
        var state = JSONNumberState(phase: .sign)
        if byte == UInt8(ascii: "-") {
            guard bounds.minimum < 0 else { return nil }
            state.negative = true
            return state.feasible(bounds) ? state : nil
        }
        return state.feed(byte, bounds) ? state : nil
    }

    /// Consumes `byte` if it continues the number in range; false leaves the state unusable.
    mutating func feed(_ byte: UInt8, _ bounds: Bounds) -> Bool {
        let isDigit = byte >= 0x30 && byte <= 0x39
        let digit = Double(byte &- 0x30)
        switch (phase, byte) {
        case (.sign, _) where isDigit:
            phase = byte == 0x30 ? .zero : .integer
            digits = 1
            magnitude = digit
        case (.integer, _) where isDigit:
            guard digits < GrammarTable.maxIntegerDigits else { return false }
            digits += 1
            magnitude = magnitude * 10 + digit
        case (.zero, UInt8(ascii: ".")), (.integer, UInt8(ascii: ".")):
            guard !bounds.isInteger else { return false }
            phase = .point
        case (.point, _) where isDigit, (.fraction, _) where isDigit:
            guard fractionDigits < GrammarTable.maxFractionDigits else { return false }
            fractionDigits += 1
            magnitude += digit * Self.tenth(fractionDigits)
            phase = .fraction
        case (.zero, UInt8(ascii: "e")), (.zero, UInt8(ascii: "E")), (.integer, UInt8(ascii: "e")),
             (.integer, UInt8(ascii: "E")), (.fraction, UInt8(ascii: "e")), (.fraction, UInt8(ascii: "E")):
            guard bounds.allowsExponent else { return false }
            phase = .exponentMark
            return true
        case (.exponentMark, UInt8(ascii: "+")), (.exponentMark, UInt8(ascii: "-")):
            phase = .exponentSign
            return true
        case (.exponentMark, _) where isDigit, (.exponentSign, _) where isDigit, (.exponent, _) where isDigit:
            guard exponentDigits < 2 else { return false }
            exponentDigits += 1
            phase = .exponent
            return true
        default:
            return false
        }
        return feasible(bounds)
    }

    /// Whether the number may end here.
    func isComplete(_ bounds: Bounds) -> Bool {
        switch phase {
        case .zero, .integer, .fraction: inRange(bounds)
        case .exponent: true
        case .sign, .point, .exponentMark, .exponentSign: false
        }
    }

    /// Bytes still needed to end the number in range (an upper bound where fractions are involved).
    func closingCost(_ bounds: Bounds) -> Int {
        if isComplete(bounds) { return 0 }
        let fractionPath = 1 + GrammarTable.maxFractionDigits
        let (a, b) = magnitudeRange(bounds)
        switch phase {
        case .exponentMark, .exponentSign: return 1
        case .sign:
            for k in 1...GrammarTable.maxIntegerDigits {
                let low = k == 1 ? 0 : Self.power(k - 1)
                if Self.overlaps(low, Self.power(k) - 1, a, b, bounds.step) { return k }
            }
            return 2 + fractionPath
        case .integer:
            for k in 1...max(1, GrammarTable.maxIntegerDigits - digits) {
                if Self.overlaps(magnitude * Self.power(k), (magnitude + 1) * Self.power(k) - 1, a, b, bounds.step) { return k }
            }
            return fractionPath
        case .zero: return fractionPath
        case .point, .fraction: return GrammarTable.maxFractionDigits - fractionDigits
        case .exponent: return 0
        }
    }

    /// Some completion of what was written lands in range.
    func feasible(_ bounds: Bounds) -> Bool {
        let (a, b) = magnitudeRange(bounds)
        guard a <= b else { return false }
        let fractions = !bounds.isInteger
        switch phase {
        case .sign: return Self.overlaps(0, Self.power(GrammarTable.maxIntegerDigits) - 1, a, b,
                                         bounds.isInteger ? bounds.step : 1) || (fractions && a < 1)
        case .zero: return a == 0 || (fractions && a < 1)
        case .integer:
            if Self.overlaps(magnitude, magnitude, a, b, bounds.step) { return true }
            if fractions, magnitude < b, magnitude + 1 > a { return true }
            for k in stride(from: 1, through: GrammarTable.maxIntegerDigits - digits, by: 1) {
                let low = magnitude * Self.power(k), high = (magnitude + 1) * Self.power(k) - 1
                if low > b { return false }
                if Self.overlaps(low, high, a, b, bounds.step) { return true }
            }
            return false
        case .point: return magnitude <= b && magnitude + 1 > a
        case .fraction:
            if fractionDigits == GrammarTable.maxFractionDigits { return Self.overlaps(magnitude, magnitude, a, b) }
            return magnitude <= b && magnitude + Self.tenth(fractionDigits) > a
        case .exponentMark, .exponentSign, .exponent: return true
        }
    }

    private func inRange(_ bounds: Bounds) -> Bool {
        let value = negative ? -magnitude : magnitude
        guard bounds.step <= 1 || magnitude.truncatingRemainder(dividingBy: bounds.step) == 0 else { return false }
        return value >= bounds.minimum && value <= bounds.maximum
    }

    /// The magnitudes allowed for this sign: [a, b] (whole numbers for integers).
    private func magnitudeRange(_ bounds: Bounds) -> (Double, Double) {
        var a = negative ? max(0, -bounds.maximum) : max(0, bounds.minimum)
        var b = negative ? -bounds.minimum : bounds.maximum
        if negative, bounds.maximum >= 0 { a = 0 }
        if bounds.isInteger { a = a.rounded(.up); b = b.rounded(.down) }
        return (a, b)
    }

    private static func overlaps(_ low: Double, _ high: Double, _ a: Double, _ b: Double, _ step: Double = 1) -> Bool {
        guard low <= b, high >= a else { return false }
        guard step > 1 else { return true }
        // Some multiple of `step` lies in the overlap (integers only; exact below 2^53).
        return (max(low, a) / step).rounded(.up) * step <= min(high, b)
    }

    private static func power(_ k: Int) -> Double {
        var result = 1.0
        for _ in 0..<k { result *= 10 }
        return result
    }

    private static func tenth(_ k: Int) -> Double { 1 / power(k) }
}
