import Foundation
@testable import SwitchboardLocal

/// Writes a tiny GGUF v3 file with only metadata (no tensors): enough for the registry's checks and
/// for reading a configuration from a header (`ModelConfiguration(file:)`).
struct FakeModelFile {
    let path: String
    let bytes: [UInt8]

    /// - Parameters:
    ///   - architecture: `general.architecture`; nil leaves it out.
    ///   - strings, integers: more metadata (u32 values), in key order.
    init(architecture: String?, contextLength: UInt32? = nil, strings: [String: String] = [:], integers: [String: UInt32] = [:],
         padding: Int = 1000) throws {
        var out: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func string(_ s: String) { u64(UInt64(s.utf8.count)); out += Array(s.utf8) }
        var numbers = integers
        if let architecture, let contextLength { numbers["\(architecture).context_length"] = contextLength }
        u32(0x4655_4747); u32(3); u64(0)
        u64(UInt64((architecture == nil ? 0 : 1) + strings.count + numbers.count))
        if let architecture { string("general.architecture"); u32(8); string(architecture) }
        for (key, value) in strings.sorted(by: { $0.key < $1.key }) { string(key); u32(8); string(value) }
        for (key, value) in numbers.sorted(by: { $0.key < $1.key }) { string(key); u32(4); u32(value) }
        out += (0..<padding).map { UInt8(truncatingIfNeeded: $0) }
        bytes = out
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-local-tests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("fake-\(UUID().uuidString).gguf").path
        try Data(out).write(to: URL(fileURLWithPath: path))
    }

    var sha256: String { SHA256.hexDigest(of: bytes) }

    func configuration(sha256: String? = nil, architecture: String = "gemma3", contextLength: Int = 8192) -> ModelConfiguration {
        ModelConfiguration(id: "local-fake", fileName: (path as NSString).lastPathComponent,
                           sha256: sha256 ?? self.sha256, architecture: architecture, quantization: "F32",
                           parameterCount: 1, contextLength: contextLength, memoryRequiredBytes: 1 << 20,
                           promptFormat: .completion, recommendedPlatforms: [.linux])
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
