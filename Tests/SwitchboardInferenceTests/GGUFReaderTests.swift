import Testing
@testable import SwitchboardInference

@Suite("GGUF reader")
struct GGUFReaderTests {
    static let allValues: [(String, GGUFValue)] = [
        ("t.u8", .uint8(200)), ("t.i8", .int8(-100)), ("t.u16", .uint16(60000)), ("t.i16", .int16(-30000)),
        ("t.u32", .uint32(4_000_000_000)), ("t.i32", .int32(-2_000_000_000)), ("t.f32", .float32(3.5)),
        ("t.bool", .bool(true)), ("t.str", .string("héllo ▁ 世界")), ("t.u64", .uint64(UInt64.max)),
        ("t.i64", .int64(Int64.min)), ("t.f64", .float64(-1e300)), ("t.empty", .string("")),
        ("a.u8", .array(.uint8([1, 2, 255]))), ("a.i8", .array(.int8([-1, 0, 1]))),
        ("a.u16", .array(.uint16([1, 65535]))), ("a.i16", .array(.int16([-5, 5]))),
        ("a.u32", .array(.uint32([7, 8]))), ("a.i32", .array(.int32([-7, 8, 9]))),
        ("a.f32", .array(.float32([0.5, -1.25]))), ("a.bool", .array(.bool([true, false, true]))),
        ("a.str", .array(.string(["<pad>", "▁the", "", "😀"]))), ("a.u64", .array(.uint64([1, UInt64.max]))),
        ("a.i64", .array(.int64([Int64.min, 3]))), ("a.f64", .array(.float64([1.0 / 3.0]))),
        ("a.empty", .array(.int32([]))),
    ]

    @Test func roundTripsEveryValueType() throws {
        var writer = GGUFTestWriter(metadata: Self.allValues)
        let file = try GGUFFile(bytes: writer.build())
        #expect(file.version == 3)
        #expect(file.metadata.count == Self.allValues.count)
        #expect(file.metadataKeys == Self.allValues.map(\.0))
        for (key, value) in Self.allValues { #expect(file.metadata[key] == value, "\(key)") }
        #expect(file.tensors.isEmpty)
        #expect(file.alignment == 32)
    }

    @Test func typedAccessors() throws {
        var writer = GGUFTestWriter(metadata: Self.allValues + [("general.architecture", .string("gemma3"))])
        let file = try GGUFFile(bytes: writer.build())
        #expect(try file.architecture == "gemma3")
        #expect(try file.int("t.u8") == 200)
        #expect(try file.int("t.i64") == Int(Int64.min))
        #expect(try file.uint32("t.u16") == 60000)
        #expect(try file.float("t.f32") == 3.5)
        #expect(try file.bool("t.bool"))
        #expect(try file.stringArray("a.str") == ["<pad>", "▁the", "", "😀"])
        #expect(try file.floatArray("a.f32") == [0.5, -1.25])
        #expect(try file.int32Array("a.i32") == [-7, 8, 9])
        #expect(try file.int32Array("a.u16") == [1, 65535])
        #expect(throws: GGUFError.missingKey("nope")) { try file.int("nope") }
        #expect(throws: GGUFError.typeMismatch(key: "t.str", expected: "an integer")) { try file.int("t.str") }
        #expect(throws: GGUFError.self) { try file.uint32("t.i32") }
        #expect(throws: GGUFError.self) { try file.int("t.u64") }
        #expect(throws: GGUFError.self) { try file.int32Array("a.u64") }
        #expect(throws: GGUFError.self) { try file.stringArray("a.f32") }
        #expect(try file.optionalInt("absent") == nil)
    }

    @Test func tensorsAreLocatedAndAligned() throws {
        var writer = GGUFTestWriter(
            metadata: [("general.alignment", .uint32(64))],
            tensors: [
                .init(name: "a", dimensions: [256, 2], type: GGMLType.q4_K.rawValue, byteCount: 288),
                .init(name: "b", dimensions: [3], type: GGMLType.f32.rawValue, byteCount: 12),
                .init(name: "c", dimensions: [32, 1, 2], type: GGMLType.q8_0.rawValue, byteCount: 68),
            ],
            alignment: 64)
        let bytes = writer.build()
        let file = try GGUFFile(bytes: bytes)
        #expect(file.alignment == 64)
        #expect(file.dataOffset % 64 == 0)
        let a = try file.tensor(named: "a")
        #expect(a.dimensions == [256, 2] && a.type == .q4_K && a.byteCount == 288 && a.elementCount == 512)
        #expect(a.offset == file.dataOffset && a.rowCount == 2 && a.rowBytes == 144)
        let b = try file.tensor(named: "b")
        #expect(b.offset == file.dataOffset + 320 && b.byteCount == 12)
        let c = try file.tensor(named: "c")
        #expect(c.offset == file.dataOffset + 384 && c.elementCount == 64 && c.byteCount == 68)
        // The pointer sees the bytes the writer put there.
        let expected = (0..<12).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(Array(file.tensorBytes(b)) == expected)
        #expect(file.withTensorBytes(b) { Array($0) } == expected)
        #expect(file.tensorPointer(b).load(as: UInt8.self) == expected[0])
        #expect(throws: GGUFError.missingTensor("zzz")) { try file.tensor(named: "zzz") }
    }

    @Test func ggmlTypeSizes() {
        #expect(GGMLType.q4_K.blockSize == 256 && GGMLType.q4_K.blockBytes == 144)
        #expect(GGMLType.q6_K.blockBytes == 210 && GGMLType.q8_0.blockBytes == 34 && GGMLType.q5_0.blockBytes == 22)
        #expect(GGMLType.f32.blockSize == 1 && GGMLType.bf16.blockBytes == 2 && GGMLType.q8_K.blockBytes == 292)
        #expect(GGMLType(rawValue: 4) == nil && GGMLType(rawValue: 30) == .bf16)
    }

    @Test func messagesAreActionable() {
        #expect(GGUFError.badMagic.description.contains("not a GGUF file"))
        #expect(GGUFError.truncated(at: 10, needed: 8).description.contains("offset 10"))
        #expect(GGUFError.unknownTensorType(name: "w", type: 99).description.contains("99"))
        #expect(GGUFError.cannotOpen(path: "/x", reason: "No such file").description.contains("/x"))
    }

    @Test func opensFromDiskByMapping() throws {
        #expect(throws: GGUFError.self) { try GGUFFile(contentsOf: "/nonexistent/model.gguf") }
        #expect(throws: GGUFError.self) { try GGUFFile(contentsOf: "/") }
    }
}
