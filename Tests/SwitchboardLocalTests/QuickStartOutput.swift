import Synchronization

/// What the README's quick starts print, so their tests check the answers and not only that the code
/// ran. The quick starts call `print` as an app would; inside this test module that is the function
/// below, which prints as usual and, for a task that set `QuickStartOutput.current`, also records the line.
final class QuickStartOutput: Sendable {
    @TaskLocal static var current: QuickStartOutput?
    private let recorded = Mutex<[String]>([])
    var lines: [String] { recorded.withLock { $0 } }
    func append(_ line: String) { recorded.withLock { $0.append(line) } }

    /// Runs `body` and returns the lines it printed.
    static func capture(_ body: () async throws -> Void) async rethrows -> [String] {
        let output = QuickStartOutput()
        try await $current.withValue(output) { try await body() }
        return output.lines
    }
}

func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    QuickStartOutput.current?.append(line)
    Swift.print(line, terminator: terminator)
}
