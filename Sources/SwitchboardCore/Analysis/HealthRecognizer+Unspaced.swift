extension HealthRecognizer {
    private struct Phrases {
        var conditions: [[UInt8]], personCues: [[UInt8]], clinicalCues: [[UInt8]]
    }

    private static let unspaced: [Phrases] = HealthLanguage.all.filter { !$0.conditions.isEmpty }.map { language in
        Phrases(conditions: language.conditions.map { Array($0.utf8) }, personCues: language.personCues.map { Array($0.utf8) },
                clinicalCues: language.clinicalCues.map { Array($0.utf8) })
    }

    /// Languages written without spaces: a condition or drug, and in the same text a person cue ("我有",
    /// "私", "母") or a clinical cue ("诊断", "診断されました").
    static func scanUnspaced(_ text: TextScan, into findings: inout [Finding]) {
        guard text.scripts.han + text.scripts.kana > 0 else { return }
        for language in unspaced {
            guard let condition = firstMatch(text, language.conditions) else { continue }
            if firstMatch(text, language.personCues) != nil || firstMatch(text, language.clinicalCues) != nil {
                findings.append(Finding(kind: .health, range: condition))
                return
            }
        }
    }

    private static func firstMatch(_ text: TextScan, _ phrases: [[UInt8]]) -> Range<Int>? {
        for phrase in phrases {
            guard let first = phrase.first, phrase.count <= text.bytes.count else { continue }
            var i = 0
            while i + phrase.count <= text.bytes.count {
                if text.bytes[i] == first, SecretRecognizer.hasPrefix(text, phrase, at: i) { return i..<(i + phrase.count) }
                i += 1
            }
        }
        return nil
    }
}
