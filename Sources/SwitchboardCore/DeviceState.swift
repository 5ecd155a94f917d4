/// The device's condition, which routing weighs: a hot, low-battery phone prefers remote work for
/// public requests (private ones stay on device regardless).
public struct DeviceState: Sendable, Hashable {
    public enum MemoryPressure: Int, Sendable, Hashable, Comparable {
        case normal = 0, warning = 1, critical = 2
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }
    public enum Thermal: Int, Sendable, Hashable, Comparable {
        case nominal = 0, fair = 1, serious = 2, critical = 3
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }
    public var memoryPressure: MemoryPressure
    /// Bytes of memory available to new work, when known.
    public var availableMemoryBytes: UInt64?
    public var thermal: Thermal
    /// 0...1, nil where the platform has no battery.
    public var batteryLevel: Double?
    public var isCharging: Bool?
    public var lowPowerMode: Bool
    /// One-minute load average divided by the core count, when known.
    public var cpuLoad: Double?

    public init(memoryPressure: MemoryPressure = .normal, availableMemoryBytes: UInt64? = nil,
                thermal: Thermal = .nominal, batteryLevel: Double? = nil, isCharging: Bool? = nil,
                lowPowerMode: Bool = false, cpuLoad: Double? = nil) {
        self.memoryPressure = memoryPressure; self.availableMemoryBytes = availableMemoryBytes
        self.thermal = thermal; self.batteryLevel = batteryLevel; self.isCharging = isCharging
        self.lowPowerMode = lowPowerMode; self.cpuLoad = cpuLoad
    }
    public static let nominal = DeviceState()
}

/// Where routing reads the device's state from: the system in production, a fixed value in tests.
public protocol DeviceStateProviding: Sendable {
    func current() async -> DeviceState
}

/// A state that never changes (tests, servers that do not care).
public struct FixedDeviceState: DeviceStateProviding {
    public var state: DeviceState
    public init(_ state: DeviceState = .nominal) { self.state = state }
    public func current() async -> DeviceState { state }
}
