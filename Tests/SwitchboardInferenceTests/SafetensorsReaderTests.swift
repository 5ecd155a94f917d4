import Foundation
import Testing
@testable import SwitchboardInference

/// Builds safetensors images: a header from JSON text (so tests can write hostile headers) over data.
enum SafetensorsImage {
    static func bytes(header: String, data: [UInt8], declaredLength: UInt64? = nil) -> [UInt8] {
        let json = Array(header.utf8)
        let length = declaredLength ?? UInt64(json.count)
        return (0..<8).map { UInt8(truncatingIfNeeded: length >> (8 * UInt64($0))) } + json + data
    }

    /// A valid file of F32 tensors laid out one after another.
    static func f32(_ tensors: [(String, [Int], [Float])], metadata: [String: String] = [:]) -> [UInt8] {
        var entries: [String] = []
        var data: [UInt8] = []
        if !metadata.isEmpty {
            let pairs = metadata.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
            entries.append("\"__metadata__\": {\(pairs)}")
        }
        for (name, shape, values) in tensors {
            let begin = data.count
            for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { data += $0 } }
            entries.append("\"\(name)\": {\"dtype\": \"F32\", \"shape\": \(shape), \"data_offsets\": [\(begin), \(data.count)]}")
        }
        return bytes(header: "{" + entries.joined(separator: ", ") + "}", data: data)
    }
}

@Suite("Safetensors reader")
struct SafetensorsReaderTests {
    @Test("reads F32 tensors, shapes and __metadata__")
    func readsF32() throws {
        let image = SafetensorsImage.f32([("a.weight", [2, 3], [1, 2, 3, 4, 5, 6]), ("b", [2], [-1.5, 0.25])], metadata: ["format": "pt"])
        let file = try SafetensorsFile(bytes: image)
        #expect(file.metadata == ["format": "pt"])
        #expect(try file.tensor(named: "a.weight").shape == [2, 3])
        #expect(try file.floats("a.weight", shape: [2, 3]) == [1, 2, 3, 4, 5, 6])
        #expect(try file.floats("b") == [-1.5, 0.25])
        #expect(throws: SafetensorsError.shapeMismatch(tensor: "b", expected: [3], found: [2])) { try file.floats("b", shape: [3]) }
        #expect(throws: SafetensorsError.missingTensor("c")) { try file.floats("c") }
    }

    @Test("widens F16 and BF16 exactly, at any alignment")
    func halfTypes() throws {
        let halves: [UInt16] = [0x3C00, 0xC000, 0x3555]  // 1, -2, 0.333…
        let bhalves: [UInt16] = [0x3F80, 0x4049]  // 1, 3.140625
        var data: [UInt8] = [0]  // one byte of padding: the data is deliberately misaligned
        for h in halves + bhalves { data += [UInt8(h & 0xFF), UInt8(h >> 8)] }
        let header = """
        {"h": {"dtype": "F16", "shape": [3], "data_offsets": [1, 7]}, "b": {"dtype": "BF16", "shape": [2], "data_offsets": [7, 11]}}
        """
        let file = try SafetensorsFile(bytes: SafetensorsImage.bytes(header: header, data: data))
        #expect(try file.floats("h") == [1, -2, Float(Float16(bitPattern: 0x3555))])
        #expect(try file.floats("b") == [1, 3.140625])
    }

