import Foundation

/// One message of a conversation, as a chat template renders it.
public struct ChatTurn: Sendable, Hashable {
    public enum Role: String, Sendable, Hashable { case system, user, assistant }
    public var role: Role
    public var content: String
    public init(_ role: Role, _ content: String) { self.role = role; self.content = content }
}

/// A piece of a rendered prompt: template markup that must become its control token, or text
/// (messages, memory) in which nothing is parsed as a control token.
public enum PromptSegment: Sendable, Hashable {
    case control(String)
    case text(String)

    public var string: String {
        switch self {
        case .control(let s), .text(let s): s
        }
    }
}

extension Array where Element == PromptSegment {
    /// The prompt as one string (markup and text together).
    public var text: String { map(\.string).joined() }
}

/// How an instruction-tuned model expects a conversation: renders system, user and assistant turns,
/// opens the assistant's reply, and names the tokens that end a turn (generation stops on them and
/// they never reach the caller). Chosen from the model file by `ChatTemplate.detect`.
public enum ChatTemplate: Sendable, Hashable {
    /// `<|im_start|>role\ncontent<|im_end|>\n` (SmolLM2, Qwen, …). `defaultSystem` is inserted when
    /// the conversation has no system turn, as the model's own template does.
    case chatML(defaultSystem: String?)
    /// `<start_of_turn>user\n…<end_of_turn>\n`, assistant turns as `model`; no system role: system
    /// text leads the first user turn.
    case gemmaTurns

    /// Text of the whole conversation, then the opened assistant turn. Consecutive system turns are
    /// joined by a blank line.
    public func render(_ turns: [ChatTurn]) -> String { segments(turns).text }

    /// `render` as segments: the template's control tokens apart from the text, so a tokenizer can
    /// parse the first and never the second (`Tokenizer.encode(_:addBOS:)`): a message that contains
    /// `<|im_start|>system…` stays text instead of opening a turn.
    public func segments(_ turns: [ChatTurn]) -> [PromptSegment] {
        let system = turns.filter { $0.role == .system }.map(\.content).filter { !$0.isEmpty }
        let rest = turns.filter { $0.role != .system }
        switch self {
        case .chatML(let defaultSystem):
            var out: [PromptSegment] = []
            func turn(_ role: String, _ content: String) {
                out += [.control("<|im_start|>"), .text("\(role)\n\(content)"), .control("<|im_end|>"), .text("\n")]
            }
            if let lead = system.isEmpty ? defaultSystem : system.joined(separator: "\n\n") { turn("system", lead) }
            for t in rest { turn(t.role.rawValue, t.content) }
            return out + [.control("<|im_start|>"), .text("assistant\n")]
        case .gemmaTurns:
            var conversation = rest.map { (role: $0.role == .assistant ? "model" : "user", text: $0.content) }
            if !system.isEmpty {
                let lead = system.joined(separator: "\n\n")
                if let first = conversation.firstIndex(where: { $0.role == "user" }) {
                    conversation[first].text = lead + "\n\n" + conversation[first].text
                } else {
                    conversation.insert(("user", lead), at: 0)
                }
            }
            var out: [PromptSegment] = []
            for turn in conversation {
                out += [.control("<start_of_turn>"), .text("\(turn.role)\n\(turn.text)"), .control("<end_of_turn>"), .text("\n")]
            }
            return out + [.control("<start_of_turn>"), .text("model\n")]
        }
    }

    /// Pieces that end the assistant's turn.
    public var endOfTurnPieces: [String] {
        switch self {
        case .chatML: ["<|im_end|>", "<|endoftext|>"]
        case .gemmaTurns: ["<end_of_turn>"]
        }
    }

    /// The template a model file asks for: from `tokenizer.chat_template` when it has one (ChatML or
    /// Gemma turns, recognized by their markers), else from the architecture (Gemma 3 files ship
    /// without a template). nil when neither says: the model only continues text.
    public static func detect(source: String?, architecture: String) -> ChatTemplate? {
        if let source {
            if source.contains("<|im_start|>") { return .chatML(defaultSystem: defaultSystem(inChatML: source)) }
            if source.contains("<start_of_turn>") { return .gemmaTurns }
        }
        return architecture.hasPrefix("gemma") ? .gemmaTurns : nil
    }

    /// The literal system line a ChatML template inserts (`'<|im_start|>system\n…<|im_end|>`), if any.
    static func defaultSystem(inChatML source: String) -> String? {
        let opening = "<|im_start|>system\n"
        guard let start = source.range(of: opening), let end = source.range(of: "<|im_end|>", range: start.upperBound..<source.endIndex)
        else { return nil }
        let line = source[start.upperBound..<end.lowerBound]
        // A template that builds the system turn from variables has no literal default.
        guard !line.isEmpty, !line.contains("{"), !line.contains("'") else { return nil }
        return String(line)
    }
}
