import SwitchboardCore

/// The chaos requests: short chat questions, about one in ten sensitive. Every request prefers the
/// remotes (rotated, so load spreads); privacy must still keep the sensitive ones on the device.
enum ChaosWorkload {
    static let system = "Answer in one short sentence."

    static let publicPrompts = [
        "Give a short definition of photosynthesis.",
        "What is the capital of France?",
        "Name three primary colors.",
        "Explain what a load balancer does.",
        "Suggest a name for a friendly robot.",
        "Translate 'good morning' into French.",
        "What is the boiling point of water in Celsius?",
        "How many days are in a leap year?",
    ]

    /// Each sensitive prompt with the value that must never reach a server.
    static let sensitive: [(prompt: String, marker: String)] = [
        ("My SSN is 219-09-9999. Should I give it to my landlord?", "219-09-9999"),
        ("My card 4111 1111 1111 1111 was charged twice. What should I do?", "4111 1111 1111 1111"),
        ("My social security number 078-05-1120 was used to open an account. What now?", "078-05-1120"),
        ("My password is Tr0ub4dor&3 and I reuse it everywhere. Is that a problem?", "Tr0ub4dor&3"),
        ("I was diagnosed with asthma last week and take albuterol. What should I ask my doctor?", "diagnosed with asthma"),
    ]

    /// What the servers look for: whole sensitive prompts and their values.
    static var markers: [String] { sensitive.flatMap { [$0.prompt, $0.marker] } }

    static func isSensitive(_ index: Int) -> Bool { index % 10 == 3 }

    /// Request `index` of a scenario. Public prompts are made unique, so nothing is a cache hit.
    static func request(_ index: Int, remotes: [ProviderID], maxTokens: Int) -> GenerationRequest {
        let prompt = isSensitive(index)
            ? sensitive[(index / 10) % sensitive.count].prompt
            : publicPrompts[index % publicPrompts.count] + " (request \(index))"
        let count = max(1, remotes.count)
        let preferred = (0..<remotes.count).map { remotes[(index + $0) % count] }
        return GenerationRequest(messages: [ChatMessage(.system, system), ChatMessage(.user, prompt)], maxTokens: maxTokens,
                                 preferredProviders: preferred)
    }
}
