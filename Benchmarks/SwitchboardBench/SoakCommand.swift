import Foundation

/// `soak [--requests N] [--seconds S] [--concurrency C] [--seed N]`: N requests (default 1,000,000)
/// through one coordinator with streaming, early-stopping callers and failing scripted providers
/// (`SoakRun`), stopping early after S seconds (default 900). Prints one JSON object: RSS at 10 %
/// and at 100 % of the requests run, the growth between them, requests/s and the bookkeeping. Exits 0
/// when the books balance and RSS grew less than 5 %, 1 otherwise.
enum SoakCommand: BenchCommand {
    static let name = "soak"
    static let summary = "1,000,000 scripted requests through the runtime; RSS growth and bookkeeping as JSON [--requests N] [--seconds S]"
    static let options: [BenchOption]? = [
        .integer("requests", 1...100_000_000), .number("seconds", 1...86_400), .integer("concurrency", 1...1024), .seed(),
    ]

    static func run(_ arguments: Arguments) async -> Int32 {
        var settings = SoakSettings()
        settings.requests = arguments.int("requests") ?? settings.requests
        settings.seconds = arguments.double("seconds") ?? settings.seconds
        settings.concurrency = arguments.int("concurrency") ?? settings.concurrency
        settings.seed = arguments.uint64("seed") ?? settings.seed
        let report = await SoakRun.run(settings)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(report) else { printError("soak: cannot encode the report"); return 1 }
        print(String(decoding: data, as: UTF8.self))
        return report.passes ? 0 : 1
    }
}
