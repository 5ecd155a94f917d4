import Foundation

/// A `switchboard-bench` subcommand. Output goes to stdout (JSON where asked); errors to stderr.
protocol BenchCommand {
    static var name: String { get }
    static var summary: String { get }
    /// Returns the process exit code.
    static func run(_ arguments: Arguments) async -> Int32
}

/// Every subcommand; the first is the default when none is given.
var benchCommands: [any BenchCommand.Type] {
    [
        RunCommand.self,
        AskCommand.self,
        AnalyzeCommand.self,
        RouteCommand.self,
        TokenizeCommand.self,
        ScoreCommand.self,
        GenerateCommand.self,
        EngineCommand.self,
        BatchCommand.self,
        StructuredCommand.self,
    ]
}

enum BenchCommandLine {
    static func run(_ argv: [String]) async -> Int32 {
        var argv = argv
        let name = argv.first.map { $0.hasPrefix("-") ? "" : $0 } ?? ""
        if !name.isEmpty { argv.removeFirst() }
        if name == "help" || argv.contains("--help") || argv.contains("-h") {
            printUsage(); return 0
        }
        guard let command = name.isEmpty ? benchCommands.first : benchCommands.first(where: { $0.name == name }) else {
            printError("unknown subcommand '\(name)'"); printUsage(); return 64
        }
        return await command.run(Arguments(argv))
    }

    static func printUsage() {
        var text = "usage: switchboard-bench [subcommand] [options]\n\nsubcommands:\n"
        for command in benchCommands { text += "  \(command.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(command.summary)\n" }
        FileHandle.standardError.write(Data(text.utf8))
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("switchboard-bench: \(message)\n".utf8))
}

/// Minimal `--name value` / `--flag` parsing (no dependencies by design).
struct Arguments {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var positional: [String] = []

    init(_ argv: [String]) {
        var i = 0
        while i < argv.count {
            let arg = argv[i]
            if arg.hasPrefix("--") {
                let key = String(arg.dropFirst(2))
                if let eq = key.firstIndex(of: "=") {
                    values[String(key[..<eq])] = String(key[key.index(after: eq)...])
                } else if i + 1 < argv.count, !argv[i + 1].hasPrefix("--") {
                    values[key] = argv[i + 1]; i += 1
                } else {
                    flags.insert(key)
                }
            } else {
                positional.append(arg)
            }
            i += 1
        }
    }

    func string(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) || values[name] == "true" }
    func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }
    func double(_ name: String) -> Double? { values[name].flatMap { Double($0) } }
}
