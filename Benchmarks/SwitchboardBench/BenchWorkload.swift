import SwitchboardCore

/// One request of the main job, and whether the bench cancels it on purpose.
struct BenchJob: Sendable {
    enum Cancel: Sendable { case afterFirstToken, after(Duration) }
    var label: String
    var request: GenerationRequest
    var cancel: Cancel?
}

/// The mixed workload: sensitive prompts (which may only run on device), public prompts for the local
/// base model, chat questions (public and sensitive) that routing sends to the instruct model, public
/// prompts for the remote providers (some preferring the flaky, slow or down one so fallbacks happen),
/// repeats for the cache, every priority, and a few deliberate cancellations.
enum BenchWorkload {
    static let sensitivePrompts = [
        "My SSN is 219-09-9999 and I need to update my tax form. The first step is",
        "Card 4111 1111 1111 1111, expiry 12/27, was charged twice. A polite complaint letter begins:",
        "My doctor diagnosed me with type 2 diabetes and prescribed metformin. My daily routine:",
        "Transfer to IBAN DE89 3704 0044 0532 0130 00 failed yesterday. The bank said",
        "My passport number is X1234567 and it expires next month. To renew it I",
        "Our API key is sk-live-51HqLyjWDarjtT1zdp7dcXYZ and it leaked; the rotation plan is",
        "My social security number 078-05-1120 was used to open an account. I should first",
        "I was prescribed sertraline for depression and feel tired. Questions for my doctor:",
    ]

    static let publicLocalPrompts = [
        "The capital of France is",
        "Once upon a time, in a small village by the sea,",
        "The three primary colors are",
        "A good breakfast usually includes",
        "Water boils at a temperature of",
        "The best way to learn a new language is",
        "In 1969, Neil Armstrong",
        "The main ingredients of bread are",
    ]

    /// Chat questions: the public ones prefer the instruct model; the sensitive ones name no provider,
    /// and privacy plus the prompt kind route them to it.
    static let publicChatPrompts = [
        "What is the capital of France?",
        "Name three primary colors.",
        "How many days are in a leap year?",
        "What is the boiling point of water in Celsius?",
    ]

    static let sensitiveChatPrompts = [
        "I was diagnosed with asthma last week. What should I ask my doctor?",
        "My password is Tr0ub4dor&3 and I reuse it everywhere. Is that a problem?",
        "My SSN is 219-09-9999. Should I give it to my landlord?",
        "I take metformin for my diabetes. Can I drink coffee?",
    ]

    static let chatInstruction = "You are a helpful assistant. Answer briefly and accurately."

    static let publicRemotePrompts = [
        "Summarize the plot of a classic adventure novel in two sentences.",
        "List three tips for writing clear documentation.",
        "Explain what a load balancer does in one paragraph.",
        "Give a short definition of photosynthesis.",
        "What are the benefits of regular exercise?",
        "Describe the water cycle for a school newsletter.",
        "Suggest a name for a friendly robot in a children's story.",
        "Translate 'good morning' into French, Spanish and German.",
        "Write a haiku about autumn leaves.",
        "Explain the difference between weather and climate.",
    ]

    static func jobs(localRequests: Int, chatRequests: Int, remoteRequests: Int, maxTokens: Int, localID: ProviderID,
                     chatID: ProviderID, seed: UInt64) -> [BenchJob] {
        var jobs: [BenchJob] = []
        let priorities: [Priority] = [.high, .normal, .low]
        // Two thirds of the local work is sensitive; a remote provider is preferred for some of it, which the
        // privacy rule overrides.
        let sensitiveCount = max(1, localRequests * 2 / 3)
        for i in 0..<sensitiveCount {
            let prefer: [ProviderID] = i % 4 == 1 ? [BenchFleet.healthy] : []
            jobs.append(BenchJob(label: "sensitive", request: GenerationRequest(
                prompt: sensitivePrompts[i % sensitivePrompts.count], kind: .completion, priority: priorities[i % 3],
                maxTokens: maxTokens, preferredProviders: prefer), cancel: nil))
        }
        for i in 0..<max(0, localRequests - sensitiveCount) {
            // Two of them are cancelled mid-generation on purpose.
            let cancel: BenchJob.Cancel? = i < 2 ? .afterFirstToken : nil
            jobs.append(BenchJob(label: "public-local", request: GenerationRequest(
                prompt: publicLocalPrompts[i % publicLocalPrompts.count] + (i < publicLocalPrompts.count ? "" : " (\(i))"), kind: .completion,
                priority: priorities[(i + 1) % 3], maxTokens: maxTokens, preferredProviders: [localID]), cancel: cancel))
        }
        for i in 0..<chatRequests {
            let sensitive = i % 2 == 1
            let list = sensitive ? sensitiveChatPrompts : publicChatPrompts
            let question = list[(i / 2) % list.count] + (i / 2 < list.count ? "" : " (\(i / 2))")
            jobs.append(BenchJob(label: sensitive ? "sensitive-chat" : "public-chat", request: GenerationRequest(
                messages: [ChatMessage(.system, chatInstruction), ChatMessage(.user, question)], priority: priorities[i % 3],
                maxTokens: maxTokens, preferredProviders: sensitive ? [] : [chatID]), cancel: nil))
        }
        let preferences: [[ProviderID]] = [[], [BenchFleet.flaky], [BenchFleet.slow], [BenchFleet.down], [],
                                           [BenchFleet.healthy], [BenchFleet.flaky], []]
        let repeats = remoteRequests / 6
        var remoteJobs: [BenchJob] = []
        for i in 0..<(remoteRequests - repeats) {
            let round = i / publicRemotePrompts.count
            let prompt = publicRemotePrompts[i % publicRemotePrompts.count] + (round == 0 ? "" : " (variant \(round))")
            let prefer = preferences[i % preferences.count]
            let cancel: BenchJob.Cancel? = prefer == [BenchFleet.slow] && i % 3 == 0 ? .after(.milliseconds(150)) : nil
            remoteJobs.append(BenchJob(label: "public-remote", request: GenerationRequest(
                prompt: prompt, priority: priorities[i % 3], maxTokens: 16, preferredProviders: prefer,
                excludedProviders: [localID, chatID]), cancel: cancel))
        }
        var random = SeededRandom(seed: seed)
        jobs += remoteJobs
        jobs.shuffle(using: &random)
        // Repeats of earlier public requests, word for word, at the end: served from the cache.
        let repeatable = remoteJobs.filter { $0.cancel == nil && $0.request.preferredProviders != [BenchFleet.down] }
        for i in 0..<repeats where !repeatable.isEmpty {
            var copy = repeatable[(i * 7) % repeatable.count]
            copy.label = "public-repeat"
            jobs.append(copy)
        }
        return jobs
    }
}
