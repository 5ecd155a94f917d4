#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a GGUF file: a read-only private memory mapping, or an owned copy for in-memory input.
///
/// This is the project's one `@unchecked Sendable` type. It is safe because the region is never
/// written through after `init` (mapped `PROT_READ`; an owned copy is filled once, before any other
/// reference exists), every stored property is a `let`, and the region is released only in `deinit`,
/// when no other reference can still read it.
final class GGUFMapping: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
    private let isMapped: Bool

    /// Maps `path` read-only with `MAP_PRIVATE`; weights are read in place, never copied.
    init(path: String) throws(GGUFError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: Self.errnoDescription()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotOpen(path: path, reason: Self.errnoDescription()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .cannotOpen(path: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { throw .cannotOpen(path: path, reason: "the file is empty") }
        let region = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let region, region != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw .cannotOpen(path: path, reason: "mmap failed: \(Self.errnoDescription())")
        }
        base = UnsafeRawPointer(region)
        count = size
        isMapped = true
    }

    /// Copies `bytes` into an owned, aligned buffer so parsing follows the same path as a mapped file.
    init(copying bytes: UnsafeRawBufferPointer) {
        let size = max(bytes.count, 1)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        if let source = bytes.baseAddress, !bytes.isEmpty {
            storage.copyMemory(from: source, byteCount: bytes.count)
        }
        base = UnsafeRawPointer(storage)
        count = bytes.count
        isMapped = false
    }

    deinit {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    private static func errnoDescription() -> String {
        guard let message = strerror(errno) else { return "error \(errno)" }
        return String(cString: message)
    }
}
