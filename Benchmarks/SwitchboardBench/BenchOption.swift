/// One option a subcommand accepts, with how its value is read and the range it must fall in. Every
/// number is checked here, once, before a command runs: a value out of range is a usage error
/// (exit 64) with a message naming the option and its range, never a trap further on.
struct BenchOption: Sendable {
    enum Kind: Sendable {
        /// `--name`, no value.
        case flag
        /// `--name TEXT`: any text, even one starting with `-`.
        case text
        case integer(ClosedRange<Int>)
        /// Seeds: the whole `UInt64` range, no negatives.
        case unsigned(ClosedRange<UInt64>)
        /// Finite numbers only: `inf`, `nan` and `1e300` are refused by the range.
        case number(ClosedRange<Double>)
    }

    var name: String
    var kind: Kind

    static func flag(_ name: String) -> BenchOption { BenchOption(name: name, kind: .flag) }
    static func text(_ name: String) -> BenchOption { BenchOption(name: name, kind: .text) }
    static func integer(_ name: String, _ range: ClosedRange<Int>) -> BenchOption { BenchOption(name: name, kind: .integer(range)) }
    static func seed(_ name: String = "seed") -> BenchOption { BenchOption(name: name, kind: .unsigned(0...UInt64.max)) }
    static func number(_ name: String, _ range: ClosedRange<Double>) -> BenchOption { BenchOption(name: name, kind: .number(range)) }

    var takesValue: Bool { if case .flag = kind { false } else { true } }

    /// Why `value` is not acceptable, or nil.
    func problem(with value: String) -> String? {
        switch kind {
        case .flag, .text:
            return nil
        case .integer(let range):
            guard let number = Int(value), range.contains(number) else {
                return "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), got '\(Self.shown(value))'"
            }
        case .unsigned(let range):
            guard let number = UInt64(value), range.contains(number) else {
                return "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), got '\(Self.shown(value))'"
            }
        case .number(let range):
            guard let number = Double(value), number.isFinite, range.contains(number) else {
                return "--\(name) takes a number from \(range.lowerBound) to \(range.upperBound), got '\(Self.shown(value))'"
            }
        }
        return nil
    }

    /// A value echoed in an error: short, on one line (a mistyped value may be a pasted secret).
    static func shown(_ value: String) -> String {
        let line = value.prefix { $0 != "\n" && $0 != "\r" }
        return line.count > 24 || line.count < value.count ? String(line.prefix(24)) + "…" : String(line)
    }
}

/// Options several subcommands share.
extension BenchOption {
    static let localModel: [BenchOption] = [.text("model"), .text("chat-model"), .integer("threads", 1...256)]
}

/// A command line that does not fit a subcommand's options; `switchboard-bench` exits with 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var description: String
}
