extension SecretRecognizer {
    private static let userFlag = Array("-u ".utf8), longUserFlag = Array("--user ".utf8)

    /// `mysql -pX`, `mysql -p X`, `sshpass -p X`, `docker login -p X` (only on a line naming such a tool:
    /// elsewhere `-p` is a port or a path), and `curl -u user:password`.
    static func scanCommandLines(_ text: TextScan, into findings: inout [Finding]) {
        let passwordTool = text.allFlags.contains(.passwordFlagTool), userTool = text.allFlags.contains(.userFlagTool)
        guard passwordTool || userTool else { return }
        var i = 1
        while i + 2 < text.bytes.count {
            defer { i += 1 }
            guard text.bytes[i] == 0x2D, ByteClass.isWhitespace(text.bytes[i - 1]) else { continue }
            if passwordTool, text.bytes[i + 1] == 0x70, lineHasTool(text, around: i, flag: .passwordFlagTool),
               let value = flagValue(text, from: i + 2) {
                findings.append(Finding(kind: .secret, range: i..<value.upperBound))
            } else if userTool, hasPrefix(text, userFlag, at: i) || hasPrefix(text, longUserFlag, at: i),
                      lineHasTool(text, around: i, flag: .userFlagTool) {
                let start = i + (text.bytes[i + 1] == 0x2D ? longUserFlag.count : userFlag.count)
                let end = runEnd(text, from: start)
                if let colon = text.bytes[start..<end].firstIndex(of: 0x3A), colon > start, colon + 1 < end {
                    findings.append(Finding(kind: .secret, range: i..<end))
                }
            }
        }
    }

    /// The password glued to `-p` or after one space, unquoted or quoted; not another flag or a filler word.
    private static func flagValue(_ text: TextScan, from start: Int) -> Range<Int>? {
        var i = start
        if text.at(i) == 0x20 { i += 1 } else if !isKeyByte(text.at(i)) && !isQuote(text.at(i)) { return nil }
        if isQuote(text.at(i)) { i += 1 }
        guard text.at(i) != 0x2D else { return nil }
        var end = runEnd(text, from: i)
        while end > i, isQuote(text.bytes[end - 1]) { end -= 1 }
        guard end - i >= 3, !SecretPlaceholder.isPlaceholder(text.bytes[i..<end]) else { return nil }
        let word = text.wordIndex(atOrAfter: i)
        if word < text.words.count, text.words[word].start == i, text.words[word].end == end,
           !text.words[word].lexicon.isDisjoint(with: [.notAValue, .english]) { return nil }
        return i..<end
    }

    /// The tool named earlier on the same line, within 32 words (bounded, so a long line stays linear).
    private static func lineHasTool(_ text: TextScan, around offset: Int, flag: Lexicon) -> Bool {
        var index = min(text.wordIndex(atOrAfter: offset), text.words.count) - 1
        let stop = index - 32
        while index >= 0, index > stop {
            let word = text.words[index]
            if text.bytes[word.end..<offset].contains(0x0A) { return false }
            if word.lexicon.contains(flag) { return true }
            index -= 1
        }
        return false
    }
}
