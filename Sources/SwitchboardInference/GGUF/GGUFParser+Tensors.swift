/// A tensor info as stored: offsets still relative to the data section.
struct RawTensorInfo {
    var name: String
    var dimensions: [Int]
    var type: GGMLType
    var relativeOffset: Int
}

extension GGUFParser {
    static let maximumDimensions = 4

    static func readTensorInfo(_ cursor: inout GGUFCursor) throws(GGUFError) -> RawTensorInfo {
        let name = try cursor.readString()
        let dimensionCount = try cursor.read(UInt32.self)
        guard dimensionCount >= 1, dimensionCount <= maximumDimensions else { throw .invalidDimensions(name: name) }
        var dimensions: [Int] = []
        dimensions.reserveCapacity(Int(dimensionCount))
        for _ in 0..<dimensionCount {
            let raw = try cursor.read(UInt64.self)
            guard raw >= 1, raw <= UInt64(Int.max) else { throw .invalidDimensions(name: name) }
            dimensions.append(Int(raw))
        }
        let rawType = try cursor.read(UInt32.self)
        guard let type = GGMLType(rawValue: rawType) else { throw .unknownTensorType(name: name, type: rawType) }
        let offset = try cursor.read(UInt64.self)
        guard offset <= UInt64(Int.max) else { throw .tensorOutOfRange(name: name) }
        return RawTensorInfo(name: name, dimensions: dimensions, type: type, relativeOffset: Int(offset))
    }

    /// Checks shape, alignment and extent with overflow-safe arithmetic and resolves the absolute offset.
    static func locate(_ raw: RawTensorInfo, dataOffset: Int, alignment: Int, fileSize: Int) throws(GGUFError) -> GGUFTensorInfo {
        let name = raw.name
        guard raw.dimensions[0] % raw.type.blockSize == 0 else { throw .dimensionMismatch(name: name) }
        var elements = 1
        for dimension in raw.dimensions {
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard !overflow else { throw .invalidDimensions(name: name) }
            elements = product
        }
        let blocks = elements / raw.type.blockSize
        let (byteCount, sizeOverflow) = blocks.multipliedReportingOverflow(by: raw.type.blockBytes)
        guard !sizeOverflow else { throw .invalidDimensions(name: name) }
        guard raw.relativeOffset % alignment == 0 else { throw .misalignedTensor(name: name) }
        let (start, startOverflow) = dataOffset.addingReportingOverflow(raw.relativeOffset)
        let (end, endOverflow) = start.addingReportingOverflow(byteCount)
        guard !startOverflow, !endOverflow, end <= fileSize else { throw .tensorOutOfRange(name: name) }
        return GGUFTensorInfo(name: name, dimensions: raw.dimensions, type: raw.type, offset: start,
                              byteCount: byteCount, elementCount: elements)
    }
}
