import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote

@Suite("SSE parser")
struct SSEParserTests {
    func parse(_ text: String) throws -> [SSEEvent] {
        var parser = SSEParser()
        return try parser.feed(Array(text.utf8))
    }

    @Test func singleAndMultipleEvents() throws {
        #expect(try parse("data: hello\n\n") == [SSEEvent(data: "hello")])
        #expect(try parse("data: a\n\ndata: b\n\n").map(\.data) == ["a", "b"])
    }

    @Test func multiLineDataIsJoinedWithNewlines() throws {
        #expect(try parse("data: one\ndata: two\ndata:\ndata: three\n\n").map(\.data) == ["one\ntwo\n\nthree"])
    }

    @Test func eventTypeAppliesToOneEventOnly() throws {
        let events = try parse("event: ping\ndata: {}\n\ndata: plain\n\n")
        #expect(events.map(\.type) == ["ping", "message"])
    }

    @Test func idPersistsAndNullIDsAreIgnored() throws {
        let events = try parse("id: 7\ndata: a\n\ndata: b\n\nid: 8\u{0}x\ndata: c\n\nid\ndata: d\n\n")
        #expect(events.map(\.lastEventID) == ["7", "7", "7", ""])
    }

    @Test func retryAcceptsDigitsOnly() throws {
        var parser = SSEParser()
        _ = try parser.feed(Array("retry: 1500\n\n".utf8))
        #expect(parser.reconnectionTime == 1500)
        _ = try parser.feed(Array("retry: 15x\n\nretry: -1\n\nretry:\n\n".utf8))
        #expect(parser.reconnectionTime == 1500)
    }

    @Test func commentsAndUnknownFieldsAreIgnored() throws {
        #expect(try parse(": keep-alive\n\n:another\nfoo: bar\ndata: x\n\n") == [SSEEvent(data: "x")])
    }

    @Test func fieldWithoutColonAndValueSpaces() throws {
        #expect(try parse("data\n\n").map(\.data) == [""])
        #expect(try parse("data:no-space\n\n").map(\.data) == ["no-space"])
        #expect(try parse("data:  two spaces\n\n").map(\.data) == [" two spaces"])
        #expect(try parse("data: a: b\n\n").map(\.data) == ["a: b"])
    }

    @Test func blockWithoutDataIsNotDispatched() throws {
        #expect(try parse("event: lonely\n\n").isEmpty)
        #expect(try parse("event: lonely\n\ndata: x\n\n") == [SSEEvent(data: "x")])
    }

    @Test func everyLineEndingIsRecognized() throws {
        let expected = ["a", "b\nc", "d"]
        #expect(try parse("data: a\r\n\r\ndata: b\r\ndata: c\r\n\r\ndata: d\r\n\r\n").map(\.data) == expected)
        #expect(try parse("data: a\r\rdata: b\rdata: c\r\rdata: d\r\r").map(\.data) == expected)
        #expect(try parse("data: a\n\ndata: b\r\ndata: c\r\rdata: d\n\r\n").map(\.data) == expected)
    }

    @Test func byteOrderMarkIsDroppedOnlyAtTheStart() throws {
        #expect(try parse("\u{FEFF}data: a\n\n") == [SSEEvent(data: "a")])
        #expect(try parse("data: \u{FEFF}a\n\n") == [SSEEvent(data: "\u{FEFF}a")])
        // A second BOM is not a BOM any more: it becomes part of the field name, an unknown field.
        #expect(try parse("\u{FEFF}\u{FEFF}data: a\n\n").isEmpty)
    }

    @Test func unterminatedEventAtEOFIsDiscarded() throws {
        var parser = SSEParser()
        #expect(try parser.feed(Array("data: a\n\ndata: b\n".utf8)) == [SSEEvent(data: "a")])
        #expect(parser.finish() == true)
        var clean = SSEParser()
        _ = try clean.feed(Array("data: a\n\n".utf8))
        #expect(clean.finish() == false)
        var partialLine = SSEParser()
        _ = try partialLine.feed(Array("data: a".utf8))
        #expect(partialLine.finish() == true)
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        var parser = SSEParser()
        let events = try parser.feed([0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0xFF, 0xC3, 0x0A, 0x0A])
        #expect(events == [SSEEvent(data: "\u{FFFD}\u{FFFD}")])
    }

