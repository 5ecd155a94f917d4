/// `--name value`, `--name=value`, `--flag` and positional text, read against a subcommand's options
/// (`BenchCommand.options`):
/// - An option that takes a value takes the next argument whatever it looks like, so
///   `--prompt "-----BEGIN …"` and `--seed -1` reach the option (the second then fails its range).
/// - A flag never takes one: in `ask --json "text"`, the text is the prompt.
/// - After `--` every argument is positional; an unknown `--name` is an error that says so.
/// Without options (`nil`) the old lenient reading applies: any `--name` followed by an argument not
/// starting with `--` takes it as its value.
struct Arguments {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Lenient: for subcommands that declare no options.
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

    /// Strict: every `--name` must be one of `options` (or `--help`), and every value must pass its check.
    init(_ argv: [String], options: [BenchOption], command: String) throws(UsageError) {
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        var i = 0
        var onlyPositional = false
        while i < argv.count {
            let arg = argv[i]
            i += 1
            if onlyPositional || !arg.hasPrefix("--") || arg == "-" {
                if !onlyPositional, arg == "-h" { flags.insert("help"); continue }
                positional.append(arg); continue
            }
            if arg == "--" { onlyPositional = true; continue }
            let body = arg.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            if name == "help" { flags.insert("help"); continue }
            guard let option = byName[name] else {
                throw UsageError(description: "\(command) has no option '--\(BenchOption.shown(name))'; to pass text that starts "
                                 + "with '-', write it after '--' or as --prompt=TEXT (see --help)")
            }
            guard option.takesValue else {
                guard inline == nil else { throw UsageError(description: "--\(name) is a flag and takes no value") }
                flags.insert(name); continue
            }
            guard let value = inline ?? (i < argv.count ? argv[i] : nil) else {
                throw UsageError(description: "--\(name) needs a value")
            }
            if inline == nil { i += 1 }
            if let problem = option.problem(with: value) { throw UsageError(description: problem) }
            values[name] = value
        }
    }

    func string(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) || values[name] == "true" }
    func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }
    func uint64(_ name: String) -> UInt64? { values[name].flatMap { UInt64($0) } }
    func double(_ name: String) -> Double? { values[name].flatMap { Double($0) } }
    /// The positional arguments as one text (`ask what is 2+2`), nil when there are none.
    var positionalText: String? { positional.isEmpty ? nil : positional.joined(separator: " ") }
}
