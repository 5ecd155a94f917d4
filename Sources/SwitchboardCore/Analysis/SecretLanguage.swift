/// "Password" in the languages people write it in, beyond the lexicon's English, Spanish, French,
/// German and Russian (and the unspaced scripts `SecretRecognizer+Unspaced` reads): a stated value after
/// one of these words is a password. Words are hashed as the scanner hashes them (accents dropped).
enum SecretLanguage {
    static let passwordWords = """
        senha senhas wachtwoord haslo hasla sifre sifrem sifreniz sifresi parola parolam parolei losenord losenordet \
        adgangskode passord passordet kodeord salasana salasanani salasanasi heslo hesla jelszo jelszavam jelszava \
        κωδικος κωδικό κωδικο κωδικός συνθηματικο пароль пароля паролі гасло лозинка лозинката парола \
        पासवर्ड कूटशब्द পাসওয়ার্ড المرور السر رمز کلمه عبور סיסמה סיסמא sandi katasandi khau mậtkhẩu khẩu nenosiri \
        contrasenya contrasinal pasahitza wachtwoorden passwoord lozinka geslo slaptazodis parole paroli \
        mdp motdepasse kennwort passwort contraseña clave
        """

    private static let hashes = WordSet(passwordWords)

    static func isPasswordWord(hash: UInt64) -> Bool { hashes.contains(hash) }

    /// Small words between the keyword and its value ("é", "è", "is", "je", "jest", "är", "của tôi là",
    /// "saya", "to"): at most three, each short and without digits.
    static let maxFillers = 3
}

extension SecretRecognizer {
    /// "minha senha é abacaxi42", "mijn wachtwoord is Fietsen88", "şifrem: Istanbul34", "كلمة المرور: Cairo2021x":
    /// a password word of `SecretLanguage`, up to three short filler words or a ':' / '=', then a value
    /// shaped like a password (letters with a later digit or symbol) or a high-entropy key.
    static func scanMultilingualPasswords(_ text: TextScan, into findings: inout [Finding]) {
        let words = text.words
        for index in words.indices where words[index].letters >= 3 && SecretLanguage.isPasswordWord(hash: words[index].hash) {
            let word = words[index]
            var k = index + 1, fillers = 0
            while k < words.count, words[k].sentence == word.sentence, fillers <= SecretLanguage.maxFillers {
                let candidate = words[k]
                // The value runs to the next space (symbols included).
                let end = runEnd(text, from: candidate.start)
                var value = candidate.start..<end
                while value.count > 0, [0x2E, 0x2C, 0x3B, 0x22, 0x27, 0x29].contains(text.bytes[value.upperBound - 1]) {
                    value = value.lowerBound..<(value.upperBound - 1)
                }
                if (looksLikePassword(text, value) || isHighEntropyKey(text, value)) && !SecretPlaceholder.isPlaceholder(text.bytes[value]) {
                    findings.append(Finding(kind: .secret, range: word.start..<value.upperBound, recognizer: "secret:password-word"))
                    break
                }
                guard candidate.digits == 0, candidate.length <= 8 else { break }
                fillers += 1; k += 1
            }
        }
    }
}
