/// How a provider is doing, with the reasons in words a person can act on.
public struct ProviderHealth: Sendable, Hashable {
    public enum Level: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        case healthy = 0, degraded = 1, critical = 2
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public var description: String {
            switch self {
            case .healthy: "healthy"
            case .degraded: "degraded"
            case .critical: "critical"
            }
        }
    }
    public var level: Level
    public var reasons: [String]
    public init(level: Level = .healthy, reasons: [String] = []) { self.level = level; self.reasons = reasons }
    public static let healthy = ProviderHealth()
}
