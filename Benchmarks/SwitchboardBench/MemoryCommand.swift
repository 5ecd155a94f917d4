import Foundation
import Switchboard
import SwitchboardTestKit

/// `memory`: the memory store from the command line.
/// - `--file PATH --add N [--ack]`: adds N synthetic notes one write each; `--ack` prints `ack ID` as each
///   write returns (the crash test kills the process mid-write and checks every acknowledged id).
/// - `--file PATH --verify`: opens the file, verifies every record, prints what recovery found as JSON.
/// - `--file PATH --query TEXT [--limit K]`: the closest memories, one JSON line each.
/// - `--bench [--entries N] [--queries Q] [--json]`: N entries in a temporary store, then Q top-10 searches;
///   prints add rate, reopen time and search p50/p99.
/// The embedder is `HashingEmbedder` (384 dimensions, MiniLM's size): these figures are the store's own.
enum MemoryCommand: BenchCommand {
    static let name = "memory"
    static let summary = "the on-device memory store: add, verify, query, and a search benchmark"
    static let options: [BenchOption]? = [
        .text("file"), .integer("add", 0...10_000_000), .flag("ack"), .flag("verify"), .text("query"),
        .integer("limit", 1...1000), .flag("bench"), .integer("entries", 1...2_000_000), .integer("queries", 1...100_000),
        .flag("json"), .flag("sync"),
    ]
    static let embedder = HashingEmbedder(dimension: 384)

    static func run(_ arguments: Arguments) async -> Int32 {
        if arguments.flag("bench") {
            return await bench(entries: arguments.int("entries") ?? 100_000, queries: arguments.int("queries") ?? 200,
                               json: arguments.flag("json"))
        }
        guard let path = arguments.string("file") else { printError("memory needs --file PATH (or --bench)"); return 64 }
        let store: MemoryStore
        do { store = try MemoryStore(file: URL(fileURLWithPath: path), embedder: embedder, sync: arguments.flag("sync")) } catch {
            printError("cannot open \(path): \(error)"); return 1
        }
        if let count = arguments.int("add") {
            let ack = arguments.flag("ack")
            for index in 0..<count {
                do {
                    let memory = try await store.add("Note \(index): the meeting about project \(index % 97) moved to room \(index % 13)")
                    if ack { FileHandle.standardOutput.write(Data("ack \(memory.id)\n".utf8)) }
                } catch {
                    printError("add failed: \(error)"); return 1
                }
            }
        }
        if arguments.flag("verify") {
            let recovery = store.recovery
            print("{\"entries\": \(await store.count), \"records\": \(recovery.records), "
                  + "\"truncated_tail_bytes\": \(recovery.truncatedTailBytes), \"skipped_bytes\": \(recovery.skippedBytes)}")
        }
        if let query = arguments.string("query") {
            do {
                for hit in try await store.search(query, limit: arguments.int("limit") ?? 10) {
                    let text = String(data: (try? JSONEncoder().encode(hit.memory.text)) ?? Data(), encoding: .utf8) ?? "\"\""
                    print("{\"id\": \(hit.memory.id), \"score\": \(hit.score), \"privacy\": \"\(hit.memory.privacy)\", \"text\": \(text)}")
                }
            } catch {
                printError("search failed: \(error)"); return 1
            }
        }
        return 0
    }

    static func bench(entries: Int, queries: Int, json: Bool) async -> Int32 {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-memory-bench-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: file) }
        let clock = ContinuousClock()
        do {
            let store = try MemoryStore(file: file, embedder: embedder)
            var random = SeededRandom(seed: 42)
            let addTime = try await clock.measure {
                var batch: [(text: String, metadata: [String: String], privacy: PrivacyLevel)] = []
                for index in 0..<entries {
                    batch.append(("note \(index) about topic \(random.next() % 5000) and place \(random.next() % 700)", [:], .public))
                    if batch.count == 1000 || index == entries - 1 { _ = try await store.add(batch); batch.removeAll() }
                }
            }
            let reopenStart = clock.now
            let reopened = try MemoryStore(file: file, embedder: embedder)
            let reopenTime = clock.now - reopenStart
            guard await reopened.count == entries else { printError("reopened \(await reopened.count) of \(entries)"); return 1 }
            var times: [Double] = []
            for index in 0..<queries {
                let query = embedder.vector("topic \(index % 5000) place \(index % 700)")
                let start = clock.now
                let hits = await reopened.search(vector: query, limit: 10)
                times.append((clock.now - start).seconds * 1000)
                guard hits.count == 10 else { printError("a search returned \(hits.count) hits"); return 1 }
            }
            times.sort()
            let p50 = times[times.count / 2], p99 = times[min(times.count - 1, times.count * 99 / 100)]
            let fileMB = Double((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) / 1e6
            if json {
                print(String(format: "{\"entries\": %d, \"dimension\": 384, \"adds_per_second\": %.0f, \"reopen_seconds\": %.3f, "
                             + "\"file_mb\": %.1f, \"search_top10_p50_ms\": %.3f, \"search_top10_p99_ms\": %.3f}",
                             entries, Double(entries) / addTime.seconds, reopenTime.seconds, fileMB, p50, p99))
            } else {
                print(String(format: "%d entries (384 dimensions, %.1f MB): %.0f adds/s, reopen and verify %.3f s, "
                             + "top-10 search p50 %.3f ms, p99 %.3f ms", entries, fileMB, Double(entries) / addTime.seconds,
                             reopenTime.seconds, p50, p99))
            }
            return 0
        } catch {
            printError("memory bench failed: \(error)"); return 1
        }
    }
}
