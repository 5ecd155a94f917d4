import SwitchboardCore

/// Pure parsers for the Linux files the system state is read from. Malformed text gives nil, never a crash.
public enum SystemStateParsing {
    public struct MemoryInfo: Sendable, Hashable {
        public var totalBytes: UInt64
        public var availableBytes: UInt64
        public var availableFraction: Double { totalBytes == 0 ? 0 : Double(availableBytes) / Double(totalBytes) }
    }

    /// `MemTotal` and `MemAvailable` (kB) from /proc/meminfo; falls back to MemFree + Buffers + Cached on
    /// old kernels without `MemAvailable`.
    public static func memoryInfo(fromMeminfo text: String) -> MemoryInfo? {
        var total: UInt64?, available: UInt64?, free: UInt64?, buffers: UInt64?, cached: UInt64?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon]
            let fields = line[line.index(after: colon)...].split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first, let value = UInt64(first) else { continue }
            let multiplier: UInt64 = fields.count > 1 && fields[1].lowercased() == "kb" ? 1024 : 1
            let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
            guard !overflow else { continue }
            switch name {
            case "MemTotal": total = bytes
            case "MemAvailable": available = bytes
            case "MemFree": free = bytes
            case "Buffers": buffers = bytes
            case "Cached": cached = bytes
            default: break
            }
        }
        guard let total, total > 0 else { return nil }
        if let available { return MemoryInfo(totalBytes: total, availableBytes: min(available, total)) }
        guard let free else { return nil }
        let estimate = free &+ (buffers ?? 0) &+ (cached ?? 0)
        return MemoryInfo(totalBytes: total, availableBytes: min(estimate, total))
    }

    /// Pressure from the available fraction: below 5% critical, below 15% warning.
    public static func memoryPressure(availableFraction: Double) -> DeviceState.MemoryPressure {
        if availableFraction < 0.05 { return .critical }
        if availableFraction < 0.15 { return .warning }
        return .normal
    }

    /// The one-minute load average from /proc/loadavg divided by the processor count.
    public static func cpuLoad(fromLoadavg text: String, processorCount: Int) -> Double? {
        guard processorCount > 0,
              let first = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).first,
              let load = Double(first), load.isFinite, load >= 0 else { return nil }
        return load / Double(processorCount)
    }

    /// /sys/class/power_supply/BAT*/capacity (percent) → 0...1.
    public static func batteryLevel(fromCapacity text: String) -> Double? {
        guard let percent = Double(text.trimmingASCIIWhitespace()), percent.isFinite else { return nil }
        return min(max(percent / 100, 0), 1)
    }

    /// /sys/class/power_supply/BAT*/status → charging (Charging, Full, Not charging on AC) or not.
    public static func isCharging(fromStatus text: String) -> Bool? {
        switch text.trimmingASCIIWhitespace().lowercased() {
        case "charging", "full", "not charging": true
        case "discharging": false
        default: nil
        }
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }),
              let end = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }
}
