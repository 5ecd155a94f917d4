import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress bar on stderr: redrawn in place with `\r` on a terminal; on a pipe or file, one plain
/// line per phase and per quarter, so logs stay readable.
struct BenchProgressBar {
    let title: String
    let width = 30
    let isTerminal = isatty(STDERR_FILENO) != 0
    private var lastLabel = ""
    private var lastStep = -1

    init(title: String) { self.title = title }

    /// `label` names the phase; `detail` (e.g. "12/40") is shown on a terminal only, so a pipe gets a
    /// line per phase and per quarter rather than one per update.
    mutating func update(_ fraction: Double, label: String, detail: String = "") {
        let fraction = min(max(fraction.isNaN ? 0 : fraction, 0), 1)
        let percent = Int((fraction * 100).rounded(.down))
        if isTerminal {
            guard percent != lastStep || label != lastLabel || !detail.isEmpty else { return }
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let padded = (detail.isEmpty ? label : "\(label) \(detail)").padding(toLength: 16, withPad: " ", startingAt: 0)
            write("\r\(title) [\(bar)] \(String(format: "%3d", percent))% \(padded)")
        } else {
            let quarter = percent / 25
            guard label != lastLabel || quarter != lastStep else { return }
            write("\(title): \(label) \(percent)%\n")
            lastStep = quarter
            lastLabel = label
            return
        }
        lastStep = percent
        lastLabel = label
    }

    func finish(_ message: String) {
        write(isTerminal ? "\r\u{1B}[2K\(title): \(message)\n" : "\(title): \(message)\n")
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
