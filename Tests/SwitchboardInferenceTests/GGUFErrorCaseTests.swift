import Testing
@testable import SwitchboardInference

@Suite("GGUF reader errors")
struct GGUFErrorCaseTests {
    private func parse(_ writer: GGUFTestWriter) -> GGUFError? {
        var writer = writer
        do {
            _ = try GGUFFile(bytes: writer.build())
            return nil
        } catch {
            return error
        }
    }

    private func parse(bytes: [UInt8]) -> GGUFError? {
        do {
            _ = try GGUFFile(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    private let tensor = GGUFTestWriter.Tensor(name: "w", dimensions: [32], type: GGMLType.q8_0.rawValue, byteCount: 34)

    @Test func headerErrors() {
        #expect(parse(bytes: []) == .badMagic)
        #expect(parse(bytes: Array("GGUG".utf8) + [3, 0, 0, 0]) == .badMagic)
        #expect(parse(GGUFTestWriter(version: 1)) == .unsupportedVersion(1))
        #expect(parse(GGUFTestWriter(version: 0x0300_0000)) == .unsupportedVersion(0x0300_0000))
        #expect(GGUFError.unsupportedVersion(0x0300_0000).description.contains("big-endian"))
        #expect(parse(GGUFTestWriter(version: 2)) == nil)
        if case .truncated = parse(bytes: Array("GGUF".utf8) + [3, 0, 0]) {} else { Issue.record("expected truncated") }
    }

    @Test func countErrors() {
        if case .tooLarge = parse(GGUFTestWriter(kvCountOverride: 1 << 40)) {} else { Issue.record("kv count") }
        if case .tooLarge = parse(GGUFTestWriter(tensorCountOverride: 1 << 40)) {} else { Issue.record("tensor count") }
        if case .truncated = parse(GGUFTestWriter(metadata: [("k", .string(String(repeating: "x", count: 64)))], kvCountOverride: 2)) {} else {
            Issue.record("kv count beyond entries")
        }
    }

    @Test func lengthErrors() {
        var writer = GGUFTestWriter(metadata: [("key", .string("value"))])
        var bytes = writer.build()
        let stringLength = writer.lengthPositions[3]
        setU64(&bytes, at: stringLength, 1 << 31)
        if case .tooLarge = parse(bytes: bytes) {} else { Issue.record("string > 2^30") }
        setU64(&bytes, at: stringLength, 1000)
        if case .truncated = parse(bytes: bytes) {} else { Issue.record("string past end") }

        var arrayWriter = GGUFTestWriter(metadata: [("key", .array(.uint64([1, 2])))])
        bytes = arrayWriter.build()
        let arrayCount = arrayWriter.lengthPositions[3]
        setU64(&bytes, at: arrayCount, 1 << 31)
        if case .tooLarge = parse(bytes: bytes) {} else { Issue.record("array > 2^30") }
        setU64(&bytes, at: arrayCount, 1 << 29)
        if case .truncated = parse(bytes: bytes) {} else { Issue.record("array past end, no huge allocation") }
    }

    @Test func valueErrors() {
        var writer = GGUFTestWriter(metadata: [("key", .uint8(1))])
        var bytes = writer.build()
        let typePosition = bytes.count - 5
        setU32(&bytes, at: typePosition, 13)
        #expect(parse(bytes: bytes) == .unknownValueType(13))
        // An array whose element type is ARRAY.
        writer = GGUFTestWriter(metadata: [("nest", .array(.uint8([])))])
        bytes = writer.build()
        setU32(&bytes, at: writer.lengthPositions[3] - 4, GGUFValueType.array.rawValue)
        #expect(parse(bytes: bytes) == .nestedArray(key: "nest"))
        // Invalid UTF-8 in a string.
        writer = GGUFTestWriter(metadata: [("key", .string("ab"))])
        bytes = writer.build()
        bytes[bytes.count - 1] = 0xFF
        if case .invalidString = parse(bytes: bytes) {} else { Issue.record("invalid UTF-8") }
        #expect(parse(GGUFTestWriter(metadata: [("", .uint8(1))])) == .emptyKey(at: 24))
        #expect(parse(GGUFTestWriter(metadata: [("k", .uint8(1)), ("k", .uint8(2))])) == .duplicateKey("k"))
    }

    @Test func alignmentErrors() {
        if case .invalidAlignment = parse(GGUFTestWriter(metadata: [("general.alignment", .uint32(48))])) {} else {
            Issue.record("non power of two")
        }
        if case .invalidAlignment = parse(GGUFTestWriter(metadata: [("general.alignment", .uint32(0))])) {} else {
            Issue.record("zero")
        }
        if case .invalidAlignment = parse(GGUFTestWriter(metadata: [("general.alignment", .uint64(32))])) {} else {
            Issue.record("wrong type")
        }
    }

    @Test func tensorErrors() {
        func with(_ edit: (inout GGUFTestWriter.Tensor) -> Void) -> GGUFTestWriter {
            var t = tensor
            edit(&t)
            return GGUFTestWriter(tensors: [t])
        }
        #expect(parse(GGUFTestWriter(tensors: [tensor])) == nil)
        #expect(parse(with { $0.type = 99 }) == .unknownTensorType(name: "w", type: 99))
        #expect(parse(with { $0.dimensions = [] }) == .invalidDimensions(name: "w"))
        #expect(parse(with { $0.dimensions = [32, 1, 1, 1, 1] }) == .invalidDimensions(name: "w"))
        #expect(parse(with { $0.dimensions = [32, 0] }) == .invalidDimensions(name: "w"))
        #expect(parse(with { $0.dimensions = [1 << 62, 1 << 62] }) == .invalidDimensions(name: "w"))
        #expect(parse(with { $0.dimensions = [48] }) == .dimensionMismatch(name: "w"))
        #expect(parse(with { $0.dimensions = [64] }) == .tensorOutOfRange(name: "w"))
        #expect(parse(with { $0.offset = 16 }) == .misalignedTensor(name: "w"))
        #expect(parse(with { $0.offset = UInt64(Int.max) - 31 }) == .tensorOutOfRange(name: "w"))
        #expect(parse(with { $0.offset = UInt64.max }) == .tensorOutOfRange(name: "w"))
        #expect(parse(GGUFTestWriter(tensors: [tensor, tensor])) == .duplicateTensor("w"))
    }

    private func setU64(_ bytes: inout [UInt8], at position: Int, _ value: UInt64) {
        for i in 0..<8 { bytes[position + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }

    private func setU32(_ bytes: inout [UInt8], at position: Int, _ value: UInt32) {
        for i in 0..<4 { bytes[position + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }
}
