import Testing
@testable import SwitchboardInference

@Suite("Stop sequence matcher")
struct SamplerStopSequenceTests {
    @Test func holdsBackPartialMatchesAcrossPieces() {
        var matcher = StopSequenceMatcher(stopSequences: ["<end>", "\n\nUser:"])
        #expect(matcher.feed("Hello <e") == .init(text: "Hello ", stop: nil))
        #expect(matcher.feed("n") == .init(text: "", stop: nil))
        #expect(matcher.feed("d> more") == .init(text: "", stop: "<end>"))
        #expect(matcher.feed("ignored") == .init(text: "", stop: "<end>"))
        #expect(matcher.finish() == "")
    }

    @Test func releasesFalseStarts() {
        var matcher = StopSequenceMatcher(stopSequences: ["<end>"])
        #expect(matcher.feed("a <e").text == "a ")
        #expect(matcher.feed("xit").text == "<exit")
        #expect(matcher.feed("<").text == "")
        #expect(matcher.finish() == "<")
    }

    @Test func stopInsideOnePieceEmitsOnlyTheTextBefore() {
        var matcher = StopSequenceMatcher(stopSequences: ["STOP", "ST"])
        let emission = matcher.feed("abcSTOPdef")
        #expect(emission.text == "abc")
        #expect(emission.stop == "ST", "two stops starting together: the shorter ends first")
        #expect(emission.isStopped && matcher.matched == "ST")
    }

    @Test func earliestStopWins() {
        var matcher = StopSequenceMatcher(stopSequences: ["zz", "b"])
        #expect(matcher.feed("a b zz") == .init(text: "a ", stop: "b"))
    }

    @Test func multiByteTextAndNoStops() {
        var matcher = StopSequenceMatcher(stopSequences: ["🛑", ""])
        #expect(matcher.feed("日本").text == "日本")
        #expect(matcher.feed("語🛑x") == .init(text: "語", stop: "🛑"))
        var none = StopSequenceMatcher(stopSequences: [])
        #expect(none.feed("anything") == .init(text: "anything", stop: nil))
        #expect(none.finish() == "")
    }
}
