import Foundation
import SwitchboardCore

/// One memory line and its relevance, with its place in the memory for a stable rendering order.
struct MemoryCandidate: Sendable, Hashable {
    var line: String
    var relevance: Double
    var order: Int
}

extension PromptBuilder {
    static let memoryHeader = "Context:"

    /// Entities (as one line, relevance 1: short and what the rest refers to), then long-term memories,
    /// short-term memories and notes, each with its own relevance.
    static func memoryCandidates(_ memory: MemoryContext?) -> [MemoryCandidate] {
        guard let memory, !memory.isEmpty else { return [] }
        var candidates: [MemoryCandidate] = []
        let entities = memory.entities.map(clean).filter { !$0.isEmpty }
        if !entities.isEmpty {
            candidates.append(MemoryCandidate(line: "- Known entities: " + entities.joined(separator: ", "), relevance: 1, order: 0))
        }
        for item in memory.longTerm + memory.shortTerm + memory.notes {
            let text = clean(item.text)
            guard !text.isEmpty else { continue }
            let relevance = item.relevance.isNaN ? 0 : item.relevance
            candidates.append(MemoryCandidate(line: "- " + text, relevance: relevance, order: candidates.count))
        }
        return candidates
    }

    static func inOriginalOrder(_ kept: [MemoryCandidate]) -> [String] {
        kept.sorted { $0.order < $1.order }.map(\.line)
    }

    static func memoryBlock(_ lines: [String]) -> String? {
        lines.isEmpty ? nil : ([memoryHeader] + lines).joined(separator: "\n")
    }

    /// A base model continues text: memory (if any), a blank line, then the prompt (or the messages'
    /// text when only messages were given).
    static func completion(_ request: GenerationRequest, memory: [String]) -> String {
        let body = request.prompt ?? request.messages.map(\.content).joined(separator: "\n\n")
        guard let block = memoryBlock(memory) else { return body }
        return block + "\n\n" + body
    }

    /// Gemma's chat format: system text and memory lead the first user turn, separated by a blank line;
    /// assistant turns are "model"; the prompt, when present, is a last user turn; the model's turn is
    /// opened for the reply.
    static func turns(_ request: GenerationRequest, memory: [String]) -> String {
        var preamble = request.messages.filter { $0.role == .system }.map { trim($0.content) }.filter { !$0.isEmpty }
        if let block = memoryBlock(memory) { preamble.append(block) }
        var turns: [(role: String, text: String)] = request.messages.compactMap { message in
            switch message.role {
            case .system: nil
            case .user: ("user", trim(message.content))
            case .assistant: ("model", trim(message.content))
            }
        }
        if let prompt = request.prompt, !prompt.isEmpty { turns.append(("user", trim(prompt))) }
        if !preamble.isEmpty {
            let lead = preamble.joined(separator: "\n\n")
            if let first = turns.firstIndex(where: { $0.role == "user" }) {
                turns[first].text = lead + "\n\n" + turns[first].text
            } else {
                turns.insert(("user", lead), at: 0)
            }
        }
        var text = ""
        for turn in turns { text += "<start_of_turn>\(turn.role)\n\(turn.text)<end_of_turn>\n" }
        return text + "<start_of_turn>model\n"
    }

    private static func trim(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Memory lines stay one line each.
    private static func clean(_ text: String) -> String {
        trim(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
