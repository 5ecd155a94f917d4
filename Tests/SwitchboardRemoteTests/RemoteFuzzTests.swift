import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardRemote

/// Random and extreme input, from a seeded generator, through every decoder a server's bytes reach:
/// the SSE parser, the JSON parser, the usage decoder, the error mapper and each wire format's reply
/// and stream decoding (OpenAI, Anthropic, Gemini). Any trap kills the test process; the test checks
/// that every iteration ran and that the typed errors are the only outcome besides success.
@Suite("Fuzz: server bytes never trap a decoder")
struct RemoteFuzzTests {
    static let iterations = 3_000
    static let seed: UInt64 = 0x5EED_0024

    static let keys = ["choices", "delta", "content", "message", "usage", "prompt_tokens", "completion_tokens", "tool_calls",
                       "index", "id", "function", "name", "arguments", "finish_reason", "error", "code", "type", "text",
                       "content_block", "input_json_delta", "partial_json", "text_delta", "message_start", "message_delta",
                       "message_stop", "input_tokens", "output_tokens", "stop_reason", "candidates", "parts", "usageMetadata",
                       "promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "finishReason", "functionCall", "args",
                       "promptFeedback", "blockReason", "n_ctx", "n_prompt_tokens", "thought", "role"]
    static let numbers = ["9223372036854775807", "-9223372036854775807", "-9223372036854775808", "9223372036854775808",
                          "1e308", "-1e308", "1e400", "-1e400", "0", "-0", "1.5", "4e-400", "999999999999",
                          String(repeating: "9", count: 400), "-1", "2147483648"]
    static let strings = ["stop", "length", "tool_calls", "content_filter", "MAX_TOKENS", "SAFETY", "STOP", "max_tokens",
                          "refusal", "error", "message_start", "content_block_start", "content_block_delta", "message_delta",
                          "message_stop", "tool_use", "text_delta", "input_json_delta", "[DONE]", "", "é😀", "\\ud800", "\\u0000"]

    struct Generator {
        var random: SeededRandom
        mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(max(1, bound))) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

        mutating func value(depth: Int) -> String {
            switch int(depth > 6 ? 4 : 8) {
            case 0: return pick(RemoteFuzzTests.numbers)
            case 1: return "\"" + pick(RemoteFuzzTests.strings) + "\""
            case 2: return pick(["true", "false", "null"])
            case 3: return "\"" + String(repeating: "x", count: int(300)) + "\""
            case 4, 5:
                let members = (0..<int(6)).map { _ in "\"\(pick(RemoteFuzzTests.keys))\":\(value(depth: depth + 1))" }
                return "{" + members.joined(separator: ",") + "}"
            case 6:
                return "[" + (0..<int(5)).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
            default:
                let levels = int(400)  // past the nesting limit now and then
                return String(repeating: "[", count: levels) + value(depth: 99) + String(repeating: "]", count: levels)
            }
        }

        /// A document, sometimes broken: cut anywhere (mid-UTF-8 too), bytes flipped, or random bytes.
        mutating func document() -> [UInt8] {
            var bytes = Array(value(depth: 0).utf8)
            switch int(6) {
            case 0 where !bytes.isEmpty: bytes = Array(bytes.prefix(int(bytes.count)))
            case 1 where !bytes.isEmpty: for _ in 0..<1 + int(4) { bytes[int(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
            case 2: bytes = (0..<int(200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            case 3: bytes += [0xF0, 0x9F, 0x98]  // truncated UTF-8
            default: break
            }
            return bytes
        }
    }

    static let errors = APIErrorMapper(dialect: .openAI, model: "m", key: APIKey("sk-fuzz-0123456789abcdef"), now: Date(),
                                       contextLimit: 4096, requestedTokens: 10, maxMessageLength: 300)

    @Test func randomAndExtremeRepliesOnlyEverFailWithTypedErrors() throws {
        var generator = Generator(random: SeededRandom(seed: Self.seed))
        let openAI = OpenAIWireFormat(baseURL: constantURL("http://127.0.0.1/v1"), model: "m", includeStreamUsage: true,
                                      strictJSONSchema: true, sendExtendedSampling: false, responseFormatStyle: .jsonSchema,
                                      extraHeaders: [:])
        let anthropic = AnthropicWireFormat(baseURL: constantURL("http://127.0.0.1/v1"), model: "m", extraHeaders: [:])
        let gemini = GeminiWireFormat(baseURL: constantURL("http://127.0.0.1/v1"), model: "m", extraHeaders: [:])
        var ran = 0, parsed = 0, untyped = 0
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<Self.iterations {
            let document = generator.document()
            let data = Data(document)
            if let json = try? JSONValue.decode(data) {
                parsed += 1
                let usage = ReportedUsage.usage(prompt: json["usage"]?["prompt_tokens"], completion: [json["usage"]?["completion_tokens"], json])
                #expect((0...ReportedUsage.maxTokens).contains(usage.promptTokens) && (0...ReportedUsage.maxTokens).contains(usage.completionTokens))
            }
            for decode in [{ try openAI.decodeReply(data, errors: Self.errors, maxToolArgumentBytes: 4096) },
                           { try anthropic.decodeReply(data, errors: Self.errors, maxToolArgumentBytes: 4096) },
                           { try gemini.decodeReply(data, errors: Self.errors, maxToolArgumentBytes: 4096) }] {
                do { _ = try decode() } catch { if !(error is ProviderError) { untyped += 1 } }
            }
            _ = Self.errors.map(status: generator.pick([400, 401, 404, 413, 429, 500, 0, -1, Int.max]), headers: [:], body: data)
            // The same document as a stream: split anywhere, through a small line cap, into each stream decoder.
            var parser = SSEParser(maxLineBytes: 2048)
            var streams: [any RemoteStreamDecoder] = [openAI.makeDecoder(maxToolArgumentBytes: 4096),
                                                      anthropic.makeDecoder(maxToolArgumentBytes: 4096),
                                                      gemini.makeDecoder(maxToolArgumentBytes: 4096)]
            let framed = Array("event: \(generator.pick(Self.strings))\ndata: ".utf8) + document + Array("\n\n".utf8)
            var offset = 0
            while offset < framed.count {
                let end = min(framed.count, offset + 1 + generator.int(64))
                do {
                    for event in try parser.feed(framed[offset..<end]) {
                        for index in streams.indices {
                            do { _ = try streams[index].decode(event, errors: Self.errors) } catch { if !(error is ProviderError) { untyped += 1 } }
                        }
                    }
                } catch {}
                offset = end
            }
            for stream in streams {
                do { _ = try stream.result(); _ = try stream.toolCalls() } catch { if !(error is ProviderError) { untyped += 1 } }
            }
            ran += 1
        }
        // A giant line and a giant number, once each.
        var parser = SSEParser(maxLineBytes: 1 << 16)
        #expect(throws: ProviderError.self) { try parser.feed(Array(repeating: UInt8(ascii: "d"), count: 1 << 20)) }
        #expect(try JSONValue.decode(Data(String(repeating: "7", count: 1 << 20).utf8)) == .double(.greatestFiniteMagnitude))
        let elapsed = clock.now - start
        print("RemoteFuzzTests: \(ran) iterations (\(parsed) parsed as JSON), seed \(Self.seed), \(elapsed)")
        #expect(ran == Self.iterations)
        #expect(untyped == 0, "errors other than ProviderError: \(untyped)")
        #expect(parsed > Self.iterations / 4, "the generator mostly produced valid JSON")
    }
}
