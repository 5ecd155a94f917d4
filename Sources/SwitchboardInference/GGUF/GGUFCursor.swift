/// A bounds-checked little-endian reader over the file bytes. Every read checks the remaining length
/// first, so corrupt lengths become `GGUFError.truncated` instead of out-of-bounds loads.
struct GGUFCursor {
    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int

    /// Caps from gguf.cpp: no string or array may claim more than 2^30 bytes / elements.
    static let maximumStringLength = 1 << 30
    static let maximumArrayCount = 1 << 30

    init(bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var remaining: Int { bytes.count - position }

    func require(_ count: Int) throws(GGUFError) {
        guard count >= 0, count <= remaining else { throw .truncated(at: position, needed: count) }
    }

    mutating func skip(_ count: Int) throws(GGUFError) {
        try require(count)
        position += count
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type) throws(GGUFError) -> T {
        let size = MemoryLayout<T>.size
        try require(size)
        let value = bytes.loadUnaligned(fromByteOffset: position, as: T.self)
        position += size
        return T(littleEndian: value)
    }

    mutating func readFloat() throws(GGUFError) -> Float { Float(bitPattern: try read(UInt32.self)) }
    mutating func readDouble() throws(GGUFError) -> Double { Double(bitPattern: try read(UInt64.self)) }

    /// A u64 length or count, capped at `limit`; `what` names it in the error.
    mutating func readCount(limit: Int, what: String) throws(GGUFError) -> Int {
        let raw = try read(UInt64.self)
        guard raw <= UInt64(limit) else { throw .tooLarge(what: "\(what) (\(raw))") }
        return Int(raw)
    }

    /// The raw bytes of a length-prefixed string, without UTF-8 validation.
    mutating func readStringBytes() throws(GGUFError) -> UnsafeRawBufferPointer {
        let length = try readCount(limit: Self.maximumStringLength, what: "string length")
        try require(length)
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)])
        position += length
        return slice
    }

    mutating func readString() throws(GGUFError) -> String {
        let start = position
        let raw = try readStringBytes()
        guard let string = String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self) else {
            throw .invalidString(at: start)
        }
        return string
    }

    /// `count` fixed-width elements copied in one go (GGUF and every supported host are little-endian).
    mutating func readArray<T: BitwiseCopyable>(of _: T.Type, count: Int) throws(GGUFError) -> [T] {
        let size = MemoryLayout<T>.stride
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow else { throw .tooLarge(what: "array (\(count) elements)") }
        try require(byteCount)
        let source = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + byteCount)])
        let array = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
            initialized = count
        }
        position += byteCount
        return array
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func assumingMemoryBound(to _: UInt8.Type) -> UnsafeBufferPointer<UInt8> {
        guard let base = baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }
}
