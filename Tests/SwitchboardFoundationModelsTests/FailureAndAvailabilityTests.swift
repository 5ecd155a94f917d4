import Testing
import SwitchboardCore
@testable import SwitchboardFoundationModels

@Suite("Foundation Models errors and availability")
struct FailureAndAvailabilityTests {
    static let cases: [(SystemModelFailure, ProviderError, ProviderError.Class)] = [
        (.contextWindowExceeded(contextSize: 4096, tokenCount: 5000), .contextLengthExceeded(limit: 4096, requested: 5000), .fallbackOnly),
        (.contextWindowExceeded(contextSize: nil, tokenCount: nil), .contextLengthExceeded(limit: 2048, requested: 2049), .fallbackOnly),
        (.guardrailViolation, .contentPolicy("the system model's guardrails stopped the request"), .fallbackOnly),
        (.refusal, .contentPolicy("the system model declined to answer"), .fallbackOnly),
        (.rateLimited, .rateLimited(retryAfter: nil), .retryable),
        (.concurrentRequests, .rateLimited(retryAfter: nil), .retryable),
        (.assetsUnavailable, .unavailable("the system model's assets are not on this device"), .fallbackOnly),
        (.unsupportedLanguageOrLocale(language: "fi"), .invalidRequest("the system model does not support the language 'fi'"), .fallbackOnly),
        (.unsupportedLanguageOrLocale(language: nil), .invalidRequest("the system model does not support the language of this request"),
         .fallbackOnly),
        (.decodingFailure, .malformedResponse("the system model's output did not decode into the schema"), .retryable),
        (.unsupportedGuide, .invalidRequest("the system model cannot follow a guide of this schema"), .fallbackOnly),
        (.transcriptMutationWhileResponding, .transport("the session's transcript changed while it answered"), .retryable),
        (.cancelled, .cancelled, .final),
        (.unknown(typeName: "NewError"), .transport("system model error NewError"), .retryable),
    ]

    @Test("Every framework error maps to the typed error the router acts on", arguments: 0..<cases.count)
    func failure(index: Int) {
        let (failure, expected, classification) = Self.cases[index]
        let error = failure.providerError(contextSize: 2048)
        #expect(error == expected)
        #expect(error.classification == classification)
    }

    @Test("Availability: available is ready, not ready is loading, the rest unavailable with a reason a person can act on")
    func availability() {
        #expect(SystemModelAvailability.available.providerAvailability == .ready)
        #expect(SystemModelAvailability.modelNotReady.providerAvailability == .loading(progress: 0))
        #expect(SystemModelAvailability.modelNotReady.providerAvailability.canServe)
        #expect(SystemModelAvailability.deviceNotEligible.providerAvailability == .unavailable(reason: "this device cannot run Apple Intelligence"))
        #expect(SystemModelAvailability.appleIntelligenceNotEnabled.providerAvailability
                == .unavailable(reason: "Apple Intelligence is turned off in Settings"))
        #expect(!SystemModelAvailability.unavailableOther.providerAvailability.canServe)
    }

    @Test("The provider re-reads availability on every call, as the device's state changes")
    func availabilityIsReread() async {
        let model = ScriptedSystemModel(pieces: ["hi"], availability: .modelNotReady)
        let provider = FoundationModelsProvider(id: "fm", model: model)
        #expect(await provider.availability() == .loading(progress: 0))
        let request = ProviderRequest(request: GenerationRequest(prompt: "hi"), analysis: RequestAnalysis(privacy: .public))
        guard case .failure(.unavailable) = await provider.prepare(request) else { Issue.record("served while not ready"); return }
        model.setAvailability(.available)
        #expect(await provider.availability() == .ready)
        guard case .success = await provider.prepare(request) else { Issue.record("refused once ready"); return }
        model.setAvailability(.appleIntelligenceNotEnabled)
        #expect(await provider.availability() == .unavailable(reason: "Apple Intelligence is turned off in Settings"))
    }

    @Test("Capabilities: on device, structured output, tool calling, the OS's context size where it reports one")
    func capabilities() {
        let reported = FoundationModelsProvider(id: "fm", model: ScriptedSystemModel(availability: .available, contextSize: 8192) { _ in .init([]) })
        #expect(reported.capabilities.isOnDevice && reported.capabilities.supportsStructuredOutput && reported.capabilities.supportsToolCalling)
        #expect(reported.capabilities.maxContextTokens == 8192)
        let older = FoundationModelsProvider(id: "fm", model: ScriptedSystemModel(availability: .available, contextSize: nil) { _ in .init([]) })
        #expect(older.capabilities.maxContextTokens == FoundationModelsProvider.documentedContextSize)
    }

    @Test("A language the model does not list is refused before the model runs (not eligible for that language)")
    func unsupportedLanguage() async {
        let model = ScriptedSystemModel(availability: .available, supportedLanguages: ["en", "fr"]) { _ in .init([.snapshot("x")]) }
        let provider = FoundationModelsProvider(id: "fm", model: model)
        var analysis = RequestAnalysis(privacy: .public)
        analysis.language = "fi"
        let refused = await provider.prepare(ProviderRequest(request: GenerationRequest(prompt: "Hei"), analysis: analysis))
        guard case .failure(let error) = refused else { Issue.record("accepted fi"); return }
        #expect(error == .invalidRequest("the system model does not support the language 'fi'"))
        analysis.language = "fr"
        guard case .success = await provider.prepare(ProviderRequest(request: GenerationRequest(prompt: "Salut"), analysis: analysis)) else {
            Issue.record("refused fr"); return
        }
        analysis.language = "und"
        guard case .success = await provider.prepare(ProviderRequest(request: GenerationRequest(prompt: "ok"), analysis: analysis)) else {
            Issue.record("refused an unknown language"); return
        }
    }
}
