/// Arithmetic on caller-supplied sizes (`maxTokens`, context lengths, counts from a server): it clamps
/// at the ends of `Int` instead of trapping, so a request for `Int.max` tokens is refused by routing
/// (it fits no context) rather than crashing the process.
extension Int {
    public func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    public func saturatingMultiply(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
