/// Where one tensor lives in a GGUF file and how it is shaped.
public struct GGUFTensorInfo: Sendable, Equatable {
    public var name: String
    /// ne0 (the contiguous axis) first, e.g. a linear layer [out, in] is stored as `[in, out]`.
    public var dimensions: [Int]
    public var type: GGMLType
    /// Absolute byte offset of the first element in the file (data section start + stored offset).
    public var offset: Int
    public var byteCount: Int
    public var elementCount: Int

    public init(name: String, dimensions: [Int], type: GGMLType, offset: Int, byteCount: Int, elementCount: Int) {
        self.name = name
        self.dimensions = dimensions
        self.type = type
        self.offset = offset
        self.byteCount = byteCount
        self.elementCount = elementCount
    }

    /// Number of rows: the product of every dimension after ne0.
    public var rowCount: Int { elementCount / max(dimensions.first ?? 1, 1) }
    /// Bytes of one row along ne0.
    public var rowBytes: Int { (dimensions.first ?? 0) / type.blockSize * type.blockBytes }
}
