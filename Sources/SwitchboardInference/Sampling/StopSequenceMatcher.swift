/// Watches generated text for stop sequences. Text that might be the start of a stop sequence is
/// held back until it is known not to be one, so a stop string is never emitted, even when it
/// arrives split across several pieces.
public struct StopSequenceMatcher: Sendable {
    public struct Emission: Sendable, Equatable {
        /// Text that is safe to show now.
        public var text: String
        /// The stop sequence that matched, if generation should end.
        public var stop: String?
        public var isStopped: Bool { stop != nil }
    }

    private let stops: [[UInt8]]
    private var pending: [UInt8] = []
    public private(set) var matched: String?

    /// Empty stop strings are ignored.
    public init(stopSequences: [String]) {
        stops = stopSequences.filter { !$0.isEmpty }.map { Array($0.utf8) }
    }

    /// Feeds the next piece. After a stop has matched, everything else is swallowed.
    public mutating func feed(_ piece: String) -> Emission {
        guard matched == nil else { return Emission(text: "", stop: matched) }
        pending += piece.utf8
        if let (position, stop) = earliestStop() {
            let text = String(decoding: pending[..<position], as: UTF8.self)
            pending.removeAll()
            matched = String(decoding: stop, as: UTF8.self)
            return Emission(text: text, stop: matched)
        }
        let safe = pending.count - longestPartialStop()
        let text = String(decoding: pending[..<safe], as: UTF8.self)
        pending.removeFirst(safe)
        return Emission(text: text, stop: nil)
    }

    /// Releases held-back text at the end of generation (it never became a stop sequence).
    public mutating func finish() -> String {
        defer { pending.removeAll() }
        return matched == nil ? String(decoding: pending, as: UTF8.self) : ""
    }

    /// The first position where any stop sequence starts (the shorter one wins when two start together).
    private func earliestStop() -> (Int, [UInt8])? {
        var best: (start: Int, stop: [UInt8])?
        for stop in stops where stop.count <= pending.count {
            let last = min(best?.start ?? Int.max, pending.count - stop.count)
            guard last >= 0 else { continue }
            for start in 0...last where pending[start] == stop[0] {
                guard pending[start..<(start + stop.count)].elementsEqual(stop) else { continue }
                if let current = best, start == current.start, stop.count >= current.stop.count { break }
                best = (start, stop)
                break
            }
        }
        return best.map { ($0.start, $0.stop) }
    }

    /// Length of the longest suffix of `pending` that is a proper prefix of some stop sequence.
    private func longestPartialStop() -> Int {
        var longest = 0
        for stop in stops {
            var length = min(stop.count - 1, pending.count)
            while length > longest {
                if pending[(pending.count - length)...].elementsEqual(stop[..<length]) {
                    longest = length
                    break
                }
                length -= 1
            }
        }
        return longest
    }
}
