import Testing
import SwitchboardCore

@Suite struct TerminalTextTests {
    @Test func controlCharactersOtherThanNewlineAndTabAreEscaped() {
        #expect(TerminalText.escaped("plain\ttext\nnext") == "plain\ttext\nnext")
        #expect(TerminalText.escaped("\u{1B}[2Jgone") == "\\u{1B}[2Jgone")
        #expect(TerminalText.escaped("a\rb\u{7}c\u{7F}\u{9B}d") == "a\\u{D}b\\u{7}c\\u{7F}\\u{9B}d")
        #expect(TerminalText.escaped("\u{202E}evil") == "\\u{202E}evil")
        #expect(TerminalText.escaped("é 日本 🙂") == "é 日本 🙂")
    }
}
