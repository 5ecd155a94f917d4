/// Jump-forward: text the schema leaves no choice about is drafted from the schema (the model still
/// confirms every drafted token, so the output is what token-by-token decoding gives).
extension JSONAutomaton {
    /// The bytes the document continues with whatever the model picks, up to `limit` (jump-forward):
    /// while exactly one printable byte may come next, apart from whitespace, which is the model's
    /// choice between tokens (a draft that guessed it wrong is just not confirmed).
    func forcedBytes(limit: Int) -> [UInt8] {
        var state = self, bytes: [UInt8] = []
        while bytes.count < limit, !state.isFinished {
            var only: (byte: UInt8, state: JSONAutomaton)?
            for byte in UInt8(0x21)...UInt8(0x7E) {
                var trial = state
                guard trial.feed(byte) else { continue }
                if only != nil { return bytes }
                only = (byte, trial)
            }
            guard let only else { return bytes }
            bytes.append(only.byte)
            state = only.state
        }
        return bytes
    }
}