    static let tricky: [UInt8] = Array(
        "\u{FEFF}: comment\r\nid: 1\r\nevent: start\r\ndata: héllo ✓ 日本\r\ndata: second\r\n\r\nretry: 250\ndata: lf\n\ndata: cr\r\rdata: mixed\r\ndata:x\n\r\nevent: end\ndata: [DONE]\n\ndata: tail-without-blank-line\n".utf8)

    static let trickyExpected = [
        SSEEvent(type: "start", data: "héllo ✓ 日本\nsecond", lastEventID: "1"),
        SSEEvent(data: "lf", lastEventID: "1"),
        SSEEvent(data: "cr", lastEventID: "1"),
        SSEEvent(data: "mixed\nx", lastEventID: "1"),
        SSEEvent(type: "end", data: "[DONE]", lastEventID: "1"),
    ]

    @Test func wholeTrickyStream() throws {
        var parser = SSEParser()
        #expect(try parser.feed(Self.tricky) == Self.trickyExpected)
        #expect(parser.reconnectionTime == 250)
        #expect(parser.finish() == true)
    }

    @Test func splittingAtEveryByteOffsetGivesTheSameEvents() throws {
        let bytes = Self.tricky
        for cut in 0...bytes.count {
            var parser = SSEParser()
            let events = try parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...])
            #expect(events == Self.trickyExpected, "split at \(cut)")
            #expect(parser.finish() == true)
        }
    }

    @Test func splittingAtEveryPairOfOffsetsGivesTheSameEvents() throws {
        let bytes = Self.tricky
        var failures = 0
        for first in 0...bytes.count {
            for second in first...bytes.count {
                var parser = SSEParser()
                let events = try parser.feed(bytes[..<first]) + parser.feed(bytes[first..<second]) + parser.feed(bytes[second...])
                if events != Self.trickyExpected { failures += 1 }
            }
        }
        #expect(failures == 0)
    }

    @Test func byteByByteFeeding() throws {
        var parser = SSEParser()
        var events: [SSEEvent] = []
        for byte in Self.tricky { events += try parser.feed(CollectionOfOne(byte)) }
        #expect(events == Self.trickyExpected)
    }

    @Test func crlfSplitAcrossFeedsIsOneLineEnd() throws {
        var parser = SSEParser()
        var events = try parser.feed(Array("data: a\r".utf8))
        events += try parser.feed(Array("\n".utf8))
        #expect(events.isEmpty) // "\r\n" is one line end, not a line end plus a blank line
        events += try parser.feed(Array("\r".utf8))
        events += try parser.feed(Array("\n".utf8))
        #expect(events == [SSEEvent(data: "a")])
    }

    @Test func aLineOrAnEventPastTheCapStopsTheParse() throws {
        var parser = SSEParser(maxLineBytes: 16)
        #expect(try parser.feed(Array("data: 0123456789\n\n".utf8)) == [SSEEvent(data: "0123456789")])  // 16 bytes: fits
        // One endless line, fed in pieces: refused at the cap, whatever the pieces.
        var endless = SSEParser(maxLineBytes: 16)
        _ = try endless.feed(Array(": keep".utf8))
        #expect(throws: ProviderError.responseTooLarge(what: "an event-stream line", limit: 16)) {
            _ = try endless.feed(Array("-alive comment that never ends".utf8))
        }
        // Short lines whose data joins into one oversized event.
        var joined = SSEParser(maxLineBytes: 16)
        #expect(throws: ProviderError.responseTooLarge(what: "an event-stream event", limit: 16)) {
            _ = try joined.feed(Array("data: 0123456789\ndata: 0123456789\n".utf8))
        }
    }
}
