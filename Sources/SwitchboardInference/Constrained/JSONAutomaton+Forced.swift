/// Jump-forward: text the schema leaves no choice about is drafted from the schema (the model still
/// confirms every drafted token, so the output is what token-by-token decoding gives).
extension JSONAutomaton {
    /// The bytes the document continues with whatever the model picks, up to `limit`: while exactly
    /// one printable byte other than whitespace may come next. Whitespace between tokens is the
    /// model's choice: where it may come, the draft writes what `spacing` (the document so far)
    /// wrote at such a gap, and stops at a gap it has not seen.
    func forcedBytes(limit: Int, spacing: JSONSpacing = JSONSpacing()) -> [UInt8] {
        var state = self, spacing = spacing, bytes: [UInt8] = []
        while bytes.count < limit, !state.isFinished {
            var only: (byte: UInt8, state: JSONAutomaton)?
            for byte in UInt8(0x21)...UInt8(0x7E) {
                var trial = state
                guard trial.feed(byte) else { continue }
                if only != nil { return bytes }
                only = (byte, trial)
            }
            guard var only else { return bytes }
            if !spacing.inString, spacing.last != nil, state.allowsWhitespace {
                guard let gap = spacing.whitespace(before: only.byte), bytes.count + gap.count < limit else { return bytes }
                var spaced = state
                guard spaced.feed(gap), spaced.feed(only.byte) else { return bytes }
                bytes += gap
                spacing.feed(gap)
                only.state = spaced
            }
            bytes.append(only.byte)
            spacing.feed(only.byte)
            state = only.state
        }
        return bytes
    }

    /// Whether a space or a newline may come next (between tokens, not inside a string).
    var allowsWhitespace: Bool {
        var space = self, newline = self
        return space.feed(UInt8(ascii: " ")) || newline.feed(UInt8(ascii: "\n"))
    }
}
