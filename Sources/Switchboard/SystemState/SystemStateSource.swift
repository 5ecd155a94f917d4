import Foundation
import SwitchboardCore

/// The device's state from the operating system, read at most once per `refreshInterval`.
/// Linux: /proc/meminfo, /proc/loadavg, /sys/class/power_supply/BAT*; everywhere: ProcessInfo's
/// thermal state and low-power mode. What cannot be read stays nil.
public actor SystemStateSource: DeviceStateProviding {
    private let refreshInterval: Duration
    private let clock: ClockSource
    private let files: SystemFiles
    private var cached: (state: DeviceState, readAt: Duration)?

    public init(refreshInterval: Duration = .seconds(1), clock: some Clock<Duration> = ContinuousClock()) {
        self.init(refreshInterval: refreshInterval, clock: clock, files: .live)
    }

    /// With injected files (tests, sandboxes).
    public init(refreshInterval: Duration = .seconds(1), clock: some Clock<Duration> = ContinuousClock(),
                files: SystemFiles) {
        self.refreshInterval = refreshInterval
        self.clock = ClockSource(clock)
        self.files = files
    }

    public func current() -> DeviceState {
        let now = clock.now()
        if let cached, now - cached.readAt < refreshInterval { return cached.state }
        let state = read()
        cached = (state, now)
        return state
    }

    private func read() -> DeviceState {
        var state = DeviceState()
        let info = ProcessInfo.processInfo
        state.thermal = Self.thermal(info)
        state.lowPowerMode = Self.lowPowerMode(info)
        #if os(Linux)
        if let text = files.read("/proc/meminfo"), let memory = SystemStateParsing.memoryInfo(fromMeminfo: text) {
            state.availableMemoryBytes = memory.availableBytes
            state.memoryPressure = SystemStateParsing.memoryPressure(availableFraction: memory.availableFraction)
        }
        if let text = files.read("/proc/loadavg") {
            state.cpuLoad = SystemStateParsing.cpuLoad(fromLoadavg: text, processorCount: info.activeProcessorCount)
        }
        readBattery(into: &state)
        #endif
        return state
    }

    private func readBattery(into state: inout DeviceState) {
        let directory = "/sys/class/power_supply"
        for name in files.list(directory).sorted() where name.hasPrefix("BAT") {
            guard let capacity = files.read("\(directory)/\(name)/capacity"),
                  let level = SystemStateParsing.batteryLevel(fromCapacity: capacity) else { continue }
            state.batteryLevel = level
            state.isCharging = files.read("\(directory)/\(name)/status").flatMap(SystemStateParsing.isCharging(fromStatus:))
            return
        }
    }

    /// Linux's Foundation has no thermal state; the kernel's thermal zones carry no common meaning.
    private static func thermal(_ info: ProcessInfo) -> DeviceState.Thermal {
        #if canImport(Darwin)
        switch info.thermalState {
        case .nominal: .nominal
        case .fair: .fair
        case .serious: .serious
        case .critical: .critical
        @unknown default: .nominal
        }
        #else
        .nominal
        #endif
    }

    private static func lowPowerMode(_ info: ProcessInfo) -> Bool {
        #if canImport(Darwin)
        info.isLowPowerModeEnabled
        #else
        false
        #endif
    }
}
