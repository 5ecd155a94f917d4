// `switchboard`: what a user runs. The benchmarks stay in `switchboard-bench`.
import Foundation

let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
