// Subcommands are registered in Commands.swift; each lives in its own file.
import Foundation

let exitCode = await BenchCommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(exitCode)
