extension ScalarSpan {
    /// The Llama 3 pattern (Qwen2's with `maxDigits` 1) as llama.cpp's
    /// `unicode_regex_split_custom_llama3` scans it.
    func splitLlama3(from start: Int, maxDigits: Int, into ends: inout [Int]) {
        var pos = start
        var last = start
        func cut() {
            if pos > last { ends.append(pos) }
            last = pos
        }
        while pos < end {
            let c = scalars[pos], flags = classes[pos]
            let contraction = contractionLength(at: pos, foldCase: true)
            if contraction > 0 {
                pos += contraction
                cut()
                continue
            }
            // `[^\r\n\p{L}\p{N}]?\p{L}+`
            if !(c == 0x0A || c == 0x0D || flags & ScalarClass.number != 0),
               flags & ScalarClass.letter != 0 || cls(pos + 1) & ScalarClass.letter != 0 {
                pos += 1
                while cls(pos) & ScalarClass.letter != 0 { pos += 1 }
                cut()
                continue
            }
            // `\p{N}{1,maxDigits}`
            if flags & ScalarClass.number != 0 {
                var groupStart = pos
                while cls(pos) & ScalarClass.number != 0 {
                    pos += 1
                    if pos - groupStart >= maxDigits {
                        cut()
                        groupStart = pos
                    }
                }
                cut()
                continue
            }
            // ` ?[^\s\p{L}\p{N}]+[\r\n]*` (llama.cpp tests the current character for presence here)
            let lead = c == 0x20 ? cls(pos + 1) : flags
            if lead & (ScalarClass.letter | ScalarClass.number | ScalarClass.whitespace) == 0 {
                if c == 0x20 { pos += 1 }
                while ScalarClass.isOther(cls(pos)) { pos += 1 }
                while isLineBreak(pos) { pos += 1 }
                cut()
                continue
            }
            // `\s*[\r\n]+`, then `\s+(?!\S)`, then `\s+`
            var run = 0, afterLastBreak = 0
            while cls(pos + run) & ScalarClass.whitespace != 0 {
                if isLineBreak(pos + run) { afterLastBreak = pos + run + 1 }
                run += 1
            }
            if afterLastBreak > 0 {
                pos = afterLastBreak
            } else {
                pos += run > 1 && pos + run < end ? run - 1 : max(run, 1)
            }
            cut()
        }
    }
}
