import Testing
@testable import SwitchboardCore

/// `GenerationRequest` shares one immutable box of fields between copies: it must still behave as a
/// plain value.
@Suite("GenerationRequest: a value over a shared box")
struct GenerationRequestStorageTests {
    func sample() -> GenerationRequest {
        var request = GenerationRequest(prompt: "Hi", messages: [ChatMessage(.user, "Earlier")], maxTokens: 32,
                                        preferredProviders: ["a"], excludedProviders: ["b"])
        request.hedge = true
        request.tools = [ToolDefinition(name: "lookup", description: "Looks up", parameters: .object([]))]
        return request
    }

    @Test("Changing a copy leaves the original as it was, field by field")
    func copiesAreIndependent() {
        let original = sample()
        var copy = original
        copy.prompt = "Changed"
        copy.messages.append(ChatMessage(.assistant, "Reply"))
        copy.maxTokens = 7
        copy.answerPrefix = "So"
        copy.privacyFloor = .sensitive
        copy.excludedProviders.insert("c")
        copy.tools.removeAll()
        #expect(original.prompt == "Hi")
        #expect(original.messages.count == 1)
        #expect(original.maxTokens == 32)
        #expect(original.answerPrefix == nil)
        #expect(original.privacyFloor == nil)
        #expect(original.excludedProviders == ["b"])
        #expect(original.tools.count == 1)
        #expect(copy.prompt == "Changed" && copy.messages.count == 2 && copy.maxTokens == 7)
        #expect(copy.answerPrefix == "So" && copy.privacyFloor == .sensitive && copy.excludedProviders == ["b", "c"])
        #expect(copy != original)
    }

    @Test("Equal fields are equal and hash alike, whichever box holds them")
    func equalityIsByFields() {
        let a = sample(), b = sample()
        #expect(a.storage !== b.storage)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var c = b
        c.hedge = false
        #expect(c != a)
        c.hedge = true
        #expect(c == a)
    }

    @Test("A request with the only hold on its box appends to its messages in place")
    func uniqueAppendsInPlace() {
        var request = GenerationRequest(prompt: "x")
        request.messages.reserveCapacity(64)
        request.messages.append(ChatMessage(.user, "one"))
        let buffer = request.messages.withUnsafeBufferPointer { $0.baseAddress }
        for i in 0..<32 { request.messages.append(ChatMessage(.user, "\(i)")) }
        #expect(request.messages.withUnsafeBufferPointer { $0.baseAddress } == buffer, "no copy of the array per append")
        #expect(request.messages.count == 33)
    }
}
