import Foundation

/// The on-device models Switchboard knows, and where their files live.
///
/// Files are looked up by name in one folder: `$SWITCHBOARD_MODEL_DIR`, else `~/.cache/switchboard/models`
/// (where `Scripts/fetch-model.sh` stores them).
public struct ModelRegistry: Sendable, Hashable {
    public private(set) var configurations: [ModelConfiguration]
    public var modelDirectory: String

    public init(configurations: [ModelConfiguration] = [.smolLM2_135mInstruct, .gemma3_270m, .miniLM_L6_v2], modelDirectory: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configurations = []
        self.modelDirectory = modelDirectory ?? Self.defaultModelDirectory(environment: environment)
        for configuration in configurations { register(configuration) }
    }

    public static let `default` = ModelRegistry()

    /// The model that serves chat requests by default.
    public static let defaultChatModel = ModelConfiguration.smolLM2_135mInstruct
    /// The base model that continues text.
    public static let defaultCompletionModel = ModelConfiguration.gemma3_270m
    /// The sentence encoder that turns text into vectors on the device.
    public static let defaultEmbeddingModel = ModelConfiguration.miniLM_L6_v2

    public static func defaultModelDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let folder = environment["SWITCHBOARD_MODEL_DIR"], !folder.isEmpty { return folder }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(".cache/switchboard/models")
    }

    /// Adds a configuration, replacing one with the same id.
    public mutating func register(_ configuration: ModelConfiguration) {
        configurations.removeAll { $0.id == configuration.id }
        configurations.append(configuration)
    }

    public func configuration(id: String) throws(LocalModelError) -> ModelConfiguration {
        guard let found = configurations.first(where: { $0.id == id }) else {
            throw .unknownModel(id: id, known: configurations.map(\.id))
        }
        return found
    }

    /// Where the configuration's file is expected.
    public func path(for configuration: ModelConfiguration) -> String {
        (modelDirectory as NSString).appendingPathComponent(configuration.fileName)
    }

    /// Models of `kind` recommended for `platform` that fit in `availableMemoryBytes` (when known),
    /// smallest first.
    public func recommended(for platform: ModelConfiguration.Platform, availableMemoryBytes: UInt64? = nil,
                            kind: ModelConfiguration.Kind = .generation) -> [ModelConfiguration] {
        configurations
            .filter { $0.kind == kind && $0.recommendedPlatforms.contains(platform) }
            .filter { model in availableMemoryBytes.map { model.memoryRequiredBytes <= $0 } ?? true }
            .sorted { $0.memoryRequiredBytes < $1.memoryRequiredBytes }
    }
}
