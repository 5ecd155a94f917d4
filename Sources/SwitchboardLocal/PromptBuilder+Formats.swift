import Foundation
import SwitchboardCore
import SwitchboardInference

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

    /// The conversation in the model's chat template: system messages, then memory, in the system
    /// turn (after the template's default system line when the caller gave none, so memory does not
    /// replace it; Gemma, which has no system role, leads the first user turn with them); the other
    /// messages in order; the prompt, when present, as a last user turn; the reply opened.
    static func turns(_ request: GenerationRequest, memory: [String], template: ChatTemplate) -> [PromptSegment] {
        var system = request.messages.filter { $0.role == .system }.map { trim($0.content) }.filter { !$0.isEmpty }
        if let block = memoryBlock(memory) {
            if system.isEmpty, case .chatML(let line?) = template { system.append(line) }
            system.append(block)
        }
        var turns = system.map { ChatTurn(.system, $0) }
        var arguments: [String: String] = [:]
        for message in request.messages where message.role != .system {
            switch message.role {
            case .system: break
            case .user: turns.append(ChatTurn(.user, trim(message.content)))
            case .assistant:
                // A native tool call is not rendered as the model's turn (a small model would imitate
                // it); its arguments go with the result, as the session's portable loop writes them.
                for call in message.toolCalls { arguments[call.id] = call.arguments }
                if message.toolCalls.isEmpty || !trim(message.content).isEmpty {
                    turns.append(ChatTurn(.assistant, trim(message.content)))
                }
            case .tool:
                let name = message.toolName ?? "a"
                let call = message.toolCallID.flatMap { arguments[$0] }.map { " " + $0 } ?? ""
                turns.append(ChatTurn(.user, "The \(name) tool\(call) returned: \(trim(message.content))"))
            }
        }
        if let prompt = request.prompt, !prompt.isEmpty { turns.append(ChatTurn(.user, trim(prompt))) }
        // A structured request carries its schema: appended to the last user turn.
        if let schema = try? request.output.generationSchema(), let last = turns.lastIndex(where: { $0.role == .user }) {
            turns[last].content += "\n" + StructuredPrompt.instructions(for: schema)
        }
        return template.segments(turns)
    }

    private static func trim(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Memory lines stay one line each.
    private static func clean(_ text: String) -> String {
        trim(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
