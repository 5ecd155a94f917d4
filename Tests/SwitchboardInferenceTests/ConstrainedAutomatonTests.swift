import Foundation
import Testing
@testable import SwitchboardInference

/// The automaton fed byte by byte: a valid document is accepted to the end and may finish there;
/// an invalid one is refused at some byte or cannot finish.
@Suite struct ConstrainedAutomatonTests {
    static let person = JSONGrammar.object([
        .init("name", .string(maxLength: 5)),
        .init("age", .integer(minimum: 1, maximum: 120), required: false),
        .init("mood", .string(enumValues: ["happy", "sad", "ha\"t"])),
        .init("tags", .array(items: .boolean, minItems: 1, maxItems: 2)),
        .init("score", .anyOf([.number(minimum: -1, maximum: 1), .null])),
    ])

    /// Feeds `text` byte by byte: whether every byte was accepted and the document may end.
    static func accepts(_ grammar: JSONGrammar, _ text: String) throws -> Bool {
        var automaton = JSONAutomaton(try JSONConstraint(grammar))
        for byte in text.utf8 where !automaton.feed(byte) { return false }
        return automaton.canFinish
    }

    @Test(arguments: [
        #"{"name":"Ann","mood":"happy","tags":[true],"score":null}"#,
        #"{"name":"Ann","age":42,"mood":"sad","tags":[true,false],"score":-0.5}"#,
        "{\n  \"name\": \"Zoë\",\n  \"mood\": \"ha\\\"t\",\n  \"tags\": [ false ],\n  \"score\": 1\n}",
        #"{"name":"a\"b","mood":"sad","tags":[true],"score":0}"#,
        #"{"name":"","age":120,"mood":"sad","tags":[true],"score":1.0}"#,
    ])
    func validDocumentsAreAccepted(text: String) throws {
        #expect(try Self.accepts(Self.person, text))
    }

    @Test(arguments: [
        #"{"mood":"sad","name":"Ann","tags":[true],"score":null}"#,   // out of order
        #"{"name":"Ann","tags":[true],"score":null}"#,                 // required missing
        #"{"name":"Annabel","mood":"sad","tags":[true],"score":null}"#, // maxLength
        #"{"name":"Ann","age":0,"mood":"sad","tags":[true],"score":null}"#, // below minimum
        #"{"name":"Ann","age":121,"mood":"sad","tags":[true],"score":null}"#, // above maximum
        #"{"name":"Ann","age":4.5,"mood":"sad","tags":[true],"score":null}"#, // integer with fraction
        #"{"name":"Ann","age":042,"mood":"sad","tags":[true],"score":null}"#, // leading zero
        #"{"name":"Ann","mood":"glad","tags":[true],"score":null}"#,   // not in the enum
        #"{"name":"Ann","mood":"sad","tags":[],"score":null}"#,        // minItems
        #"{"name":"Ann","mood":"sad","tags":[true,true,true],"score":null}"#, // maxItems
        #"{"name":"Ann","mood":"sad","tags":[true],"score":2}"#,       // number above maximum
        #"{"name":"Ann","mood":"sad","tags":[true],"score":null,"x":1}"#, // unknown member
        #"{"name":"Ann","mood":"sad","tags":[true],"score":null}  "#,  // trailing whitespace
        #"{"name":"Ann","mood":"sad","tags":[true],"score":nul}"#,     // bad literal
        #"{"name":"Ann","mood":"sad","tags":[true,],"score":null}"#,   // trailing comma
        "{\"name\":\"A\nn\",\"mood\":\"sad\",\"tags\":[true],\"score\":null}", // raw newline in a string
        "{\"name\":\"\u{7}\",\"mood\":\"sad\",\"tags\":[true],\"score\":null}", // control character
        #"{"name":"Ann","mood":"sad","tags":[true],"score":null"#,     // unfinished
        "{\n\n\"name\":\"Ann\",\"mood\":\"sad\",\"tags\":[true],\"score\":null}", // blank line
        "{     \"name\":\"Ann\",\"mood\":\"sad\",\"tags\":[true],\"score\":null}", // run of spaces
    ])
    func invalidDocumentsAreRefused(text: String) throws {
        #expect(try !Self.accepts(Self.person, text))
    }

    @Test func invalidUTF8IsRefusedInStrings() throws {
        var automaton = JSONAutomaton(try JSONConstraint(.string()))
        let opened = automaton.feed(Array("\"".utf8))
        var overlong = automaton
        let overlongAccepted = overlong.feed(0xC0)
        var surrogate = automaton
        let surrogateAccepted = surrogate.feed(0xED) && surrogate.feed(0xA0)
        let euro = automaton.feed([0xE2, 0x82, 0xAC, 0x22])
        #expect(opened && !overlongAccepted && !surrogateAccepted && euro && automaton.canFinish)
    }

    @Test func closingCostIsTheShortestValidEnding() throws {
        let constraint = try JSONConstraint(Self.person)
        // {"name":"","mood":"sad","tags":[true],"score":null}
        #expect(constraint.minimumBytes == #"{"name":"","mood":"sad","tags":[true],"score":0}"#.utf8.count)
        var automaton = JSONAutomaton(constraint)
        let first = automaton.feed(Array(#"{"name":"Al"#.utf8))
        #expect(first && automaton.closingCost == #"","mood":"sad","tags":[true],"score":0}"#.utf8.count)
        let second = automaton.feed(Array(#"","age":"#.utf8))
        #expect(second && automaton.closingCost == #"1,"mood":"sad","tags":[true],"score":0}"#.utf8.count)
    }

    @Test func boundedIntegersOnlyTakeDigitsThatCanStayInRange() throws {
        let grammar = JSONGrammar.integer(minimum: 10, maximum: 35)
        for (text, valid) in [("10", true), ("35", true), ("36", false), ("9", false), ("4", false), ("-1", false), ("100", false)] {
            #expect(try Self.accepts(grammar, text) == valid, "\(text)")
        }
        var automaton = JSONAutomaton(try JSONConstraint(grammar))
        let three = automaton.feed(UInt8(ascii: "3"))
        #expect(three && automaton.closingCost == 1)
        let nine = automaton.feed(UInt8(ascii: "9"))
        #expect(!nine)
    }

    @Test func unboundedArraysAndNumbersStillEnd() throws {
        #expect(try Self.accepts(.array(items: .number()), "[1e5,-0.25,3E+2,0]"))
        #expect(try !Self.accepts(.array(items: .number()), "[1e555]"))
        #expect(try !Self.accepts(.integer(), "1234567890123456"))
        #expect(try Self.accepts(.integer(), "-7"))
    }

    @Test func grammarsThatAdmitNothingAreRefused() {
        #expect(throws: ConstraintError.self) { try JSONConstraint(.anyOf([])) }
        #expect(throws: ConstraintError.self) { try JSONConstraint(.string(enumValues: ["long"], maxLength: 2)) }
        #expect(throws: ConstraintError.self) { try JSONConstraint(.array(items: .null, minItems: 3, maxItems: 1)) }
        #expect(throws: ConstraintError.self) { try JSONConstraint(.object([.init("a", .null), .init("a", .null)])) }
    }
}
