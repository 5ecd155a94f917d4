import Foundation
import Testing
@testable import SwitchboardInference

/// Seeded mutation fuzzing of the header parser: every mutated image must either parse into a
/// consistent file or throw a GGUFError — never crash, hang or allocate absurdly.
@Suite("GGUF reader fuzz")
struct GGUFFuzzTests {
    struct Outcome {
        var parsed = 0
        var rejected = 0
        var kinds: Set<String> = []
    }

    /// A realistic image: the real model's metadata (arrays cut to 300 entries) and tensor infos with
    /// one block each, or an imitation of them when the model is absent.
    static func basis() -> GGUFTestWriter {
        var writer = GGUFTestWriter()
        if let file = try? GGUFTestModel.file.get() {
            writer.metadata = file.metadataKeys.compactMap { key in
                file.metadata[key].map { (key, truncated($0)) }
            }
            writer.tensors = file.tensors.map { info in
                GGUFTestWriter.Tensor(
                    name: info.name,
                    dimensions: [UInt64(info.type.blockSize)] + Array(repeating: 1, count: info.dimensions.count - 1),
                    type: info.type.rawValue, byteCount: info.type.blockBytes)
            }
        } else {
            writer.metadata = [
                ("general.architecture", .string("gemma3")), ("general.alignment", .uint32(32)),
                ("gemma3.embedding_length", .uint32(640)), ("gemma3.rope.freq_base", .float32(1e6)),
                ("tokenizer.ggml.add_bos_token", .bool(true)),
                ("tokenizer.ggml.tokens", .array(.string((0..<300).map { "▁tok\($0)" }))),
                ("tokenizer.ggml.scores", .array(.float32((0..<300).map { -Float($0) }))),
                ("tokenizer.ggml.token_type", .array(.int32((0..<300).map { Int32($0 % 7) }))),
            ]
            writer.tensors = [GGMLType.q4_K, .q6_K, .f32, .q8_0, .q5_0].enumerated().map { index, type in
                GGUFTestWriter.Tensor(name: "blk.\(index).w", dimensions: [UInt64(type.blockSize), 1],
                                      type: type.rawValue, byteCount: type.blockBytes)
            }
        }
        return writer
    }

    static func truncated(_ value: GGUFValue) -> GGUFValue {
        guard case .array(let array) = value else { return value }
        switch array {
        case .string(let a): return .array(.string(Array(a.prefix(300))))
        case .float32(let a): return .array(.float32(Array(a.prefix(300))))
        case .int32(let a): return .array(.int32(Array(a.prefix(300))))
        default: return value
        }
    }

    static func check(_ bytes: [UInt8], into outcome: inout Outcome) {
        do {
            let file = try GGUFFile(bytes: bytes)
            outcome.parsed += 1
            for tensor in file.tensors {
                #expect((1...4).contains(tensor.dimensions.count))
                #expect(tensor.offset >= file.dataOffset && tensor.offset + tensor.byteCount <= bytes.count)
            }
        } catch {
            outcome.rejected += 1
            outcome.kinds.insert(String(describing: error).prefix(24).description)
        }
    }

    static let interestingLengths: [UInt64] = [0, 1, 7, 8, 255, 1 << 16, (1 << 30) - 1, 1 << 30, (1 << 30) + 1,
                                               1 << 32, 1 << 62, UInt64(Int.max), UInt64.max, UInt64.max - 7]

    static func mutate(_ original: [UInt8], lengths: [Int], random: inout SplitMix64) -> [UInt8] {
        var bytes = original
        let rounds = 1 + Int(random.next() % 3)
        for _ in 0..<rounds {
            switch random.next() % 4 {
            case 0 where !bytes.isEmpty:
                for _ in 0..<(1 + Int(random.next() % 8)) {
                    let i = Int(random.next() % UInt64(bytes.count))
                    bytes[i] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                }
            case 1 where !bytes.isEmpty:
                bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
            case 2 where !lengths.isEmpty:
                let position = lengths[Int(random.next() % UInt64(lengths.count))]
                guard position + 8 <= bytes.count else { continue }
                let value = random.next() % 2 == 0
                    ? interestingLengths[Int(random.next() % UInt64(interestingLengths.count))]
                    : random.next() >> (random.next() % 64)
                for k in 0..<8 { bytes[position + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) }
            default:
                guard bytes.count > 8 else { continue }
                let i = Int(random.next() % UInt64(bytes.count - 4))
                let value = UInt32(truncatingIfNeeded: random.next() % 40)
                for k in 0..<4 { bytes[i + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
            }
        }
        return bytes
    }

    @Test func mutatedSyntheticImagesNeverCrash() {
        var writer = Self.basis()
        let original = writer.build()
        var outcome = Outcome()
        Self.check(original, into: &outcome)
        #expect(outcome.parsed == 1, "the unmutated basis must parse")
        var random = SplitMix64(seed: 0x5EED_6666)
        for _ in 0..<4000 {
            Self.check(Self.mutate(original, lengths: writer.lengthPositions, random: &random), into: &outcome)
        }
        #expect(outcome.rejected > 1000)
        #expect(outcome.kinds.count >= 4, "mutations should reach several distinct errors: \(outcome.kinds)")
    }

    @Test(.requiresGGUFModel) func mutatedRealHeaderPrefixNeverCrashes() throws {
        let file = try GGUFTestModel.open()
        let prefix = Array(file.rawBytes.prefix(64 * 1024))
        // The count fields, then the key and string-value lengths of the leading scalar KV pairs.
        var lengths = [8, 16]
        var position = 24
        for key in file.metadataKeys.prefix(8) {
            lengths.append(position)
            position += 8 + key.utf8.count + 4
            guard let value = file.metadata[key], value.type != .array else { break }
            if value.type == .string { lengths.append(position) }
            position += Self.encodedSize(value)
        }
        #expect(lengths.count > 4)
        var outcome = Outcome()
        var random = SplitMix64(seed: 0xF0_22)
        for _ in 0..<1000 {
            Self.check(Self.mutate(prefix, lengths: lengths, random: &random), into: &outcome)
        }
        #expect(outcome.rejected > 0)
    }

    static func encodedSize(_ value: GGUFValue) -> Int {
        switch value {
        case .string(let s): 8 + s.utf8.count
        case .uint8, .int8, .bool: 1
        case .uint16, .int16: 2
        case .uint32, .int32, .float32: 4
        default: 8
        }
    }
}
