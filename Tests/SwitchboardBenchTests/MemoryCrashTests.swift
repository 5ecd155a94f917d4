import Foundation
import Switchboard
import SwitchboardTestKit
import Testing
@testable import SwitchboardBench

/// The memory store's promise under a real crash: `switchboard-bench memory --add N --ack` (a separate
/// process, beside this test binary in the build folder) is killed with SIGKILL while it writes; every
/// id it acknowledged must be in the reopened file, and the file must verify.
@Suite("Memory store under kill -9")
struct MemoryCrashTests {
    static var benchBinary: URL {
        let here = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map(URL.init(fileURLWithPath:)) ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return here.deletingLastPathComponent().appendingPathComponent("switchboard-bench")
    }

    @Test("Kill -9 after 10,000 acknowledged adds: every acknowledged entry is there and the file verifies")
    func killedMidWrite() async throws {
        let binary = Self.benchBinary
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "switchboard-bench is built beside the tests")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("memory-crash-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: file) }

        let process = Process()
        process.executableURL = binary
        process.arguments = ["memory", "--file", file.path, "--add", "1000000", "--ack"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var acknowledged: [UInt64] = []
        var pending = Data()
        let reader = pipe.fileHandleForReading
        var killed = false
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix("ack "), let id = UInt64(line.dropFirst(4)) { acknowledged.append(id) }
            }
            if !killed, acknowledged.count >= 10_000 { kill(process.processIdentifier, SIGKILL); killed = true }
        }
        process.waitUntilExit()
        #expect(killed)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(acknowledged.count >= 10_000)

        let store = try MemoryStore(file: file, embedder: MemoryCommand.embedder)
        var missing = 0
        for id in acknowledged where await store.memory(id) == nil { missing += 1 }
        #expect(missing == 0)
        #expect(store.recovery.skippedBytes == 0)
        let count = await store.count
        #expect(count >= acknowledged.count)
        let again = try MemoryStore(file: file, embedder: MemoryCommand.embedder)
        #expect(again.recovery == .init(records: count, truncatedTailBytes: 0, skippedBytes: 0))
    }
}
