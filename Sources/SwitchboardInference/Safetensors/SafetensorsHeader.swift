import Foundation

/// The JSON header of a safetensors file, decoded and checked against the data section's size.
///
/// Layout: an 8-byte little-endian header length N, N bytes of UTF-8 JSON (an object mapping each
/// tensor name to `{dtype, shape, data_offsets: [begin, end]}`, plus an optional `__metadata__` object
/// of strings), then the data section; offsets are relative to its start. Every number is checked:
/// integers only, shapes multiplied with overflow checks, `end − begin` equal to elements × dtype size,
/// ranges inside the data section and disjoint.
struct SafetensorsHeader {
    let tensors: [SafetensorsTensor]
    let metadata: [String: String]

    static func parse(_ bytes: UnsafeRawBufferPointer) throws(SafetensorsError) -> SafetensorsHeader {
        guard bytes.count >= 8 else { throw .truncatedHeader(declared: 8, available: bytes.count) }
        var length: UInt64 = 0
        for i in 0..<8 { length |= UInt64(bytes[i]) << (8 * UInt64(i)) }
        guard length <= UInt64(SafetensorsFile.maximumHeaderBytes) else { throw .headerTooLarge(length) }
        guard let headerLength = Int(exactly: length), headerLength <= bytes.count - 8 else {
            throw .truncatedHeader(declared: length, available: bytes.count - 8)
        }
        let dataStart = 8 + headerLength
        let dataSize = bytes.count - dataStart
        let json = Data(UnsafeRawBufferPointer(rebasing: bytes[8..<dataStart]))
        let raw: RawHeader
        do { raw = try JSONDecoder().decode(RawHeader.self, from: json) } catch {
            throw .invalidHeader("not a JSON object of tensor entries (\(Self.reason(error)))")
        }
        var tensors: [SafetensorsTensor] = []
        tensors.reserveCapacity(raw.entries.count)
        for entry in raw.entries {
            tensors.append(try entry.checked(dataStart: dataStart, dataSize: dataSize))
        }
        let byStart = tensors.sorted { ($0.offset, $0.byteCount) < ($1.offset, $1.byteCount) }
        for (a, b) in zip(byStart, byStart.dropFirst()) where a.offset + a.byteCount > b.offset && b.byteCount > 0 && a.byteCount > 0 {
            throw .overlappingTensors(a.name, b.name)
        }
        return SafetensorsHeader(tensors: tensors, metadata: raw.metadata)
    }

    /// A short reason from a decoding error, without echoing the whole header.
    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?: context.debugDescription.prefix(120).description
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?:
            (context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription).prefix(160).description
        default: "malformed JSON"
        }
    }
}

/// One tensor entry as written in the JSON, before its numbers are checked.
private struct RawEntry: Decodable {
    var name = ""
    let dtype: String
    let shape: [Int]
    let dataOffsets: [Int]

    enum CodingKeys: String, CodingKey { case dtype, shape, dataOffsets = "data_offsets" }

    func checked(dataStart: Int, dataSize: Int) throws(SafetensorsError) -> SafetensorsTensor {
        guard let type = SafetensorsDType(rawValue: dtype) else { throw .unsupportedDType(tensor: name, dtype: String(dtype.prefix(16))) }
        var elements = 1
        for dimension in shape {
            guard dimension >= 0 else { throw .invalidShape(tensor: name) }
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard !overflow else { throw .invalidShape(tensor: name) }
            elements = product
        }
        let (bytes, overflow) = elements.multipliedReportingOverflow(by: type.byteSize)
        guard !overflow else { throw .invalidShape(tensor: name) }
        guard dataOffsets.count == 2 else { throw .invalidOffsets(tensor: name, reason: "expected [begin, end]") }
        let begin = dataOffsets[0], end = dataOffsets[1]
        guard begin >= 0, begin <= end else { throw .invalidOffsets(tensor: name, reason: "begin \(begin) is negative or after end \(end)") }
        guard end <= dataSize else {
            throw .invalidOffsets(tensor: name, reason: "end \(end) is past the data section (\(dataSize) bytes)")
        }
        guard end - begin == bytes else {
            throw .invalidOffsets(tensor: name, reason: "\(end - begin) bytes for \(elements) \(type.rawValue) elements (\(bytes) bytes)")
        }
        return SafetensorsTensor(name: name, dtype: type, shape: shape, offset: dataStart + begin, byteCount: bytes)
    }
}

/// The top-level JSON object: tensor entries by name, and `__metadata__` (string to string).
private struct RawHeader: Decodable {
    var entries: [RawEntry] = []
    var metadata: [String: String] = [:]

    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            if key.stringValue == "__metadata__" {
                metadata = try container.decode([String: String].self, forKey: key)
            } else {
                var entry = try container.decode(RawEntry.self, forKey: key)
                entry.name = key.stringValue
                entries.append(entry)
            }
        }
    }
}
