import Foundation
import Testing
@testable import Switchboard

@Suite("Memory store")
struct MemoryStoreTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString).log").path
    }

    static func vector(_ seed: Int, dimension: Int = 24) -> [Float] {
        (0..<dimension).map { Float(sin(Double(seed * 31 + $0 * 7))) }
    }

    @Test("search returns the nearest entries by cosine, best first, within the privacy ceiling")
    func search() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try MemoryStore(path: path, dimension: 24)
        var ids: [UUID] = []
        for i in 0..<50 {
            ids.append(try await store.add(text: "note \(i)", vector: Self.vector(i).map { $0 * 3 }, privacy: i == 7 ? .personal : .public,
                                           metadata: ["n": "\(i)"]).id)
        }
        let hits = try await store.search(Self.vector(7), k: 3)
        #expect(hits.count == 3 && hits[0].entry.text == "note 7" && abs(hits[0].score - 1) < 1e-5)
        #expect(hits[0].score >= hits[1].score && hits[1].score >= hits[2].score)
        #expect(try await store.search(Self.vector(7), k: 3, maxPrivacy: .public).allSatisfy { $0.entry.text != "note 7" })
        #expect(try await store.delete(id: ids[7]))
        #expect(try await !store.delete(id: ids[7]))
        #expect(try await store.search(Self.vector(7), k: 1).first?.entry.text != "note 7")
        #expect(await store.count == 49)
        await #expect(throws: MemoryStoreError.dimensionMismatch(expected: 24, got: 3)) {
            try await store.add(text: "x", vector: [1, 2, 3], privacy: .public)
        }
        await #expect(throws: MemoryStoreError.invalidVector) { try await store.search([Float](repeating: 0, count: 24), k: 1) }
    }

    @Test("entries and deletions survive reopening")
    func reopen() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var kept: MemoryEntry?
        do {
            let store = try MemoryStore(path: path, dimension: 24)
            kept = try await store.add(text: "keep", vector: Self.vector(1), privacy: .sensitive, metadata: ["k": "v"])
            let gone = try await store.add(text: "gone", vector: Self.vector(2), privacy: .public)
            try await store.delete(id: gone.id)
        }
        let reopened = try MemoryStore(path: path, dimension: 24)
        #expect(await reopened.count == 1)
        #expect(reopened.recoveredBytes == 0)
        #expect(await reopened.entry(id: try #require(kept).id) == kept)
    }

    @Test("a torn or damaged last record is dropped on reopen; earlier records are intact and appends continue")
    func recovery() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let store = try MemoryStore(path: path, dimension: 24)
            for i in 0..<5 { try await store.add(text: "entry \(i)", vector: Self.vector(i), privacy: .public) }
        }
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        // A write torn by a crash: the first 30 bytes of a sixth record.
        let sixth = MemoryRecord.add(MemoryEntry(id: UUID(), text: "torn", metadata: [:], privacy: .public, vector: Self.vector(9))).encoded()
        try (good + Data(sixth.prefix(30))).write(to: URL(fileURLWithPath: path))
        do {
            let store = try MemoryStore(path: path, dimension: 24)
            #expect(await store.count == 5)
            #expect(store.recoveredBytes == 30)
            try await store.add(text: "after", vector: Self.vector(6), privacy: .public)
        }
        #expect(try await MemoryStore(path: path, dimension: 24).count == 6)

        // A whole record whose payload was damaged: the checksum rejects it.
        var damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        damaged[damaged.count - 5] ^= 0x40
        try damaged.write(to: URL(fileURLWithPath: path))
        let store = try MemoryStore(path: path, dimension: 24)
        #expect(await store.count == 5)
        #expect(try await store.search(Self.vector(6), k: 1).first?.entry.text != "after")

        // Bulk add after recovery: one sync, all entries back on reopen.
        try await store.add(batch: (0..<3).map { ("bulk \($0)", Self.vector(20 + $0), PrivacyLevel.public) })
        try await store.add(batch: [])
        #expect(try await MemoryStore(path: path, dimension: 24).count == 8)
    }

    @Test("a file that is not a memory log opens empty, its bytes counted as recovered")
    func garbage() async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data((0..<1000).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: path))
        let store = try MemoryStore(path: path, dimension: 24)
        #expect(await store.count == 0)
        #expect(store.recoveredBytes == 1000)
    }

    @Test("the record codec round-trips and the CRC is the standard one")
    func codec() throws {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let entry = MemoryEntry(id: UUID(), text: "héllo", metadata: ["a": "b", "c": ""], privacy: .contextual, vector: [0.5, -0.25])
        for record in [MemoryRecord.add(entry), .delete(entry.id)] {
            let bytes = record.encoded()
            let decoded = bytes.withUnsafeBytes { MemoryRecord.decode($0, at: 0) }
            #expect(decoded?.0 == record && decoded?.1 == bytes.count)
            for cut in [0, 5, 12, bytes.count - 1] {
                #expect(Array(bytes.prefix(cut)).withUnsafeBytes { MemoryRecord.decode($0, at: 0) } == nil)
            }
        }
    }
}
