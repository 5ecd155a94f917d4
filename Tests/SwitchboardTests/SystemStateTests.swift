import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTestKit

@Suite struct SystemStateTests {
    static let meminfo = """
        MemTotal:       16000000 kB
        MemFree:          500000 kB
        MemAvailable:    2000000 kB
        Buffers:          100000 kB
        Cached:          1000000 kB
        """

    @Test func parsesMeminfo() throws {
        let info = try #require(SystemStateParsing.memoryInfo(fromMeminfo: Self.meminfo))
        #expect(info.totalBytes == 16_000_000 * 1024)
        #expect(info.availableBytes == 2_000_000 * 1024)
        #expect(SystemStateParsing.memoryPressure(availableFraction: info.availableFraction) == .warning)
    }

    @Test func meminfoWithoutMemAvailableFallsBack() throws {
        let old = "MemTotal: 1000 kB\nMemFree: 20 kB\nBuffers: 10 kB\nCached: 10 kB\n"
        let info = try #require(SystemStateParsing.memoryInfo(fromMeminfo: old))
        #expect(info.availableBytes == 40 * 1024)
        #expect(SystemStateParsing.memoryPressure(availableFraction: info.availableFraction) == .critical)
    }

    @Test func malformedTextGivesNil() {
        #expect(SystemStateParsing.memoryInfo(fromMeminfo: "") == nil)
        #expect(SystemStateParsing.memoryInfo(fromMeminfo: "MemTotal: lots\n") == nil)
        #expect(SystemStateParsing.memoryInfo(fromMeminfo: "MemTotal: 0 kB\nMemAvailable: 0 kB") == nil)
        #expect(SystemStateParsing.memoryInfo(fromMeminfo: "MemTotal: 99999999999999999999 kB") == nil)
        #expect(SystemStateParsing.cpuLoad(fromLoadavg: "", processorCount: 2) == nil)
        #expect(SystemStateParsing.cpuLoad(fromLoadavg: "nan 1 1", processorCount: 2) == nil)
        #expect(SystemStateParsing.batteryLevel(fromCapacity: "full") == nil)
        #expect(SystemStateParsing.isCharging(fromStatus: "Unknown") == nil)
    }

    @Test func pressureThresholds() {
        #expect(SystemStateParsing.memoryPressure(availableFraction: 0.5) == .normal)
        #expect(SystemStateParsing.memoryPressure(availableFraction: 0.149) == .warning)
        #expect(SystemStateParsing.memoryPressure(availableFraction: 0.049) == .critical)
    }

    @Test func loadAndBattery() {
        #expect(SystemStateParsing.cpuLoad(fromLoadavg: "1.50 0.80 0.40 2/345 6789\n", processorCount: 2) == 0.75)
        #expect(SystemStateParsing.batteryLevel(fromCapacity: "87\n") == 0.87)
        #expect(SystemStateParsing.isCharging(fromStatus: "Discharging\n") == false)
        #expect(SystemStateParsing.isCharging(fromStatus: "Charging") == true)
    }

    #if os(Linux)
    @Test func readsInjectedFilesAndCachesForTheInterval() async {
        let clock = ManualClock()
        let files = SystemFiles.fixed([
            "/proc/meminfo": Self.meminfo,
            "/proc/loadavg": "0.00 0.00 0.00 1/1 1\n",
            "/sys/class/power_supply/AC/online": "1",
            "/sys/class/power_supply/BAT0/capacity": "42",
            "/sys/class/power_supply/BAT0/status": "Discharging",
        ])
        let source = SystemStateSource(refreshInterval: .seconds(5), clock: clock, files: files)
        let state = await source.current()
        #expect(state.memoryPressure == .warning)
        #expect(state.availableMemoryBytes == 2_000_000 * 1024)
        #expect(state.cpuLoad == 0)
        #expect(state.batteryLevel == 0.42)
        #expect(state.isCharging == false)
        #expect(state.thermal == .nominal)
        #expect(state.lowPowerMode == false)
    }

    @Test func cachesUntilTheIntervalPasses() async {
        let clock = ManualClock()
        let reads = ReadCounter()
        let files = SystemFiles(read: { path in reads.count(path); return path == "/proc/loadavg" ? "1 1 1 1/1 1" : nil },
                                list: { _ in [] })
        let source = SystemStateSource(refreshInterval: .seconds(1), clock: clock, files: files)
        _ = await source.current()
        _ = await source.current()
        #expect(reads.value == 2, "meminfo and loadavg once")
        clock.advance(by: .seconds(1))
        let state = await source.current()
        #expect(reads.value == 4)
        #expect(state.availableMemoryBytes == nil && state.batteryLevel == nil && state.cpuLoad != nil)
    }

    @Test func unreadableFilesLeaveFieldsNil() async {
        let source = SystemStateSource(clock: ManualClock(), files: SystemFiles(read: { _ in nil }, list: { _ in [] }))
        let state = await source.current()
        #expect(state.availableMemoryBytes == nil && state.cpuLoad == nil && state.batteryLevel == nil)
        #expect(state.memoryPressure == .normal)
    }

    @Test func liveSystemDoesNotCrash() async {
        let state = await SystemStateSource(clock: ManualClock()).current()
        #expect(state.availableMemoryBytes.map { $0 > 0 } ?? true)
    }
    #endif
}

import Synchronization

final class ReadCounter: Sendable {
    private let reads = Lock(0)
    func count(_ path: String) { reads.withLock { $0 += 1 } }
    var value: Int { reads.withLock { $0 } }
}
