/// Language and complexity evidence summed over every text of a request.
package struct TextSignals: Sendable, Hashable {
    package var scripts = ScriptCounts()
    package var english = 0, spanish = 0, french = 0, german = 0
    package var stepCues = 0, codeCues = 0
    package var codeFences = 0, braces = 0, semicolons = 0
    package var bytes = 0

    package init() {}

    package mutating func add(_ text: TextScan) {
        bytes += text.bytes.count
        let s = text.scripts
        scripts.han += s.han; scripts.kana += s.kana; scripts.cyrillic += s.cyrillic
        scripts.arabic += s.arabic; scripts.hangul += s.hangul; scripts.otherNonLatin += s.otherNonLatin
        for word in text.words where !word.lexicon.isEmpty {
            let l = word.lexicon
            if l.contains(.english) { english += 1 }
            if l.contains(.spanish) { spanish += 1 }
            if l.contains(.french) { french += 1 }
            if l.contains(.german) { german += 1 }
            if l.contains(.stepCue) { stepCues += 1 }
            if l.contains(.codeCue) { codeCues += 1 }
        }
        var backticks = 0
        for byte in text.bytes {
            switch byte {
            case 0x60: backticks += 1; if backticks == 3 { codeFences += 1; backticks = 0 }
            case 0x7B: braces += 1; backticks = 0
            case 0x3B: semicolons += 1; backticks = 0
            default: backticks = 0
            }
        }
    }

    /// "zh", "ja", "ru", "ar", "ko" by script; "en", "es", "fr", "de" by stopwords; else "und".
    package var language: String {
        let nonLatin = scripts.total
        let latinWords = english + spanish + french + german
        if nonLatin > 0, nonLatin * 2 >= latinWords {
            if scripts.kana > 0, scripts.kana + scripts.han >= max(scripts.cyrillic, scripts.arabic, scripts.hangul) { return "ja" }
            let best = max(scripts.han, scripts.cyrillic, scripts.arabic, scripts.hangul)
            if best == 0 { return "und" }
            if best == scripts.han { return "zh" }
            if best == scripts.cyrillic { return "ru" }
            if best == scripts.arabic { return "ar" }
            return "ko"
        }
        // Shared words ("de", "la") must not tip a tie: ties go to the earlier language in the list.
        let top = max(english, spanish, french, german)
        if top == 0 { return "und" }
        return top == english ? "en" : top == spanish ? "es" : top == french ? "fr" : "de"
    }

    /// Length, code and multi-step cues: 0 points simple, 1–2 moderate, 3+ complex.
    package func complexity(messageCount: Int) -> Complexity {
        var points = 0
        if bytes > 1500 { points += 2 } else if bytes > 300 { points += 1 }
        if codeFences > 0 || codeCues >= 2 || (braces > 0 && semicolons > 0) { points += 1 }
        if stepCues >= 4 { points += 2 } else if stepCues >= 2 { points += 1 }
        if messageCount > 6 { points += 1 }
        switch points {
        case 0: return .simple
        case 1...2: return .moderate
        default: return .complex
        }
    }
}
