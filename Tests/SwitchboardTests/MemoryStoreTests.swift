import Foundation
import Testing
@testable import Switchboard
import SwitchboardTestKit

@Suite("Memory store")
struct MemoryStoreTests {
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString).log")
    }

    @Test("Search returns the closest memories first; privacy is the higher of the app's and the analyzer's")
    func searchAndPrivacy() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let store = try MemoryStore(file: file, embedder: HashingEmbedder())
        try await store.add("The user's favourite colour is green")
        try await store.add("The user walks the dog every morning", privacy: .personal)
        let ssn = try await store.add("The user's SSN is 123-45-6789")
        #expect(ssn.privacy == .sensitive)
        let hits = try await store.search("what colour does the user like, green?", limit: 2)
        #expect(hits.first?.memory.text == "The user's favourite colour is green")
        #expect(hits.count == 2)
        #expect(hits[0].score >= hits[1].score)
        let publicOnly = try await store.search("user SSN", limit: 10, maxPrivacy: .public)
        #expect(publicOnly.allSatisfy { $0.memory.privacy == .public })
        #expect(publicOnly.count == 1)
    }

    @Test("Memories, deletions and ids survive reopening")
    func persistence() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        var ids: [UInt64] = []
        do {
            let store = try MemoryStore(file: file, embedder: HashingEmbedder())
            for index in 0..<20 { ids.append(try await store.add("note number \(index)", metadata: ["n": "\(index)"]).id) }
            #expect(try await store.delete(ids[3]))
            #expect(try await !store.delete(ids[3]))
        }
        let reopened = try MemoryStore(file: file, embedder: HashingEmbedder())
        #expect(reopened.recovery == .init(records: 21, truncatedTailBytes: 0, skippedBytes: 0))
        #expect(await reopened.count == 19)
        #expect(await reopened.memory(ids[3]) == nil)
        #expect(await reopened.memory(ids[7])?.metadata == ["n": "7"])
        let next = try await reopened.add("a new note")
        #expect(next.id > ids.max()!)
    }

    @Test("A write cut at any byte loses only that write; reopening verifies and repairs the file")
    func tornWrites() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let store = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16))
            for index in 0..<5 { try await store.add("kept memory \(index)") }
        }
        let whole = try Data(contentsOf: file)
        do {
            let store = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16))
            try await store.add("the write in flight")
        }
        let withLast = try Data(contentsOf: file)
        for cut in whole.count..<withLast.count {
            try withLast.prefix(cut).write(to: file)
            let store = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16))
            #expect(await store.count == 5)
            #expect(store.recovery.truncatedTailBytes == cut - whole.count)
            let again = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16))
            #expect(again.recovery == .init(records: 5, truncatedTailBytes: 0, skippedBytes: 0))
            #expect(try Data(contentsOf: file) == whole)
        }
    }

    @Test("A damaged record in the middle costs that record only")
    func damageInTheMiddle() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        var sizes: [Int] = []
        do {
            let store = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16))
            for index in 0..<6 {
                try await store.add("memory \(index)")
                sizes.append(try Data(contentsOf: file).count)
            }
        }
        var bytes = try Data(contentsOf: file)
        bytes[sizes[2] + 20] ^= 0x40   // inside the fourth record's payload
        try bytes.write(to: file)
        let store = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16))
        #expect(await store.count == 5)
        #expect(store.recovery.skippedBytes == sizes[3] - sizes[2])
        #expect(await store.memory(4) == nil)
        #expect(await store.memory(6)?.text == "memory 5")
    }

    @Test("Another embedder's file, a file that is no store, and a remote embedder are refused")
    func refusals() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16))
        #expect(throws: MemoryStoreError.embedderMismatch(stored: "hashing-test", storedDimension: 16)) {
            _ = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 32))
        }
        #expect(throws: MemoryStoreError.embedderNotOnDevice) {
            _ = try MemoryStore(file: Self.temporaryFile(), embedder: HashingEmbedder(isOnDevice: false))
        }
        try Data("not a store at all".utf8).write(to: file)
        #expect(throws: MemoryStoreError.notAMemoryFile) { _ = try MemoryStore(file: file, embedder: HashingEmbedder(dimension: 16)) }
    }

    @Test("The exact scan agrees with sorting every score, across deletions and both scan splits", arguments: [500, 20_000])
    func scanMatchesBruteForce(count: Int) {
        var table = VectorTable(dimension: 40)
        var generator = SeededRandom(seed: UInt64(count))
        var vectors: [UInt64: [Float]] = [:]
        for id in 0..<UInt64(count) {
            let vector = (0..<40).map { _ in Float.random(in: -1...1, using: &generator) }
            vectors[id] = vector
            table.insert(id, level: UInt8(id % 4), vector: vector)
        }
        for id in stride(from: UInt64(0), to: UInt64(count), by: 7) { table.remove(id); vectors[id] = nil }
        let query = (0..<40).map { _ in Float.random(in: -1...1, using: &generator) }
        let got = table.top(10, query: query, maxLevel: 2)
        var expected: [(id: UInt64, score: Float)] = []
        for (id, vector) in vectors where id % 4 <= 2 {
            var score: Float = 0
            for index in 0..<40 { score += vector[index] * query[index] }
            expected.append((id: id, score: score))
        }
        expected.sort { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
        expected = Array(expected.prefix(10))
        #expect(got.map(\.id) == expected.map(\.id))
        for (a, b) in zip(got, expected) { #expect(abs(a.score - b.score) < 1e-4) }
    }

    @Test("The half-precision prefilter returns the full-precision scan's top k bit for bit: near ties, exact ties, big rows",
          arguments: [(3_000, UInt64(1)), (10_000, UInt64(2))])
    func prefilterIsExact(count: Int, seed: UInt64) {
        let d = 384
        var generator = SeededRandom(seed: seed)
        func unit(_ v: [Float]) -> [Float] { let n = v.reduce(0) { $0 + $1 * $1 }.squareRoot(); return v.map { $0 / n } }
        let center = unit((0..<d).map { _ in Float.random(in: -1...1, using: &generator) })
        var table = VectorTable(dimension: d)
        for id in 0..<UInt64(count) {
            var vector: [Float]
            switch id % 4 {
            case 0: vector = unit((0..<d).map { _ in Float.random(in: -1...1, using: &generator) })  // far away
            case 1: vector = unit(center.map { $0 + Float.random(in: -1e-4...1e-4, using: &generator) })  // closer than half precision
            case 2: vector = center  // exact ties, ranked by id
            default: vector = center.map { $0 * Float.random(in: 0.999...1.001, using: &generator) }
            }
            if id == 7 { vector = center.map { $0 * 90_000 } }  // beyond half precision's range: always rescored
            table.insert(id, level: UInt8(id % 3), vector: vector)
        }
        for id in stride(from: UInt64(5), to: UInt64(count), by: 11) { table.remove(id) }
        for query in [center, unit(center.map { $0 + Float.random(in: -0.01...0.01, using: &generator) }), center.map { -$0 }] {
            for k in [1, 10, 50] {
                let got = table.top(k, query: query, maxLevel: 1), expected = table.fullScan(k, query: query, maxLevel: 1)
                #expect(got.count == expected.count)
                #expect(zip(got, expected).allSatisfy { $0.id == $1.id && $0.score == $1.score })
            }
        }
    }

    @Test("A request carrying a personal memory is routed as personal: the remote receives nothing")
    func personalMemoryStaysOnDevice() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let store = try MemoryStore(file: file, embedder: HashingEmbedder())
        try await store.add("The user's sister is called Maria and lives in Porto", privacy: .personal)
        try await store.add("Porto is a city in Portugal")
        let request = try await store.attach(to: GenerationRequest(prompt: "Tell me about Porto and my sister"), tokenBudget: 200,
                                             minimumScore: -1)
        #expect(request.memory?.longTerm.count == 2)
        #expect(request.privacyFloor == .personal)
        #expect(request.memory?.containsPersonalData == true)

        let remote = RecordingProvider(id: "remote", capabilities: Fixture.remoteCapabilities())
        let local = Fixture.local("local", clock: ImmediateClock())
        let coordinator = Coordinator(providers: [remote, local], configuration: Fixture.configuration(), clock: ImmediateClock(),
                                      deviceState: FixedDeviceState())
        let response = try await coordinator.respond(to: request)
        #expect(response.providerID == "local")
        #expect(await remote.callCount == 0)

        let tight = try await store.attach(to: GenerationRequest(prompt: "Tell me about Porto and my sister"), tokenBudget: 9,
                                           minimumScore: -1)
        #expect((tight.memory?.longTerm.count ?? 0) <= 1)
        var updates = 0
        for try await _ in store.contextUpdates(for: GenerationRequest(prompt: "Porto"), tokenBudget: 200, minimumScore: -1) { updates += 1 }
        #expect(updates == 2)
    }
}

