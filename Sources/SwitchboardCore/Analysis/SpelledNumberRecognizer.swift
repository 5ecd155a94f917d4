/// Numbers read out digit by digit, in words or as single digits ("four one one one …", "oh seven
/// eight, oh five, …", "4 1 1 1 …"): a run of seven or more is checked as a card (Luhn, card words
/// before it), an SSN (valid ranges, SSN words before it) or a phone (phone words before it). Counting
/// ("one two three … nine") and lists of small numbers carry no such words and stay public.
package enum SpelledNumberRecognizer: Recognizer {
    package static let kinds: Set<EntityKind> = [.paymentCard, .nationalID, .phone]

    /// Digit words zero to nine, per language (accents as people type them; the normalizer drops them).
    /// Words that are also common function words ("un", "une", "en", "i") are left out.
    static let digitWords: [String] = [
        "zero one two three four five six seven eight nine",  // en
        "cero uno dos tres cuatro cinco seis siete ocho nueve",  // es
        "zéro _ deux trois quatre cinq six sept huit neuf",  // fr
        "null eins zwei drei vier fünf sechs sieben acht neun",  // de
        "zero uno due tre quattro cinque sei sette otto nove",  // it
        "zero um dois três quatro cinco seis sete oito nove",  // pt
        "nul één twee drie vier vijf zes zeven acht negen",  // nl
        "ноль один два три четыре пять шесть семь восемь девять",  // ru
        "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć",  // pl
        "sıfır bir iki üç dört beş altı yedi sekiz dokuz",  // tr
        "noll ett två tre fyra fem sex sju åtta nio",  // sv
    ]

    private static let values: [UInt64: UInt8] = {
        var table: [UInt64: UInt8] = [:]
        for line in digitWords {
            for (value, word) in line.split(separator: " ").enumerated() where word != "_" {
                let hash = Lexicon.hash(of: String(word))
                if table[hash] == nil { table[hash] = UInt8(value) }
            }
        }
        table[Lexicon.hash(of: "oh")] = 0
        return table
    }()

    package static func scan(_ text: TextScan, into findings: inout [Finding]) {
        guard !text.allFlags.isDisjoint(with: [.cardContext, .ssnContext, .phoneContext]) else { return }
        let words = text.words
        var digits: [UInt8] = []
        var runStart = 0
        var index = 0
        while index <= words.count {
            let value = index < words.count ? digit(text, words[index]) : nil
            let joined = index > runStart && index < words.count && separatedBySpacing(text, words[index - 1].end, words[index].start)
            if let value, digits.isEmpty || joined {
                if digits.isEmpty { runStart = index }
                digits.append(value)
            } else {
                if digits.count >= 7 { classify(text, digits, words: runStart..<index, into: &findings) }
                digits.removeAll(keepingCapacity: true)
                if let value { runStart = index; digits.append(value) }
            }
            index += 1
        }
    }

    private static func digit(_ text: TextScan, _ word: TextScan.Word) -> UInt8? {
        if word.isNumber, word.length == 1 { return text.bytes[word.start] &- 0x30 }
        guard word.isAlphabetic, word.length <= 16 else { return nil }
        return values[word.hash]
    }

    /// Only spaces, commas and dashes between the digits.
    private static func separatedBySpacing(_ text: TextScan, _ end: Int, _ start: Int) -> Bool {
        guard start - end <= 4 else { return false }
        for i in end..<start where !(text.bytes[i] == 0x20 || text.bytes[i] == 0x2C || text.bytes[i] == 0x2D) { return false }
        return true
    }

    private static func classify(_ text: TextScan, _ digits: [UInt8], words: Range<Int>, into findings: inout [Finding]) {
        let range = text.words[words.lowerBound].start..<text.words[words.upperBound - 1].end
        let context = { (flags: Lexicon) in text.hasWord(flags, before: words.lowerBound, within: 6) }
        if (13...19).contains(digits.count), NumberRecognizer.luhnValid(digits: digits), context(.cardContext) {
            findings.append(Finding(kind: .paymentCard, range: range))
        } else if digits.count == 9, context(.ssnContext),
                  NumberRecognizer.validSSN(area: Int(digits[0]) * 100 + Int(digits[1]) * 10 + Int(digits[2]),
                                            group: Int(digits[3]) * 10 + Int(digits[4]),
                                            serial: digits[5...].reduce(0) { $0 * 10 + Int($1) }) {
            findings.append(Finding(kind: .nationalID, range: range))
        } else if digits.count <= 15, context(.phoneContext) {
            findings.append(Finding(kind: .phone, range: range))
        }
    }
}
