import Testing
@testable import SwitchboardBench

/// The bench's command line: prompts that look like options, flags that never swallow text, and
/// every number checked against its range before a command runs (exit 64, never a trap).
@Suite("switchboard-bench argument parsing")
struct ArgumentsTests {
    static func ask(_ argv: [String]) throws(UsageError) -> Arguments {
        try Arguments(argv, options: AskCommand.options ?? [], command: "ask")
    }

    static func askPrompt(_ argv: [String]) throws -> String {
        try AskCommand.prompt(try ask(argv)).get()
    }

    @Test func aFlagNeverTakesTheNextArgumentAsItsValue() throws {
        let arguments = try Self.ask(["--json", "What is the capital of France?"])
        #expect(arguments.flag("json"))
        #expect(try Self.askPrompt(["--json", "What is the capital of France?"]) == "What is the capital of France?")
        #expect(try Self.askPrompt(["--json", "what", "is", "2+2"]) == "what is 2+2")
    }

    @Test func textStartingWithDashesReachesThePrompt() throws {
        let pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"
        #expect(try Self.askPrompt(["--prompt", pem]) == pem)
        #expect(try Self.askPrompt(["--prompt=" + pem]) == pem)
        #expect(try Self.askPrompt(["--json", "--", pem]) == pem)
        #expect(try Self.askPrompt(["--max-tokens", "8", "--", "--verbose is a flag of what?"]) == "--verbose is a flag of what?")
    }

    @Test func textThatLooksLikeAnUnknownOptionFailsWithAHintAndNoSecret() {
        let pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAsecretmaterial"
        #expect {
            _ = try Self.ask([pem])
        } throws: { error in
            let message = (error as? UsageError)?.description ?? ""
            return message.contains("--prompt=TEXT") && message.contains("after '--'") && !message.contains("secretmaterial")
        }
    }

    @Test func thePromptIsGivenOnce() throws {
        #expect(throws: UsageError.self) { try Self.askPrompt(["--prompt", "a", "b"]) }
        #expect(throws: UsageError.self) { try Self.askPrompt(["--json"]) }
        #expect(throws: UsageError(description: "--max-tokens needs a value")) { try Self.ask(["--max-tokens"]) }
        #expect(throws: UsageError(description: "--json is a flag and takes no value")) { try Self.ask(["--json=yes", "hi"]) }
    }

    @Test(arguments: [
        (["--seed", "-1"], "--seed takes a whole number from 0 to 18446744073709551615, got '-1'"),
        (["--max-tokens", "9223372036854775807"], "--max-tokens takes a whole number from 1 to 1000000, got '9223372036854775807'"),
        (["--max-tokens", "0"], "--max-tokens takes a whole number from 1 to 1000000, got '0'"),
        (["--max-tokens", "ten"], "--max-tokens takes a whole number from 1 to 1000000, got 'ten'"),
        (["--openai-timeout", "inf"], "--openai-timeout takes a number from 0.001 to 604800.0, got 'inf'"),
        (["--openai-timeout", "1e300"], "--openai-timeout takes a number from 0.001 to 604800.0, got '1e300'"),
        (["--openai-timeout", "nan"], "--openai-timeout takes a number from 0.001 to 604800.0, got 'nan'"),
        (["--openai-context", "9223372036854775806"], "--openai-context takes a whole number from 1 to 10000000, got '9223372036854775806'"),
        (["--temperature", "-0.5"], "--temperature takes a number from 0.0 to 10.0, got '-0.5'"),
        (["--threads", "99999999999999999999"], "--threads takes a whole number from 1 to 256, got '99999999999999999999'"),
    ])
    func numbersOutOfRangeAreUsageErrors(_ argv: [String], _ message: String) {
        #expect(throws: UsageError(description: message)) { try Self.ask(argv + ["hello"]) }
    }

    @Test func numbersInRangeAreRead() throws {
        let arguments = try Self.ask(["--seed", "18446744073709551615", "--max-tokens=64", "--openai-timeout", "2.5", "hi"])
        #expect(arguments.uint64("seed") == .max)
        #expect(arguments.int("max-tokens") == 64)
        #expect(arguments.double("openai-timeout") == 2.5)
    }

    @Test func everySubcommandChecksItsNumbers() {
        for command in benchCommands {
            guard let options = command.options else { Issue.record("\(command.name) declares no options"); continue }
            for option in options {
                guard case .integer = option.kind else { continue }
                #expect(throws: UsageError.self, "\(command.name) --\(option.name)") {
                    try Arguments(["--\(option.name)", "9223372036854775807"], options: options, command: command.name)
                }
            }
        }
    }

    @Test func theCommandLineExitsWith64() async {
        #expect(await BenchCommandLine.run(["ask", "--seed", "-1", "hello"]) == 64)
        #expect(await BenchCommandLine.run(["ask", "--openai-timeout", "inf", "hello"]) == 64)
        #expect(await BenchCommandLine.run(["ask", "-----BEGIN PRIVATE KEY-----"]) == 64)
        #expect(await BenchCommandLine.run(["route", "--requests", "-5"]) == 64)
        #expect(await BenchCommandLine.run(["ask", "--help"]) == 0)
    }
}
