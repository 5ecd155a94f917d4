/// One pre-tokenizer span of decoded text: scalars with their classes, read as llama.cpp's splitters
/// read them (past `end` there is no character: class 0, scalar `outside`). Each splitter appends the
/// end index of every piece it cuts to `ends`.
struct ScalarSpan {
    let scalars: UnsafeBufferPointer<UInt32>
    let classes: UnsafeBufferPointer<UInt8>
    let end: Int

    static let outside = UInt32.max

    @inline(__always) func cls(_ i: Int) -> UInt8 { i < end ? classes[i] : 0 }
    @inline(__always) func cpt(_ i: Int) -> UInt32 { i < end ? scalars[i] : Self.outside }
    @inline(__always) func isLineBreak(_ i: Int) -> Bool { let c = cpt(i); return c == 0x0A || c == 0x0D }

    /// Length of `'s|'t|'re|'ve|'m|'ll|'d` at `pos` (0 when none), optionally case-insensitive.
    func contractionLength(at pos: Int, foldCase: Bool) -> Int {
        guard scalars[pos] == 0x27, pos + 1 < end else { return 0 }
        func folded(_ i: Int) -> UInt32 {
            let c = cpt(i)
            return foldCase && (0x41...0x5A).contains(c) ? c + 0x20 : c
        }
        let first = folded(pos + 1)
        if first == 0x73 || first == 0x74 || first == 0x6D || first == 0x64 { return 2 }  // s t m d
        guard pos + 2 < end else { return 0 }
        let pair = (first, folded(pos + 2))
        return pair == (0x72, 0x65) || pair == (0x76, 0x65) || pair == (0x6C, 0x6C) ? 3 : 0  // re ve ll
    }

    /// Number of whitespace characters starting at `pos`.
    func whitespaceRun(at pos: Int) -> Int {
        var n = 0
        while cls(pos + n) & ScalarClass.whitespace != 0 { n += 1 }
        return n
    }

    /// `\p{N}` as a regex split: each number character is a piece, and so is each run between them.
    func splitEachNumber(from start: Int, into ends: inout [Int]) {
        var pos = start
        while pos < end {
            if classes[pos] & ScalarClass.number != 0 {
                pos += 1
            } else {
                while pos < end, classes[pos] & ScalarClass.number == 0 { pos += 1 }
            }
            ends.append(pos)
        }
    }

    /// GPT-2's pattern as llama.cpp's `unicode_regex_split_custom_gpt2` scans it.
    func splitGPT2(from start: Int, into ends: inout [Int]) {
        var pos = start
        while pos < end {
            let contraction = contractionLength(at: pos, foldCase: false)
            if contraction > 0 {
                pos += contraction
                ends.append(pos)
                continue
            }
            let isSpace = scalars[pos] == 0x20
            let lead = isSpace ? cls(pos + 1) : classes[pos]
            if lead & (ScalarClass.letter | ScalarClass.number) != 0 || ScalarClass.isOther(lead) {
                // ` ?\p{L}+`, ` ?\p{N}+` or ` ?[^\s\p{L}\p{N}]+`: the run of the first character's kind.
                if isSpace { pos += 1 }
                let kind = lead & (ScalarClass.letter | ScalarClass.number)
                if kind != 0 {
                    while cls(pos) & kind != 0 { pos += 1 }
                } else {
                    while ScalarClass.isOther(cls(pos)) { pos += 1 }
                }
            } else {
                // `\s+(?!\S)` leaves the last space of a run before text to the next piece; else `\s+`.
                let run = whitespaceRun(at: pos)
                pos += run > 1 && pos + run < end ? run - 1 : max(run, 1)
            }
            ends.append(pos)
        }
    }
}
