import Foundation

/// A `switchboard-bench` subcommand. Output goes to stdout (JSON where asked); errors to stderr.
protocol BenchCommand {
    static var name: String { get }
    static var summary: String { get }
    /// What it accepts; nil reads arguments leniently (see `Arguments`). Declared options are
    /// checked before `run`: an unknown option or a value out of range exits with 64.
    static var options: [BenchOption]? { get }
    /// Returns the process exit code.
    static func run(_ arguments: Arguments) async -> Int32
}

extension BenchCommand {
    static var options: [BenchOption]? { nil }
}

/// Every subcommand; the first is the default when none is given.
var benchCommands: [any BenchCommand.Type] {
    [
        RunCommand.self,
        AskCommand.self,
        AnalyzeCommand.self,
        RouteCommand.self,
        TokenizeCommand.self,
        EmbedCommand.self,
        MemoryCommand.self,
        ScoreCommand.self,
        GenerateCommand.self,
        EngineCommand.self,
        BatchCommand.self,
        StructuredCommand.self,
        SpeculateCommand.self,
        SessionCommand.self,
        PrefixCommand.self,
        ChaosCommand.self,
        PrivacyTrainCommand.self,
        SemanticCacheCommand.self,
        SoakCommand.self,
    ]
}

enum BenchCommandLine {
    static func run(_ argv: [String]) async -> Int32 {
        var argv = argv
        let name = argv.first.map { $0.hasPrefix("-") ? "" : $0 } ?? ""
        if !name.isEmpty { argv.removeFirst() }
        guard let command = name.isEmpty || name == "help" ? benchCommands.first : benchCommands.first(where: { $0.name == name }) else {
            printError("unknown subcommand '\(BenchOption.shown(name))'"); printUsage(); return 64
        }
        let arguments: Arguments
        switch parse(argv, for: command) {
        case .success(let parsed): arguments = parsed
        case .failure(let error): printError(error.description); return 64
        }
        if name == "help" || arguments.flag("help") { printUsage(); return 0 }
        return await command.run(arguments)
    }

    /// The arguments as `command` declares them (strict), or leniently when it declares none.
    static func parse(_ argv: [String], for command: any BenchCommand.Type) -> Result<Arguments, UsageError> {
        guard let options = command.options else {
            // Lenient reading: help wherever it appears, as before.
            return .success(Arguments(argv.contains("-h") || argv.contains("--help") ? ["--help"] : argv))
        }
        do { return .success(try Arguments(argv, options: options, command: command.name)) } catch { return .failure(error) }
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
