import Foundation
import SwitchboardInference
import Testing
@testable import SwitchboardLocal

/// `LocalModelProvider(model:)` and `LocalModelProvider(file:)`: a catalog name, or a GGUF file whose
/// header says what it is.
@Suite("Models by name and from a file")
struct ModelFromFileTests {
    static let chatML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
        + "{% if messages[0].role != 'system' %}<|im_start|>system\nYou are terse.<|im_end|>\n{% endif %}"

    @Test("the catalog's default is the chat model, with its checksum")
    func catalog() async {
        let provider = LocalModelProvider()
        #expect(provider.configuration == .smolLM2_135mInstruct)
        #expect(provider.configuration.promptFormat.isChat && provider.capabilities.followsInstructions)
        #expect(LocalModelProvider(model: .gemma3).configuration == .gemma3_270m)
        #expect(LocalModel.smolLM2.configuration.sha256 != nil)
        #expect((1...8).contains(LocalModelProvider.defaultThreads))
    }

    @Test("a synthetic file: architecture, context, ChatML template with its system line, no checksum")
    func syntheticChatFile() throws {
        let fake = try FakeModelFile(architecture: "qwen2", contextLength: 2048, strings: ["tokenizer.chat_template": Self.chatML],
                                     integers: ["qwen2.block_count": 2, "qwen2.attention.head_count": 4,
                                                "qwen2.attention.head_count_kv": 2, "qwen2.embedding_length": 64])
        defer { fake.remove() }
        let url = URL(fileURLWithPath: fake.path)
        let configuration = try ModelConfiguration(file: url)
        #expect(configuration.architecture == "qwen2")
        #expect(configuration.contextLength == 2048)
        #expect(configuration.promptFormat == .chat(.chatML(defaultSystem: "You are terse.")))
        #expect(configuration.sha256 == nil)
        #expect(configuration.id.hasPrefix("local-fake-") && configuration.fileName == url.lastPathComponent)
        // Header plus 2 layers × 2 KV heads × 16 wide × (K, V) × 2 bytes × 2048 positions.
        #expect(configuration.memoryRequiredBytes == UInt64(fake.bytes.count) + 2 * 2 * 16 * 4 * 2048)
        #expect(try ModelConfiguration(file: url, contextLength: 512).contextLength == 512)
        #expect(try ModelConfiguration(file: url, contextLength: 1 << 20).contextLength == 2048, "never beyond the file's")
        let provider = try LocalModelProvider(file: url, sha256: fake.sha256.uppercased())
        #expect(provider.configuration.sha256 == fake.sha256)
        #expect(provider.modelPath == fake.path && provider.capabilities.maxContextTokens == 2048)
    }

    @Test("a file without a template is a completion model; a long declared context is capped")
    func syntheticBaseFile() throws {
        let fake = try FakeModelFile(architecture: "llama", contextLength: 131_072)
        defer { fake.remove() }
        let configuration = try ModelConfiguration(file: URL(fileURLWithPath: fake.path))
        #expect(configuration.promptFormat == .completion)
        #expect(configuration.contextLength == ModelConfiguration.defaultFileContextLength)
    }

    @Test("a file without a checksum loads unhashed; with a wrong one it fails the load")
    func optionalChecksum() async throws {
        let fake = try FakeModelFile(architecture: "gemma3", contextLength: 1024)
        defer { fake.remove() }
        let verifier = ModelVerifier()
        let unhashed = try ModelConfiguration(file: URL(fileURLWithPath: fake.path))
        _ = try await verifier.verify(path: fake.path, against: unhashed)
        #expect(await verifier.hashesComputed == 0)
        let wrong = try ModelConfiguration(file: URL(fileURLWithPath: fake.path), sha256: String(repeating: "0", count: 64))
        await #expect(throws: LocalModelError.checksumMismatch(expected: String(repeating: "0", count: 64), actual: fake.sha256)) {
            _ = try await verifier.verify(path: fake.path, against: wrong)
        }
    }

    @Test("missing or hostile architecture and templates are typed errors")
    func hostileFiles() throws {
        func configuration(_ fake: FakeModelFile) throws(LocalModelError) -> ModelConfiguration {
            try ModelConfiguration(file: URL(fileURLWithPath: fake.path))
        }
        let none = try FakeModelFile(architecture: nil)
        defer { none.remove() }
        #expect { try configuration(none) } throws: { error in
            guard case LocalModelError.unreadable(_, let reason) = error else { return false }
            return reason.contains("general.architecture")
        }
        let hostile = "\u{1B}[31m" + String(repeating: "x", count: 10_000)
        let unknown = try FakeModelFile(architecture: hostile)
        defer { unknown.remove() }
        #expect { try configuration(unknown) } throws: { error in
            guard case LocalModelError.unsupportedArchitecture(let name, let supported) = error else { return false }
            return name.count == 64 && !name.contains("\u{1B}") && supported.contains("llama")
        }
        let llama3 = try FakeModelFile(architecture: "llama", strings: ["tokenizer.chat_template": "<|start_header_id|>{{ role }}"])
        defer { llama3.remove() }
        #expect(throws: LocalModelError.unsupportedChatTemplate(path: llama3.path)) { try configuration(llama3) }
        let numeric = try FakeModelFile(architecture: "llama", integers: ["tokenizer.chat_template": 7])
        defer { numeric.remove() }
        #expect { try configuration(numeric) } throws: { error in
            if case LocalModelError.unreadable = error { true } else { false }
        }
        #expect(throws: LocalModelError.self) { try LocalModelProvider(file: URL(fileURLWithPath: "/nonexistent/model.gguf")) }
        let notGGUF = URL(fileURLWithPath: none.path + ".txt")
        try Data("hello".utf8).write(to: notGGUF)
        defer { try? FileManager.default.removeItem(at: notGGUF) }
        #expect { try ModelConfiguration(file: notGGUF) } throws: { error in
            if case LocalModelError.unreadable = error { true } else { false }
        }
    }

    @Test("the real SmolLM2 file reads as the catalog's SmolLM2", .enabled(if: RealModel.chatEnabled, RealModel.chatSkipReason))
    func realSmolLM2() throws {
        let url = URL(fileURLWithPath: RealModel.chatPath)
        let known = ModelConfiguration.smolLM2_135mInstruct
        let read = try ModelConfiguration(file: url, sha256: known.sha256)
        #expect(read.architecture == known.architecture)
        #expect(read.promptFormat == known.promptFormat)
        #expect(read.contextLength == known.contextLength)
        #expect(read.parameterCount == known.parameterCount)
        #expect(read.quantization == known.quantization)
        #expect(read.sha256 == known.sha256 && read.fileName == known.fileName)
        #expect(read.memoryRequiredBytes > 100 << 20 && read.memoryRequiredBytes < known.memoryRequiredBytes * 2)
    }
}
