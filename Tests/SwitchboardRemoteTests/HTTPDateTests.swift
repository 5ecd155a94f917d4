import Foundation
import Testing
@testable import SwitchboardRemote

@Suite("HTTP dates and Retry-After")
struct HTTPDateTests {
    @Test func parsesTheRFCExample() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test func formatAndParseRoundTrip() {
        for seconds in [0, 951_782_400, 1_709_164_800, 1_700_000_000, 4_102_444_799] {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date, "\(HTTPDate.format(date))")
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test(arguments: [
        "", "Sun, 06 Nov 1994 08:49:37", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 30 Feb 2024 00:00:00 GMT",
        "Sun, 29 Feb 2023 00:00:00 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 8:49:37 GMT",
    ])
    func rejectsOtherForms(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func leapDayIsAccepted() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == Date(timeIntervalSince1970: 1_709_208_000))
    }

    @Test func retryAfterSecondsDatesAndGarbage() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse(HTTPDate.format(now.addingTimeInterval(90)), now: now) == .seconds(90))
        #expect(RetryAfter.parse(HTTPDate.format(now.addingTimeInterval(-90)), now: now) == .zero)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
        #expect(RetryAfter.parse("1.5", now: now) == nil)
        #expect(RetryAfter.parse(nil, now: now) == nil)
        #expect(RetryAfter.parse("99999999999999999999999", now: now) == nil)
    }
}
