import Foundation
import Testing
@testable import SwitchboardLocal

@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-2 vectors", arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func vectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(of: Array(message.utf8)) == digest)
    }

    @Test("one million 'a', fed in uneven pieces")
    func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var hasher = SHA256()
        var offset = 0
        var piece = 1
        message.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                hasher.update(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
                piece = piece * 3 % 977 + 1
            }
        }
        #expect(SHA256.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.hexDigest(of: message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("padding boundaries: 55, 56, 63, 64 bytes differ and stream the same as one call")
    func boundaries() {
        var seen = Set<String>()
        for length in [55, 56, 63, 64, 65, 119, 120] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var split = SHA256()
            split.update(message[..<(length / 2)])
            split.update(message[(length / 2)...])
            let whole = SHA256.hexDigest(of: message)
            #expect(SHA256.hex(split.finalize()) == whole)
            seen.insert(whole)
        }
        #expect(seen.count == 7)
    }

    @Test("a file hashes like its bytes, with progress reaching 1")
    func file() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var last = 0.0
        let digest = try SHA256.hexDigest(ofFileAt: path, chunkSize: 65_536) { last = $0 }
        #expect(digest == SHA256.hexDigest(of: bytes))
        #expect(last == 1)
    }
}