    @Test("reads a file from disk through the mapping")
    func mapsFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("st-\(UUID().uuidString).safetensors")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(SafetensorsImage.f32([("x", [4], [1, 2, 3, 4])])).write(to: url)
        #expect(try SafetensorsFile(contentsOf: url.path).floats("x") == [1, 2, 3, 4])
        #expect(throws: SafetensorsError.self) { try SafetensorsFile(contentsOf: url.path + ".missing") }
    }

    @Test("refuses hostile lengths: short file, huge or past-the-end header length")
    func hostileLengths() {
        #expect(throws: SafetensorsError.truncatedHeader(declared: 8, available: 3)) { try SafetensorsFile(bytes: [1, 2, 3]) }
        #expect(throws: SafetensorsError.headerTooLarge(UInt64.max)) {
            try SafetensorsFile(bytes: SafetensorsImage.bytes(header: "{}", data: [], declaredLength: .max))
        }
        #expect(throws: SafetensorsError.truncatedHeader(declared: 1000, available: 2)) {
            try SafetensorsFile(bytes: SafetensorsImage.bytes(header: "{}", data: [], declaredLength: 1000))
        }
    }

    @Test("refuses bad JSON and wrongly typed entries", arguments: [
        "{", "[]", "nul", "{\"a\": 3}", "{\"a\": {\"dtype\": \"F32\", \"shape\": [1.5], \"data_offsets\": [0, 4]}}",
        "{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 1e30]}}",
        "{\"a\": {\"dtype\": \"F32\", \"shape\": [99999999999999999999], \"data_offsets\": [0, 4]}}",
        "{\"__metadata__\": {\"n\": 1}}", "{\"a\": {\"shape\": [1], \"data_offsets\": [0, 4]}}",
    ])
    func badJSON(header: String) {
        #expect {
            try SafetensorsFile(bytes: SafetensorsImage.bytes(header: header, data: [0, 0, 0, 0]))
        } throws: { error in
            if case .invalidHeader = error as? SafetensorsError { true } else { false }
        }
    }

    @Test("checks every number: dtype, shape overflow, offsets against shape and file, overlaps")
    func hostileEntries() {
        func open(_ header: String, data: Int = 16) throws {
            _ = try SafetensorsFile(bytes: SafetensorsImage.bytes(header: header, data: .init(repeating: 0, count: data)))
        }
        #expect(throws: SafetensorsError.unsupportedDType(tensor: "a", dtype: "Q4")) {
            try open("{\"a\": {\"dtype\": \"Q4\", \"shape\": [1], \"data_offsets\": [0, 8]}}")
        }
        #expect(throws: SafetensorsError.invalidOffsets(tensor: "a", reason: "4 bytes for 1 I64 elements (8 bytes)")) {
            try open("{\"a\": {\"dtype\": \"I64\", \"shape\": [1], \"data_offsets\": [0, 4]}}")
        }
        #expect(throws: SafetensorsError.invalidShape(tensor: "a")) {
            try open("{\"a\": {\"dtype\": \"F32\", \"shape\": [4294967296, 4294967296], \"data_offsets\": [0, 4]}}")
        }
        #expect(throws: SafetensorsError.invalidShape(tensor: "a")) {
            try open("{\"a\": {\"dtype\": \"F32\", \"shape\": [-1, -4], \"data_offsets\": [0, 16]}}")
        }
        #expect(throws: SafetensorsError.invalidShape(tensor: "a")) {
            try open("{\"a\": {\"dtype\": \"F32\", \"shape\": [2305843009213693952, 2], \"data_offsets\": [0, 16]}}")
        }
        for offsets in ["[0, 20]", "[8, 4]", "[-4, 0]", "[0, 8]", "[0]", "[0, 4, 8]", "[9223372036854775800, 9223372036854775804]"] {
            #expect(throws: SafetensorsError.self, "offsets \(offsets)") {
                try open("{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": \(offsets)}}", data: 16)
            }
        }
        #expect(throws: SafetensorsError.overlappingTensors("a", "b")) {
            try open("""
            {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}
            """)
        }
    }

    @Test("non-float dtypes are range-checked and refused only when read as floats")
    func integerTensor() throws {
        let file = try SafetensorsFile(bytes: SafetensorsImage.bytes(header: """
        {"ids": {"dtype": "I64", "shape": [2], "data_offsets": [0, 16]}}
        """, data: .init(repeating: 1, count: 16)))
        #expect(try file.tensor(named: "ids").byteCount == 16)
        #expect(throws: SafetensorsError.unsupportedDType(tensor: "ids", dtype: "I64")) { try file.floats("ids") }
    }

    @Test("a zero-element tensor is fine and overlaps nothing")
    func emptyTensor() throws {
        let header = """
        {"e": {"dtype": "F32", "shape": [0, 5], "data_offsets": [0, 0]}, "a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}
        """
        let file = try SafetensorsFile(bytes: SafetensorsImage.bytes(header: header, data: [0, 0, 128, 63]))
        #expect(try file.floats("e").isEmpty)
        #expect(try file.floats("a") == [1])
    }
}
