import Foundation
import SwitchboardCore
import SwitchboardInference

/// The on-device models Switchboard knows by name, for `LocalModelProvider(model:)`. Their files are
/// fetched by `Scripts/fetch-model.sh` into the model folder (`ModelRegistry`) and checked against a
/// known SHA-256 before every load. For a GGUF file of your own, use `LocalModelProvider(file:)`.
public struct LocalModel: Sendable, Hashable {
    public let configuration: ModelConfiguration

    /// SmolLM2 135M Instruct (Q4_1, 4096 tokens of context, ~300 MB): a chat model, the default.
    public static let smolLM2 = LocalModel(configuration: .smolLM2_135mInstruct)
    /// Gemma 3 270M (Q4_K_M, 8192 tokens of context, ~600 MB): a base model that continues text.
    public static let gemma3 = LocalModel(configuration: .gemma3_270m)
}

extension ModelConfiguration {
    /// Context a file of your own runs with unless you say otherwise: its KV cache grows linearly with
    /// the context (tens of KB per token for small models), and few on-device requests need more.
    public static let defaultFileContextLength = 4096

    /// The configuration a GGUF file describes: architecture, context, chat template, size and
    /// quantization read from its header (no weights are read). The id is `local-` and the file's name.
    /// - Parameters:
    ///   - sha256: checked before every load when given.
    ///   - contextLength: the context to run with (at most the file's); nil: the file's, at most
    ///     `defaultFileContextLength`.
    /// - Throws: `unreadable` for a file that is not GGUF or has no architecture,
    ///   `unsupportedArchitecture`, `unsupportedChatTemplate` for a template Switchboard cannot render.
    public init(file url: URL, sha256: String? = nil, contextLength: Int? = nil) throws(LocalModelError) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path, hint: "check the path") }
        let file: GGUFFile
        do { file = try GGUFFile(contentsOf: path) } catch { throw .unreadable(path: path, reason: error.description) }
        let architecture: String
        do { architecture = try file.architecture } catch {
            throw .unreadable(path: path, reason: "no general.architecture in the GGUF metadata (\(error))")
        }
        let supported = LanguageModel.supportedArchitectures
        guard supported.contains(architecture) else { throw .unsupportedArchitecture(Self.printable(architecture), supported: supported) }
        let template: String?
        do { template = try file.optionalString("tokenizer.chat_template") } catch {
            throw .unreadable(path: path, reason: "tokenizer.chat_template is not a string (\(error))")
        }
        let format: PromptFormat
        if let chat = ChatTemplate.detect(source: template, architecture: architecture) {
            format = .chat(chat)
        } else if template != nil {
            throw .unsupportedChatTemplate(path: path)
        } else {
            format = .completion
        }
        let declared = Self.metadataInt(file, "\(architecture).context_length") ?? Self.defaultFileContextLength
        let context = max(1, min(declared, contextLength ?? Self.defaultFileContextLength))
        let stem = url.deletingPathExtension().lastPathComponent.lowercased()
        let id = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }.prefix(64))
        self.init(id: "local-" + id, fileName: url.lastPathComponent, sha256: sha256, architecture: architecture,
                  quantization: Self.quantization(of: file), parameterCount: file.tensors.reduce(0) { $0.saturatingAdd($1.elementCount) },
                  contextLength: context,
                  memoryRequiredBytes: UInt64(file.rawBytes.count.saturatingAdd(Self.kvBytes(file, architecture, context: context))),
                  promptFormat: format, recommendedPlatforms: Set(Platform.allCases))
    }

    /// A non-negative integer from the header; nil when absent, of another type or out of range.
    private static func metadataInt(_ file: GGUFFile, _ key: String) -> Int? {
        guard let value = (try? file.optionalInt(key)) ?? nil, value > 0 else { return nil }
        return value
    }

    /// A full context's fp16 keys and values: layers × KV heads × head width × 2 (K and V) × 2 bytes.
    private static func kvBytes(_ file: GGUFFile, _ architecture: String, context: Int) -> Int {
        let heads = metadataInt(file, "\(architecture).attention.head_count") ?? 1
        let width = metadataInt(file, "\(architecture).attention.key_length")
            ?? (metadataInt(file, "\(architecture).embedding_length") ?? 0) / heads
        let factors = [metadataInt(file, "\(architecture).block_count") ?? 0,
                       metadataInt(file, "\(architecture).attention.head_count_kv") ?? heads, width, 4, context]
        return factors.reduce(1) { $0.saturatingMultiply($1) }
    }

    /// The type most of the weight matrices (tensors of two or more dimensions) are stored in.
    private static func quantization(of file: GGUFFile) -> String {
        let counts = file.tensors.filter { $0.dimensions.count >= 2 }.reduce(into: [GGMLType: Int]()) { $0[$1.type, default: 0] += 1 }
        guard let common = counts.max(by: { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }) else { return "unknown" }
        return String(describing: common.key).uppercased()
    }

    /// At most 64 printable characters of a name read from a file, for an error message.
    private static func printable(_ name: String) -> String {
        String(name.unicodeScalars.prefix(64).map { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }
}
