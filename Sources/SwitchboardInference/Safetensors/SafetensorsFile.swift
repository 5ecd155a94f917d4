/// An opened safetensors file (Hugging Face's and MLX's weight format): the checked header over a
/// read-only memory mapping of the bytes. Tensor data is read in place and converted to Float on
/// request (`floats(_:)`), so F16 and BF16 files cost no more memory than the mapping until a tensor
/// is read.
public final class SafetensorsFile: Sendable {
    /// The reference implementation's limit: a header larger than this is refused before it is read.
    public static let maximumHeaderBytes = 100_000_000

    private let mapping: GGUFMapping
    public let tensors: [SafetensorsTensor]
    /// `__metadata__` (empty when absent).
    public let metadata: [String: String]
    private let index: [String: Int]

    /// Memory-maps and parses the file at `path`.
    public convenience init(contentsOf path: String) throws(SafetensorsError) {
        let mapping: GGUFMapping
        do { mapping = try GGUFMapping(path: path) } catch {
            if case .cannotOpen(_, let reason) = error { throw .cannotOpen(path: path, reason: reason) }
            throw .cannotOpen(path: path, reason: error.description)
        }
        try self.init(mapping: mapping)
    }

    /// Parses an in-memory image (tests, embedded models). The bytes are copied once.
    public convenience init(bytes: [UInt8]) throws(SafetensorsError) {
        try self.init(mapping: bytes.withUnsafeBytes { GGUFMapping(copying: $0) })
    }

    private init(mapping: GGUFMapping) throws(SafetensorsError) {
        let header = try SafetensorsHeader.parse(mapping.buffer)
        self.mapping = mapping
        tensors = header.tensors.sorted { $0.offset < $1.offset }
        metadata = header.metadata
        var index: [String: Int] = [:]
        for (position, tensor) in tensors.enumerated() { index[tensor.name] = position }
        self.index = index
    }

    public func tensor(named name: String) throws(SafetensorsError) -> SafetensorsTensor {
        guard let position = index[name] else { throw .missingTensor(name) }
        return tensors[position]
    }

    public func hasTensor(named name: String) -> Bool { index[name] != nil }

    /// The tensor's elements as Float (F16 and BF16 widened exactly), after checking its shape when
    /// `shape` is given.
    public func floats(_ name: String, shape: [Int]? = nil) throws(SafetensorsError) -> [Float] {
        let info = try tensor(named: name)
        if let shape, shape != info.shape { throw .shapeMismatch(tensor: name, expected: shape, found: info.shape) }
        guard info.dtype.isFloatConvertible else { throw .unsupportedDType(tensor: name, dtype: info.dtype.rawValue) }
        return withExtendedLifetime(mapping) { Self.convert(mapping.base + info.offset, dtype: info.dtype, count: info.elementCount) }
    }

    /// The tensor's raw bytes inside the mapping; valid while this file is alive.
    public func withTensorBytes<R, E: Error>(_ info: SafetensorsTensor, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(mapping) { () throws(E) -> R in
            try body(UnsafeRawBufferPointer(start: mapping.base + info.offset, count: info.byteCount))
        }
    }

    /// Little-endian F32, F16 or BF16 elements at any alignment (the format does not promise aligned
    /// data); other types read as zeros (callers check `isFloatConvertible` first).
    static func convert(_ source: UnsafeRawPointer, dtype: SafetensorsDType, count: Int) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count {
                switch dtype {
                case .f32: out[i] = Float(bitPattern: UInt32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                case .f16: out[i] = HalfFloat.float(fromHalf: UInt16(littleEndian: source.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                case .bf16:
                    let bits = UInt16(littleEndian: source.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))
                    out[i] = Float(bitPattern: UInt32(bits) << 16)
                default: out[i] = 0
                }
            }
            initialized = count
        }
    }
}
