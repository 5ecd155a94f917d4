import Foundation
import Testing
@testable import SwitchboardLocal

@Suite("Model registry and verification")
struct ModelRegistryTests {
    @Test("the registry knows the models: SmolLM2 (chat, the default for chat), Gemma 3 (completion), MiniLM (embedding)")
    func bothModels() throws {
        let registry = ModelRegistry(environment: ["HOME": "/home/someone"])
        #expect(registry.configurations.map(\.id) == ["local-smollm2-135m-instruct", "local-gemma-3-270m", "local-minilm-l6-v2"])
        let smol = try registry.configuration(id: "local-smollm2-135m-instruct")
        #expect(smol == ModelRegistry.defaultChatModel)
        #expect(smol.architecture == "llama" && smol.quantization == "Q4_1" && smol.promptFormat.isChat)
        #expect(smol.sha256 == "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")
        #expect(registry.path(for: smol) == "/home/someone/.cache/switchboard/models/SmolLM2-135M-Instruct.Q4_1.gguf")
        #expect(!ModelRegistry.defaultCompletionModel.promptFormat.isChat)
    }

    @Test("Gemma 3 270M Q4_K_M is registered as a base model")
    func defaultConfiguration() throws {
        let registry = ModelRegistry(environment: ["HOME": "/home/someone"])
        let gemma = try registry.configuration(id: "local-gemma-3-270m")
        #expect(gemma.fileName == "gemma-3-270m-q4_k_m.gguf")
        #expect(gemma.architecture == "gemma3" && gemma.promptFormat == .completion)
        #expect(gemma.sha256 == "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818")
        #expect(registry.path(for: gemma) == "/home/someone/.cache/switchboard/models/gemma-3-270m-q4_k_m.gguf")
        #expect(throws: LocalModelError.self) { try registry.configuration(id: "local-nope") }
    }

    @Test("SWITCHBOARD_MODEL_DIR overrides the folder; register replaces by id")
    func folderAndRegister() throws {
        var registry = ModelRegistry(environment: ["SWITCHBOARD_MODEL_DIR": "/models", "HOME": "/h"])
        #expect(registry.modelDirectory == "/models")
        var bigger = ModelConfiguration.gemma3_270m
        bigger.memoryRequiredBytes = 4 << 30
        registry.register(bigger)
        #expect(registry.configurations.count == 3)
        #expect(registry.recommended(for: .iOS, availableMemoryBytes: 1 << 30).map(\.id) == ["local-smollm2-135m-instruct"])
        #expect(registry.recommended(for: .linux).map(\.id) == ["local-smollm2-135m-instruct", "local-gemma-3-270m"])
    }

    @Test("all-MiniLM-L6-v2 is the embedding model: kind, folder path, weights' sha256; never recommended for generation")
    func embeddingModel() throws {
        let registry = ModelRegistry(environment: ["HOME": "/home/someone"])
        let minilm = try registry.configuration(id: "local-minilm-l6-v2")
        #expect(minilm == ModelRegistry.defaultEmbeddingModel)
        #expect(minilm.kind == .embedding && minilm.architecture == "bert" && minilm.contextLength == 256)
        #expect(minilm.sha256 == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db")
        #expect(registry.path(for: minilm) == "/home/someone/.cache/switchboard/models/all-MiniLM-L6-v2/model.safetensors")
        #expect(registry.recommended(for: .linux, kind: .embedding).map(\.id) == ["local-minilm-l6-v2"])
        #expect(!registry.recommended(for: .linux).contains { $0.kind == .embedding })
        #expect(ModelConfiguration.gemma3_270m.kind == .generation)
    }

    @Test("a matching file verifies, and the second verification reuses the hash")
    func verifiesAndCaches() async throws {
        let file = try FakeModelFile(architecture: "gemma3", contextLength: 4096)
        defer { file.remove() }
        let verifier = ModelVerifier()
        let first = try await verifier.verify(path: file.path, against: file.configuration())
        #expect(first.contextLength == 4096)
        #expect(!first.fromCache)
        let second = try await verifier.verify(path: file.path, against: file.configuration())
        #expect(second.fromCache)
        #expect(await verifier.hashesComputed == 1)
    }

    @Test("the configured context wins when it is smaller than the file's")
    func contextCap() async throws {
        let file = try FakeModelFile(architecture: "gemma3", contextLength: 32768)
        defer { file.remove() }
        let verified = try await ModelVerifier().verify(path: file.path, against: file.configuration(contextLength: 8192))
        #expect(verified.contextLength == 8192)
    }

    @Test("a wrong checksum is refused with both digests")
    func checksumMismatch() async throws {
        let file = try FakeModelFile(architecture: "gemma3")
        defer { file.remove() }
        let expected = String(repeating: "0", count: 64)
        await #expect(throws: LocalModelError.checksumMismatch(expected: expected, actual: file.sha256)) {
            try await ModelVerifier().verify(path: file.path, against: file.configuration(sha256: expected))
        }
    }

    @Test("a different architecture is refused before hashing")
    func architectureMismatch() async throws {
        let file = try FakeModelFile(architecture: "llama")
        defer { file.remove() }
        let verifier = ModelVerifier()
        await #expect(throws: LocalModelError.architectureMismatch(expected: "gemma3", actual: "llama")) {
            try await verifier.verify(path: file.path, against: file.configuration())
        }
        #expect(await verifier.hashesComputed == 0)
    }

    @Test("a missing file names the fetch script; a non-GGUF file is unreadable")
    func missingAndGarbage() async throws {
        let missing = "/nonexistent/\(UUID().uuidString).gguf"
        do {
            _ = try await ModelVerifier().verify(path: missing, against: .gemma3_270m)
            Issue.record("expected fileNotFound")
        } catch {
            guard case .fileNotFound(let path, let hint) = error else { Issue.record("got \(error)"); return }
            #expect(path == missing && hint.contains("Scripts/fetch-model.sh"))
        }
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID().uuidString)").path
        try Data("not a model at all".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        do {
            _ = try await ModelVerifier().verify(path: garbage, against: .gemma3_270m)
            Issue.record("expected unreadable")
        } catch {
            guard case .unreadable = error else { Issue.record("got \(error)"); return }
        }
    }
}
