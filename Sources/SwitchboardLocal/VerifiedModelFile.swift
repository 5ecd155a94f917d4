/// A model file that passed verification against its configuration: safe to hand to the engine.
public struct VerifiedModelFile: Sendable, Hashable {
    public var configuration: ModelConfiguration
    public var path: String
    public var sizeBytes: Int
    /// The context the provider runs with: the configuration's, or the file's when that is smaller.
    public var contextLength: Int
    /// Whether this verification reused an earlier hash of the same unchanged file.
    public var fromCache: Bool
}
