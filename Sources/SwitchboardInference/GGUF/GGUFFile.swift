import Foundation

/// An opened GGUF model file: parsed metadata and tensor infos over a read-only mapping of the bytes.
///
/// Tensor data is used in place: `tensorPointer(_:)` points into the mapping and stays valid for as
/// long as this object is alive.
public final class GGUFFile: Sendable {
    private let mapping: GGUFMapping
    public let version: UInt32
    public let metadata: [String: GGUFValue]
    /// Metadata keys in file order (the dictionary does not keep it).
    public let metadataKeys: [String]
    public let tensors: [GGUFTensorInfo]
    /// `general.alignment`, or 32 when absent.
    public let alignment: Int
    /// Absolute offset of the tensor data section.
    public let dataOffset: Int
    private let tensorIndex: [String: Int]

    /// Memory-maps and parses the file at `path`.
    public convenience init(contentsOf path: String) throws(GGUFError) {
        try self.init(mapping: try GGUFMapping(path: path))
    }

    /// Parses an in-memory GGUF image (tests, fuzzing, embedded models). The bytes are copied once.
    public convenience init(bytes: [UInt8]) throws(GGUFError) {
        let mapping = bytes.withUnsafeBytes { GGUFMapping(copying: $0) }
        try self.init(mapping: mapping)
    }

    public convenience init(data: Data) throws(GGUFError) {
        let mapping = data.withUnsafeBytes { GGUFMapping(copying: $0) }
        try self.init(mapping: mapping)
    }

    private init(mapping: GGUFMapping) throws(GGUFError) {
        let header = try GGUFParser.parse(mapping.buffer)
        self.mapping = mapping
        version = header.version
        metadata = header.metadata
        metadataKeys = header.metadataOrder
        tensors = header.tensors
        alignment = header.alignment
        dataOffset = header.dataOffset
        var index: [String: Int] = [:]
        index.reserveCapacity(header.tensors.count)
        for (position, tensor) in header.tensors.enumerated() { index[tensor.name] = position }
        tensorIndex = index
    }

    /// Total file size in bytes.
    public var byteCount: Int { mapping.count }

    public func tensor(named name: String) throws(GGUFError) -> GGUFTensorInfo {
        guard let position = tensorIndex[name] else { throw .missingTensor(name) }
        return tensors[position]
    }

    public func hasTensor(named name: String) -> Bool { tensorIndex[name] != nil }

    /// The tensor's bytes inside the mapping; valid while this file is alive. `info` must come from
    /// this file (its range was checked against the file size when the file was opened).
    public func tensorBytes(_ info: GGUFTensorInfo) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: mapping.buffer[info.offset..<(info.offset + info.byteCount)])
    }

    /// The first byte of the tensor's data; valid while this file is alive.
    public func tensorPointer(_ info: GGUFTensorInfo) -> UnsafeRawPointer {
        mapping.base + info.offset
    }

    /// Runs `body` over the tensor's bytes, keeping the file alive for the duration.
    public func withTensorBytes<R, E: Error>(
        _ info: GGUFTensorInfo, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try withExtendedLifetime(self) { () throws(E) -> R in try body(tensorBytes(info)) }
    }

    /// The whole file; valid while this file is alive.
    public var rawBytes: UnsafeRawBufferPointer { mapping.buffer }
}
