/// A semantic second opinion on privacy, run on the device before a request may leave it.
///
/// Why: recognizers catch shapes (a card number, a diagnosis word, "my password is"); what a person means
/// ("the bleeding started again this morning", "they're garnishing my wages") needs a model. The runtime
/// asks a classifier about every request the recognizers let go off the device, and keeps on the device
/// any request it scores at or above `threshold`. Requests already kept home are never scored.
public protocol PrivacyClassifier: Sendable {
    /// The score from which a text counts as private.
    var threshold: Double { get }
    /// One score in 0...1 per text: how likely it is personal or sensitive.
    func scores(_ texts: [String]) async throws -> [Double]
}
