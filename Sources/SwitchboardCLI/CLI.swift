import Foundation

/// Exit codes, as `sysexits.h` names them where one fits.
enum ExitStatus: Int32, Error {
    case ok = 0
    /// The request ran and failed (every provider failed, or the answer was refused).
    case failed = 1
    /// A bad option, value or input (EX_USAGE).
    case usage = 64
    /// A file that should be there is not: a model, a schema (EX_NOINPUT).
    case noInput = 66
    /// A file is there but is not what it should be: a model's checksum (EX_DATAERR).
    case dataError = 65
}

protocol CLICommand: Sendable {
    static var name: String { get }
    static var summary: String { get }
    static var usage: String { get }
    static func run(_ arguments: CLIArguments) async -> ExitStatus
}

enum CLI {
    static var commands: [any CLICommand.Type] { [AskCommand.self, ChatCommand.self, EmbedCommand.self, AnalyzeCommand.self, ModelsCommand.self] }

    static func run(_ argv: [String]) async -> ExitStatus {
        guard let name = argv.first, !name.hasPrefix("-") || name == "--help" || name == "-h" else { printHelp(); return .usage }
        if name == "help" || name == "--help" || name == "-h" {
            if argv.count > 1, let command = commands.first(where: { $0.name == argv[1] }) { print(command.usage); return .ok }
            printHelp(); return .ok
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("unknown command '\(name)'"); printHelp(); return .usage
        }
        let arguments: CLIArguments
        do throws(CLIArguments.UsageError) { arguments = try CLIArguments(Array(argv.dropFirst())) } catch {
            printError(error.message); return .usage
        }
        if arguments.flag("help") { print(command.usage); return .ok }
        return await command.run(arguments)
    }

    static func printHelp() {
        var text = "switchboard: on-device and remote AI, routed by privacy\n\nusage: switchboard <command> [options]\n\ncommands:\n"
        for command in commands { text += "  " + command.name.padding(toLength: 9, withPad: " ", startingAt: 0) + command.summary + "\n" }
        text += """

        switchboard <command> --help shows a command's options.
        exit codes: 0 ok, 1 the request failed, 64 bad usage, 65 bad data (a model's checksum), 66 a missing file
        """
        print(text)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data(("switchboard: " + message + "\n").utf8))
}

/// `--name value`, `--name=value`, flags, and the rest as positional words (`--` ends options).
struct CLIArguments {
    struct UsageError: Error { let message: String }
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []
    static let flagNames: Set<String> = ["help", "json", "verbose", "quiet", "similarity"]

    init(_ argv: [String]) throws(UsageError) {
        var index = 0
        var onlyPositional = false
        while index < argv.count {
            let arg = argv[index]
            index += 1
            if onlyPositional || !arg.hasPrefix("--") {
                if arg == "-h", !onlyPositional { flags.insert("help"); continue }
                positional.append(arg); continue
            }
            if arg == "--" { onlyPositional = true; continue }
            let body = arg.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                values[String(body[..<equals])] = String(body[body.index(after: equals)...]); continue
            }
            let name = String(body)
            if Self.flagNames.contains(name) { flags.insert(name); continue }
            guard index < argv.count else { throw UsageError(message: "--\(name) needs a value") }
            values[name] = argv[index]
            index += 1
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func string(_ name: String) -> String? { values[name] }

    /// An integer option within `range`; a value outside it is a usage error, never a trap.
    func int(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(message: "--\(name) must be an integer in \(range.lowerBound)...\(range.upperBound) (got '\(text)')")
        }
        return value
    }

    /// Rejects options the command does not know, naming them.
    func check(known: Set<String>) throws(UsageError) {
        for name in values.keys.sorted() where !known.contains(name) { throw UsageError(message: "unknown option --\(name)") }
        for name in flags.sorted() where !known.contains(name) && name != "help" { throw UsageError(message: "unknown option --\(name)") }
    }
}
