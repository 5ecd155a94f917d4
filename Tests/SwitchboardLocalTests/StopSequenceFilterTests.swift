import Testing
@testable import SwitchboardLocal

@Suite("Stop sequences")
struct StopSequenceFilterTests {
    @Test("a stop split over pieces is never emitted, and what precedes it is")
    func splitStop() {
        var filter = StopSequenceFilter(["</end>"])
        #expect(filter.feed("hello <") == "hello ")
        #expect(filter.feed("/en") == "")
        #expect(filter.feed("d> tail") == "")
        #expect(filter.stopped)
        #expect(filter.flush() == "")
    }

    @Test("a false start is released once it cannot be a stop")
    func falseStart() {
        var filter = StopSequenceFilter(["\n\n"])
        #expect(filter.feed("a\n") == "a")
        #expect(filter.feed("b") == "\nb")
        #expect(filter.feed("\n") == "")
        #expect(filter.flush() == "\n")
    }

    @Test("without stops text passes through")
    func none() {
        var filter = StopSequenceFilter([])
        #expect(filter.feed("x") == "x")
    }
}
