/// What one `LocalModelProvider` has done since it was made (for benchmarks and diagnostics).
public struct LocalProviderStatistics: Sendable, Hashable {
    public var loads = 0
    public var unloads = 0
    public var failedLoads = 0
    public var generations = 0
    public var cancelledGenerations = 0
    public var failedGenerations = 0
    public var promptTokens = 0
    public var completionTokens = 0
    /// Duration of the last successful load, verification included.
    public var lastLoadDuration: Duration?
    public init() {}
}
