import Foundation
import SwitchboardCore

/// Which API's error conventions apply.
enum APIDialect: Sendable {
    case openAI, anthropic, gemini
}

/// Turns an HTTP failure (status, headers, body) into a classified `ProviderError`, recognizing each
/// API's context-length error. Messages taken from the body are scrubbed of the key and truncated.
struct APIErrorMapper: Sendable {
    var dialect: APIDialect
    var model: String
    var key: APIKey?
    var now: Date
    var contextLimit: Int
    var requestedTokens: Int
    var maxMessageLength: Int

    func map(status: Int, headers: [String: String], body: Data) -> ProviderError {
        let (message, code) = Self.extract(body)
        let text = clean(message.isEmpty ? "HTTP \(status) with no message" : message)
        if let overflow = contextLength(message: message, code: code, body: body) { return overflow }
        switch status {
        case 401, 403:
            return .authentication(text)
        case 400 where dialect == .gemini && (code == "API_KEY_INVALID" || message.contains("API key not valid")):
            return .authentication(text)
        case 404:
            return .unknownModel("'\(clean(model))' was not found (\(text))")
        case 408, 409:
            return .server(status: status, message: text)
        case 429:
            return .rateLimited(retryAfter: RetryAfter.parse(headers["retry-after"], now: now))
        case 400, 413, 422:
            if code == "content_policy_violation" || code == "content_filter" { return .contentPolicy(text) }
            return .invalidRequest(text)
        case 500...599:
            return .server(status: status, message: text)
        case 300...399:
            return .unavailable("the server answered with a redirect (HTTP \(status)); point baseURL at the final location")
        default:
            return (400..<500).contains(status) ? .invalidRequest("HTTP \(status): \(text)") : .server(status: status, message: text)
        }
    }

    /// Scrubbed of the key, single-line and truncated.
    func clean(_ text: String) -> String {
        var scrubbed = key?.scrub(text) ?? text
        scrubbed = scrubbed.replacingOccurrences(of: "\n", with: " ")
        if scrubbed.count > maxMessageLength { scrubbed = String(scrubbed.prefix(maxMessageLength)) + "…" }
        return scrubbed
    }

    /// The human message and the machine code/type, from any of the shapes servers use.
    static func extract(_ body: Data) -> (message: String, code: String?) {
        guard let json = try? JSONValue.decode(body) else {
            return (String(decoding: body.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), nil)
        }
        if let text = json["error"]?.stringValue { return (text, nil) } // Ollama: {"error": "..."}
        let error = json["error"] ?? json
        let message = error["message"]?.stringValue ?? json["message"]?.stringValue ?? json["detail"]?.stringValue ?? ""
        let code = error["code"]?.stringValue ?? error["type"]?.stringValue
            ?? error["details"]?[0]?["reason"]?.stringValue ?? error["status"]?.stringValue
        return (message, code)
    }

    private func contextLength(message: String, code: String?, body: Data) -> ProviderError? {
        let lower = message.lowercased()
        let recognized: Bool
        var limit: Int?
        var requested: Int?
        switch dialect {
        case .openAI:
            recognized = code == "context_length_exceeded" || code == "exceed_context_size_error"
                || lower.contains("maximum context length") || lower.contains("context window")
                || lower.contains("context size") || lower.contains("context length")
            limit = Self.number(after: "maximum context length is", in: lower) ?? Self.number(after: "context window of", in: lower)
            requested = Self.number(after: "resulted in", in: lower) ?? Self.number(after: "you requested", in: lower)
                ?? Self.number(after: "requested tokens", in: lower)
            if let json = try? JSONValue.decode(body) { // llama.cpp server reports both numbers
                if let claimed = json["error"]?["n_ctx"], claimed != .null { limit = ReportedUsage.count(claimed) }
                if let claimed = json["error"]?["n_prompt_tokens"], claimed != .null { requested = ReportedUsage.count(claimed) }
            }
        case .anthropic:
            recognized = lower.contains("prompt is too long") || lower.contains("exceed context limit")
            limit = Self.number(after: "> ", in: lower)
            requested = Self.number(after: "prompt is too long:", in: lower) ?? Self.number(after: "context limit:", in: lower)
        case .gemini:
            recognized = lower.contains("exceeds the maximum number of tokens")
            limit = Self.number(after: "maximum number of tokens allowed", in: lower)
            requested = Self.number(after: "input token count", in: lower)
        }
        guard recognized else { return nil }
        // The numbers are the server's claims: clamped (a limit of 999999999999 or Int.max is 2^30), so
        // whoever compares or adds them downstream cannot overflow.
        return .contextLengthExceeded(limit: ReportedUsage.clamp(limit ?? contextLimit),
                                      requested: ReportedUsage.clamp(requested ?? requestedTokens))
    }

    /// The first integer within 24 characters after `phrase`.
    static func number(after phrase: String, in text: String) -> Int? {
        guard let range = text.range(of: phrase) else { return nil }
        let window = text[range.upperBound...].prefix(24)
        guard let start = window.firstIndex(where: \.isASCIIDigit) else { return nil }
        let digits = window[start...].prefix(while: \.isASCIIDigit)
        // More digits than any count holds: the largest count (clamped by the caller), not a prefix of it.
        return digits.count > 12 ? .max : Int(digits)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension ProviderError {
    /// The same error with the key removed from every message (defense in depth).
    func scrubbed(of key: APIKey?) -> ProviderError {
        guard let key else { return self }
        switch self {
        case .transport(let m): return .transport(key.scrub(m))
        case .server(let s, let m): return .server(status: s, message: key.scrub(m))
        case .authentication(let m): return .authentication(key.scrub(m))
        case .invalidRequest(let m): return .invalidRequest(key.scrub(m))
        case .unknownModel(let m): return .unknownModel(key.scrub(m))
        case .contentPolicy(let m): return .contentPolicy(key.scrub(m))
        case .malformedResponse(let m): return .malformedResponse(key.scrub(m))
        case .budgetExceeded(let m): return .budgetExceeded(key.scrub(m))
        case .unavailable(let m): return .unavailable(key.scrub(m))
        case .timeout, .tokenTimeout, .callTimeout, .responseTooLarge, .rateLimited, .contextLengthExceeded, .cancelled:
            return self
        }
    }
}
