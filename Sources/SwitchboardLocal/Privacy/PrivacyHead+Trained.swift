// Placeholder until `switchboard-bench privacy-train` writes the trained head.
extension PrivacyHead {
    public static let trained = PrivacyHead(weights: [], bias: 0, threshold: 0.5, modelID: "local-minilm-l6-v2")
}
