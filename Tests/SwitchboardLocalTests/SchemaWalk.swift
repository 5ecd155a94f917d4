import Foundation
@testable import SwitchboardInference
import SwitchboardCore  // SeededRandom: the fuzz and walk tests are reproducible from their seed

/// Drives a constraint's automaton the way the decoder does, with a synthetic vocabulary of single
/// bytes and a few multi-byte pieces: each step picks a random allowed piece whose closing cost
/// still fits the budget. The text it ends with is a document the constraint accepts, so a
/// validator must accept it too (the generalization check of the decoder).
enum SchemaWalk {
    static let pieces: [[UInt8]] = {
        var pieces = (0x20...0x7E).map { [UInt8($0)] } + [[0x0A]]
        for text in ["é", "€", "日本", "😀", "true", "null", "false", "\"a\"", "12", "-3", "0.5", "2024-"] { pieces.append(Array(text.utf8)) }
        return pieces
    }()

    /// The text of a random walk, and whether it finished within `budget` pieces.
    static func walk(_ constraint: JSONConstraint, budget: Int, random: inout SeededRandom) -> (text: String, finished: Bool) {
        var automaton = JSONAutomaton(constraint)
        var bytes: [UInt8] = []
        var used = 0
        while !automaton.isFinished, used < budget {
            if automaton.canFinish, Int.random(in: 0..<4, using: &random) == 0 { break }
            var allowed: [(piece: [UInt8], state: JSONAutomaton)] = []
            for piece in pieces {
                var trial = automaton
                if trial.feed(piece), trial.closingCost <= budget - used - 1 { allowed.append((piece, trial)) }
            }
            guard !allowed.isEmpty else { break }
            // Prefer closing pieces now and then, so documents stay short.
            let pick = allowed[Int.random(in: 0..<allowed.count, using: &random)]
            bytes += pick.piece
            automaton = pick.state
            used += 1
        }
        return (String(decoding: bytes, as: UTF8.self), automaton.canFinish)
    }
}
