/// What makes two requests interchangeable for the cache: the normalized content (prompt and its kind, messages and
/// memory trimmed and whitespace-collapsed, tool calls and results, images by digest, output format, tools,
/// maxTokens, sampling) plus the
/// routing constraints that shaped the answer (preferred and excluded providers, privacy level).
/// Priority and latency budget are left out: they change when an answer comes, not what it says.
package struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    private let prompt: String?
    private let kind: PromptKind
    private let messages: [ChatMessage]
    private let memory: MemoryContext?
    private let imageCount: Int
    private let imagesDigest: UInt64
    private let output: OutputFormat
    private let tools: [ToolDefinition]
    private let toolChoice: ToolChoice
    private let maxTokens: Int
    private let sampling: SamplingOptions
    private let preferredProviders: [ProviderID]
    private let excludedProviders: Set<ProviderID>
    private let privacy: PrivacyLevel
    private let scope: String?
    /// A 64-bit FNV-1a digest of all the above; used for hashing and shown instead of the text.
    package let digest: UInt64
    /// Estimated bytes of the normalized text this key holds.
    package let textByteCount: Int

    package init(request: GenerationRequest, privacy: PrivacyLevel) {
        var fnv = FNV1a()
        var bytes = 0
        func normalize(_ text: String) -> String {
            let normalized = CacheKey.normalizedWhitespace(text)
            fnv.add(normalized); fnv.add(byte: 0x1F)
            bytes += normalized.utf8.count
            return normalized
        }
        prompt = request.prompt.map(normalize)
        fnv.add(byte: request.prompt == nil ? 0 : 1)
        kind = request.kind
        fnv.add(request.kind.rawValue)
        messages = request.messages.map { message in
            fnv.add(message.role.rawValue)
            var copy = message
            copy.content = normalize(message.content)
            // Tool turns are kept as they are: ids and arguments must match exactly.
            for call in message.toolCalls { fnv.add(call.id); fnv.add(call.name); fnv.add(call.arguments); fnv.add(byte: 0x1E) }
            if let id = message.toolCallID { fnv.add(id); fnv.add(byte: message.isToolError ? 0x1D : 0x1C) }
            return copy
        }
        if let source = request.memory {
            func items(_ list: [MemoryContext.Item]) -> [MemoryContext.Item] {
                list.map { item in
                    fnv.add(item.relevance.bitPattern)
                    return MemoryContext.Item(normalize(item.text), relevance: item.relevance)
                }
            }
            let entities = source.entities.map(normalize)
            memory = MemoryContext(entities: entities, shortTerm: items(source.shortTerm), longTerm: items(source.longTerm),
                                   notes: items(source.notes), containsPersonalData: source.containsPersonalData)
            fnv.add(byte: source.containsPersonalData ? 3 : 2)
        } else {
            memory = nil
        }
        var images = FNV1a()
        for image in request.images {
            images.add(image.mimeType)
            for byte in image.data { images.add(byte: byte) }
            images.add(UInt64(image.data.count))
        }
        imageCount = request.images.count
        imagesDigest = images.value
        fnv.add(images.value); fnv.add(UInt64(imageCount))
        output = request.output
        if case .jsonSchema(let schema) = request.output { fnv.add(schema) }
        tools = request.tools
        toolChoice = request.toolChoice
        for tool in tools { fnv.add(tool.name); fnv.add(byte: 0x1E) }
        fnv.add(request.toolChoice.rawValue)
        maxTokens = request.maxTokens
        fnv.add(UInt64(bitPattern: Int64(maxTokens)))
        sampling = request.sampling
        fnv.add(sampling.temperature.bitPattern)
        fnv.add(UInt64(bitPattern: Int64(sampling.topK ?? -1)))
        fnv.add(sampling.seed ?? 0)
        for stop in sampling.stopSequences { fnv.add(stop) }
        preferredProviders = request.preferredProviders
        for provider in preferredProviders { fnv.add(provider.rawValue) }
        excludedProviders = request.excludedProviders
        fnv.add(UInt64(excludedProviders.count))
        self.privacy = privacy
        fnv.add(UInt64(privacy.rawValue))
        scope = request.cacheScope
        if let scope { fnv.add(byte: 0x1B); fnv.add(scope) }
        digest = fnv.value
        textByteCount = bytes + (output.isStructured ? 64 : 0)
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    package static func == (a: CacheKey, b: CacheKey) -> Bool {
        a.digest == b.digest && a.maxTokens == b.maxTokens && a.privacy == b.privacy && a.imageCount == b.imageCount
            && a.imagesDigest == b.imagesDigest && a.prompt == b.prompt && a.kind == b.kind && a.messages == b.messages
            && a.memory == b.memory && a.output == b.output && a.tools == b.tools && a.toolChoice == b.toolChoice
            && a.sampling == b.sampling
            && a.preferredProviders == b.preferredProviders && a.excludedProviders == b.excludedProviders && a.scope == b.scope
    }

    /// Never shows the request's text.
    package var description: String {
        "CacheKey(\(String(digest, radix: 16)), \(textByteCount) bytes, privacy: \(privacy))"
    }

    /// Trims and collapses runs of ASCII whitespace to one space.
    package static func normalizedWhitespace(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// 64-bit FNV-1a, for cheap digests that never leave the process.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }
    mutating func add(_ text: String) { for byte in text.utf8 { add(byte: byte) } }
    mutating func add(_ number: UInt64) {
        var n = number
        for _ in 0..<8 { add(byte: UInt8(truncatingIfNeeded: n)); n >>= 8 }
    }
}
