import Foundation

/// The slow path of `NormalizedText`: one pass over the UTF-8 bytes, scalar by scalar, writing the
/// folded bytes and, for each, the original offset it came from.
struct NormalizedTextBuilder {
    private let input: [UInt8]
    private(set) var output: [UInt8] = []
    private var originList: [Int32] = []
    private(set) var isReadable = true

    init(_ input: [UInt8]) {
        self.input = input
        output.reserveCapacity(input.count)
        originList.reserveCapacity(input.count + 1)
    }

    /// The map with its end entry.
    var origins: [Int32] { originList + [Int32(truncatingIfNeeded: input.count)] }

    mutating func run() {
        var i = 0
        while i < input.count {
            let byte = input[i]
            if byte < 0x80 {
                ascii(byte, at: i)
                i += 1
                continue
            }
            let length = ByteClass.sequenceLength(byte)
            guard let scalar = ByteClass.decode(input, at: i, length: length) else {
                isReadable = false; i += 1; continue
            }
            fold(scalar, at: i, inputLength: length)
            i += length
        }
        // Look-alike letters of other scripts, per word (the whole word decides; see ConfusableSkeleton).
        if ConfusableSkeleton.mayApply(output) {
            let folded = ConfusableSkeleton.fold(output, origins)
            output = folded.bytes
            originList = Array(folded.origins.dropLast())
        }
    }

    private mutating func ascii(_ byte: UInt8, at offset: Int) {
        switch byte {
        case 0x00: isReadable = false
        case 0x0D: if input.count <= offset + 1 || input[offset + 1] != 0x0A { emit(0x0A, offset) }
        case 0x0A: emit(0x0A, offset)
        case 0x09, 0x0B, 0x0C, 0x20: space(offset)
        case 0x01...0x1F, 0x7F: break  // other controls carry nothing a reader sees
        default: emit(byte, offset)
        }
    }

    @inline(__always) private mutating func emit(_ byte: UInt8, _ offset: Int) {
        output.append(byte)
        originList.append(Int32(truncatingIfNeeded: offset))
    }

    /// One space for any run of spaces and tabs.
    private mutating func space(_ offset: Int) {
        if output.last != 0x20 { emit(0x20, offset) }
    }

    private mutating func emitScalar(_ value: UInt32, _ offset: Int) {
        guard let scalar = Unicode.Scalar(value) else { return }
        UTF8.encode(scalar) { emit($0, offset) }
    }

    /// `inputLength` is the scalar's byte count in the input, or nil for a scalar that compatibility
    /// mapping produced (written out as is, never mapped again).
    private mutating func fold(_ scalar: UInt32, at offset: Int, inputLength: Int?) {
        switch UnicodeFolding.classify(scalar) {
        case .drop: return
        case .space: space(offset)
        case .newline: emit(0x0A, offset)
        case .ascii(let byte): emit(byte, offset)
        case .asciiPair(let a, let b): emit(a, offset); emit(b, offset)
        case .scalar(let value): emitScalar(value, offset)
        case .unreadable:
            isReadable = false
            keep(scalar, offset, inputLength)
        case .keep: keep(scalar, offset, inputLength)
        case .compatibility:
            guard inputLength != nil, let original = Unicode.Scalar(scalar) else { keep(scalar, offset, inputLength); return }
            let mapped = String(Character(original)).precomposedStringWithCompatibilityMapping
            for part in mapped.unicodeScalars {
                if part.value < 0x80 { ascii(UInt8(part.value), at: offset) } else { fold(part.value, at: offset, inputLength: nil) }
            }
        }
    }

    private mutating func keep(_ scalar: UInt32, _ offset: Int, _ inputLength: Int?) {
        guard let inputLength else { emitScalar(scalar, offset); return }
        for k in offset..<min(offset + inputLength, input.count) { emit(input[k], offset) }
    }
}
