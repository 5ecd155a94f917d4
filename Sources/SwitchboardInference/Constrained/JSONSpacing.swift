/// How the document written so far spaces its structure: the whitespace between two structural bytes
/// at a nesting depth (`": "`, a newline and an indent after `{`, none before `,`). Models keep one
/// style through a document, so jump-forward drafts forced text the way this one writes it; a gap
/// never seen yet is not guessed (a wrong guess only costs rows, but costs them at every such gap).
struct JSONSpacing: Equatable {
    private struct Gap: Hashable {
        let before: UInt8, after: UInt8
        let depth: Int
    }

    private(set) var inString = false
    private var escaped = false
    private var depth = 0
    /// The last byte outside whitespace, as its class (`Self.kind`); nil before the document.
    private(set) var last: UInt8?
    private var run: [UInt8] = []
    private var seen: [Gap: [UInt8]] = [:]

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// Structure bytes stand for themselves; every other byte of a value (digits, letters of a
    /// literal) is one class.
    private static func kind(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"),
             UInt8(ascii: "\""): byte
        default: UInt8(ascii: "0")
        }
    }

    mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { feed(byte) }
    }

    mutating func feed(_ byte: UInt8) {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        if Self.isWhitespace(byte) {
            if run.count < 64 { run.append(byte) }
            return
        }
        let kind = Self.kind(byte)
        if let last, seen.count < 256 || seen[Gap(before: last, after: kind, depth: depth)] != nil {
            seen[Gap(before: last, after: kind, depth: depth)] = run
        }
        run.removeAll(keepingCapacity: true)
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        case UInt8(ascii: "\""): inString = true
        default: break
        }
        last = kind
    }

    /// The whitespace still to write before `next`: what this document wrote last between its
    /// current last byte and `next` at the current depth (a closer's gap is inside the container it
    /// closes), less what is already written of it; nil when never seen or when this gap went
    /// another way so far.
    func whitespace(before next: UInt8) -> [UInt8]? {
        guard let last, !inString, let gap = seen[Gap(before: last, after: Self.kind(next), depth: depth)], gap.starts(with: run) else {
            return nil
        }
        return Array(gap.dropFirst(run.count))
    }
}
