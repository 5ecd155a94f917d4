import Foundation
import Switchboard

/// `switchboard-bench memory [--entries N] [--dimension D] [--queries Q] [--k K]`: fills a fresh
/// `MemoryStore` (in a temporary file, removed afterwards) with N seeded random vectors in one bulk
/// add, reopens it (replaying and verifying every record), then times Q exact top-K searches. Prints
/// JSON: add, reopen and search p50/p99 milliseconds, with the CPU.
struct MemoryCommand: BenchCommand {
    static let name = "memory"
    static let summary = "time a memory store: bulk add, verified reopen, exact top-k search"
    static let options: [BenchOption]? = [.integer("entries", 1...2_000_000), .integer("dimension", 1...4096),
                                          .integer("queries", 1...100_000), .integer("k", 1...1000)]

    static func run(_ arguments: Arguments) async -> Int32 {
        let n = arguments.int("entries") ?? 100_000, d = arguments.int("dimension") ?? 384
        let queries = arguments.int("queries") ?? 200, k = arguments.int("k") ?? 10
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-memory-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func vector() -> [Float] {
            (0..<d).map { _ in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Int64(bitPattern: seed) >> 40) / Float(1 << 23)
            }
        }
        do {
            let clock = ContinuousClock()
            let store = try MemoryStore(path: path, dimension: d)
            let items = (0..<n).map { ("entry \($0)", vector(), PrivacyLevel.public) }
            var start = clock.now
            try await store.add(batch: items)
            let add = (clock.now - start).seconds
            start = clock.now
            let reopened = try MemoryStore(path: path, dimension: d)
            let reopen = (clock.now - start).seconds
            guard await reopened.count == n, reopened.recoveredBytes == 0 else { printError("memory: reopen lost entries"); return 1 }
            var times: [Double] = []
            for _ in 0..<queries {
                let q = vector()
                start = clock.now
                _ = try await reopened.search(q, k: k)
                times.append((clock.now - start).seconds * 1000)
            }
            times.sort()
            print(String(format: "{\"entries\": %d, \"dimension\": %d, \"k\": %d, \"add_ms\": %.1f, \"reopen_ms\": %.1f, "
                         + "\"search_p50_ms\": %.3f, \"search_p99_ms\": %.3f, \"cpu\": \"%@\"}", n, d, k, add * 1000, reopen * 1000,
                         times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)], TokenizeBench.cpuName()))
            return 0
        } catch {
            printError("memory: \(error)")
            return 1
        }
    }
}
