import Foundation
import Testing

/// The `switchboard` executable as a user runs it (built beside this test binary): help, exit codes,
/// the analyzer never echoing text, and on-device embeddings.
@Suite("switchboard command line")
struct CLITests {
    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ arguments: [String], stdin: String? = nil) throws -> Run {
        let here = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map(URL.init(fileURLWithPath:)) ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let process = Process()
        process.executableURL = here.deletingLastPathComponent().appendingPathComponent("switchboard")
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out; process.standardError = err; process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func helpListsEveryCommand() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        for command in ["ask", "chat", "embed", "analyze", "models"] { #expect(help.stdout.contains("  \(command) ")) }
        let embedHelp = try Self.run(["embed", "--help"])
        #expect(embedHelp.status == 0 && embedHelp.stdout.contains("usage: switchboard embed"))
    }

    @Test func badUsageAndMissingFilesHaveTheirExitCodes() throws {
        #expect(try Self.run(["no-such-command"]).status == 64)
        #expect(try Self.run(["embed", "--bogus", "x"]).status == 64)
        #expect(try Self.run(["embed", "--threads", "99999999999999999999", "x"]).status == 64)
        let missing = try Self.run(["embed", "--model-dir", "/nonexistent/minilm", "a text"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("fetch-model.sh minilm"))
    }

    @Test func analyzeGivesTheLevelButNeverTheText() throws {
        let card = "4111 1111 1111 1111"
        let run = try Self.run(["analyze", "--json"], stdin: "my card is \(card)\nwhat is the capital of France?\n")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""privacy":"sensitive""#) == true)
        #expect(lines.last?.contains(#""privacy":"public""#) == true)
        #expect(!run.stdout.contains("4111") && !run.stdout.contains("France"))
    }

    /// Needs all-MiniLM-L6-v2 (`Scripts/test.sh` fetches it and names it in the environment).
    @Test func embedsOnTheDeviceAndRanksParaphrasesFirst() throws {
        let vectors = try Self.run(["embed", "A man is eating food."])
        #expect(vectors.status == 0, "\(vectors.stderr)")
        let line = try #require(vectors.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let vector = try #require(object["vector"] as? [Double])
        #expect(object["dimension"] as? Int == 384 && vector.count == 384)
        #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)

        let similar = try Self.run(["embed", "--similarity"],
                                   stdin: "A man is eating food.\nA man is eating a piece of bread.\nThe girl is carrying a baby.\n")
        #expect(similar.status == 0, "\(similar.stderr)")
        let cosines = similar.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["cosine"] as? Double
        }
        #expect(cosines.count == 2)
        #expect(cosines[0] > cosines[1] + 0.2)
    }
}
