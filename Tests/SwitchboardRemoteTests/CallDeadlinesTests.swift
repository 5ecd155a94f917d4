import Testing
import SwitchboardCore
@testable import SwitchboardRemote

/// The watchdog's decision as numbers: bytes never count, only the body's start and tokens.
@Suite struct CallDeadlinesTests {
    @Test func beforeTheBodyOnlyTheWholeCallDeadlineApplies() {
        let deadlines = CallDeadlines(start: .seconds(10), tokenTimeout: .seconds(2), totalTimeout: .seconds(30))
        #expect(deadlines.check(at: .seconds(15)) == .recheck(at: .seconds(40)))
        #expect(deadlines.check(at: .seconds(40)) == .expired(.callTimeout(.seconds(30))))
    }

    @Test func aTokenMustComeEveryTokenTimeoutOnceTheBodyBegan() {
        var deadlines = CallDeadlines(start: .zero, tokenTimeout: .seconds(2), totalTimeout: .seconds(30))
        deadlines.progress(at: .seconds(1))  // the body began
        #expect(deadlines.check(at: .seconds(2)) == .recheck(at: .seconds(3)))
        deadlines.progress(at: .seconds(2.5))  // a token
        #expect(deadlines.check(at: .seconds(3)) == .recheck(at: .seconds(4.5)))
        #expect(deadlines.check(at: .seconds(4.5)) == .expired(.tokenTimeout(.seconds(2))))
    }

    @Test func theWholeCallDeadlineWinsOverSteadyTokens() {
        var deadlines = CallDeadlines(start: .zero, tokenTimeout: .seconds(2), totalTimeout: .seconds(5))
        deadlines.progress(at: .seconds(4.5))
        #expect(deadlines.check(at: .seconds(4.9)) == .recheck(at: .seconds(5)))
        #expect(deadlines.check(at: .seconds(5)) == .expired(.callTimeout(.seconds(5))))
    }
}
