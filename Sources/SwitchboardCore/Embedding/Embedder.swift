/// Turns texts into vectors. The memory store and the semantic cache take one; the on-device sentence
/// encoder (`SwitchboardLocal`) is the one that keeps private text on the device.
public protocol Embedder: Sendable {
    /// The identifier of the model, stored beside the vectors it made: vectors of two models never mix.
    var modelID: String { get }
    /// The length of every vector this embedder returns.
    var dimension: Int { get }
    /// True when the texts never leave the device; a memory store accepts only such an embedder.
    var isOnDevice: Bool { get }
    /// One L2-normalized vector per text, in order.
    func embed(_ texts: [String]) async throws -> [[Float]]
}
