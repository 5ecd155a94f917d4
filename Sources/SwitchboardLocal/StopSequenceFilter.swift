/// Cuts generated text at the first stop sequence. Text that might be the start of a stop sequence is
/// held back until the next piece decides it, so no part of a stop sequence reaches the caller.
struct StopSequenceFilter: Sendable {
    private let stops: [String]
    private var held = ""
    private(set) var stopped = false

    init(_ stops: [String]) { self.stops = stops.filter { !$0.isEmpty } }

    /// Returns the text that is safe to emit now.
    mutating func feed(_ piece: String) -> String {
        guard !stopped else { return "" }
        guard !stops.isEmpty else { return piece }
        held += piece
        if let cut = stops.compactMap({ held.range(of: $0)?.lowerBound }).min() {
            stopped = true
            let out = String(held[..<cut])
            held = ""
            return out
        }
        let keep = longestPendingSuffix()
        let out = String(held.dropLast(keep))
        held = String(held.suffix(keep))
        return out
    }

    /// Emits whatever is held when generation ends without a stop.
    mutating func flush() -> String {
        defer { held = "" }
        return stopped ? "" : held
    }

    /// Characters at the end of `held` that begin some stop sequence.
    private func longestPendingSuffix() -> Int {
        var best = 0
        for stop in stops {
            var length = min(stop.count - 1, held.count)
            while length > best {
                if stop.hasPrefix(held.suffix(length)) { best = length; break }
                length -= 1
            }
        }
        return best
    }
}
