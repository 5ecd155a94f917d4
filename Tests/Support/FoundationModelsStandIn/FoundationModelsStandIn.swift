// A source-only stand-in for exactly the FoundationModels declarations that
// `Sources/SwitchboardFoundationModels/Shell` uses, so Linux CI type-checks the shell. Test support:
// no product ships it, and where the real framework exists every line here is compiled out.
//
// Each declaration is copied from Apple's published documentation (linked above it): the names,
// labels, defaults and types the shell relies on. Bodies are not Apple's: they hold what they are given
// (so shell tests can read back what the shell built) or do nothing. Declarations the shell does not
// use are left out, so a shell change that needs one fails to compile here first.
#if !canImport(FoundationModels)
import Foundation

// MARK: - SystemLanguageModel

/// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel
public final class SystemLanguageModel: Sendable {
    /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/default
    public static let `default` = SystemLanguageModel()

    /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.property
    public let availability: Availability
    /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/contextsize
    public let contextSize: Int
    /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/supportedlanguages
    public let supportedLanguages: Set<Locale.Language>

    /// Not Apple's: lets shell tests state what the device reports.
    public init(availability: Availability = .unavailable(.deviceNotEligible), contextSize: Int = 4096,
                supportedLanguages: Set<Locale.Language> = []) {
        self.availability = availability; self.contextSize = contextSize; self.supportedLanguages = supportedLanguages
    }

    /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum
    public enum Availability: Sendable, Equatable {
        /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum/available
        case available
        /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum/unavailable(_:)
        case unavailable(UnavailableReason)

        /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum/unavailablereason
        public enum UnavailableReason: Sendable, Equatable {
            /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum/unavailablereason/devicenoteligible
            case deviceNotEligible
            /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum/unavailablereason/appleintelligencenotenabled
            case appleIntelligenceNotEnabled
            /// https://developer.apple.com/documentation/foundationmodels/systemlanguagemodel/availability-swift.enum/unavailablereason/modelnotready
            case modelNotReady
        }
    }
}

// MARK: - Session

/// https://developer.apple.com/documentation/foundationmodels/languagemodelsession
public final class LanguageModelSession: @unchecked Sendable {
    /// Not Apple's: what the session was made with, for shell tests.
    public let tools: [any Tool]
    public let instructions: Instructions?
    public let transcript: Transcript?

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/init(model:tools:instructions:)
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [],
                            @InstructionsBuilder instructions: () throws -> Instructions) rethrows {
        self.init(tools: tools, instructions: try instructions(), transcript: nil)
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/init(model:tools:transcript:)
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
        self.init(tools: tools, instructions: nil, transcript: transcript)
    }

    init(tools: [any Tool], instructions: Instructions?, transcript: Transcript?) {
        self.tools = tools; self.instructions = instructions; self.transcript = transcript
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/streamresponse(to:options:)
    public final func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions())
        -> sending LanguageModelSession.ResponseStream<String> {
        ResponseStream(snapshots: [])
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/streamresponse(to:schema:includeschemainprompt:options:)
    public final func streamResponse(to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
                                     options: GenerationOptions = GenerationOptions())
        -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        ResponseStream(snapshots: [])
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/responsestream
    public struct ResponseStream<Content: Generable>: AsyncSequence {
        public typealias Element = Snapshot
        let snapshots: [Snapshot]

        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/responsestream/snapshot
        public struct Snapshot {
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/responsestream/snapshot/content
            public var content: Content.PartiallyGenerated
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/responsestream/snapshot/rawcontent
            public var rawContent: GeneratedContent
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var rest: ArraySlice<Snapshot>
            public mutating func next() async throws -> Snapshot? { rest.popFirst() }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: snapshots[...]) }
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror
    public enum GenerationError: Error, LocalizedError {
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/exceededcontextwindowsize(_:)
        case exceededContextWindowSize(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/assetsunavailable(_:)
        case assetsUnavailable(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/guardrailviolation(_:)
        case guardrailViolation(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/unsupportedguide(_:)
        case unsupportedGuide(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/unsupportedlanguageorlocale(_:)
        case unsupportedLanguageOrLocale(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/decodingfailure(_:)
        case decodingFailure(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/ratelimited(_:)
        case rateLimited(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/concurrentrequests(_:)
        case concurrentRequests(Context)
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/refusal(_:_:)
        case refusal(Refusal, Context)

        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/context
        public struct Context: Sendable {
            public let debugDescription: String
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/generationerror/refusal
        public struct Refusal: Sendable {
            public init() {}
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/toolcallerror
    public struct ToolCallError: Error, @unchecked Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/toolcallerror/tool
        public var tool: any Tool
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/toolcallerror/underlyingerror
        public var underlyingError: any Error
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelsession/toolcallerror/init(tool:underlyingerror:)
        public init(tool: any Tool, underlyingError: any Error) { self.tool = tool; self.underlyingError = underlyingError }
    }
}

// MARK: - Transcript

/// https://developer.apple.com/documentation/foundationmodels/transcript
public struct Transcript: Sendable {
    /// Not Apple's storage: the entries given.
    public let entries: [Entry]
    /// https://developer.apple.com/documentation/foundationmodels/transcript/init(entries:)
    public init(entries: some Sequence<Transcript.Entry> = []) { self.entries = Array(entries) }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/entry
    public enum Entry: Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/transcript/entry/instructions(_:)
        case instructions(Transcript.Instructions)
        /// https://developer.apple.com/documentation/foundationmodels/transcript/entry/prompt(_:)
        case prompt(Transcript.Prompt)
        /// https://developer.apple.com/documentation/foundationmodels/transcript/entry/toolcalls(_:)
        case toolCalls(Transcript.ToolCalls)
        /// https://developer.apple.com/documentation/foundationmodels/transcript/entry/tooloutput(_:)
        case toolOutput(Transcript.ToolOutput)
        /// https://developer.apple.com/documentation/foundationmodels/transcript/entry/response(_:)
        case response(Transcript.Response)
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/segment
    public enum Segment: Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/transcript/segment/text(_:)
        case text(Transcript.TextSegment)
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/textsegment
    public struct TextSegment: Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/transcript/textsegment/content
        public var content: String
        /// https://developer.apple.com/documentation/foundationmodels/transcript/textsegment/init(id:content:)
        public init(id: String = UUID().uuidString, content: String) { self.content = content }
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/instructions
    public struct Instructions: Sendable {
        public var segments: [Transcript.Segment]
        public var toolDefinitions: [Transcript.ToolDefinition]
        /// https://developer.apple.com/documentation/foundationmodels/transcript/instructions/init(id:segments:tooldefinitions:)
        /// (that page was not retrieved; the signature follows the type's documented properties and
        /// the other entries' initializers)
        public init(id: String = UUID().uuidString, segments: [Transcript.Segment], toolDefinitions: [Transcript.ToolDefinition]) {
            self.segments = segments; self.toolDefinitions = toolDefinitions
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/responseformat
    public struct ResponseFormat: Sendable {}

    /// https://developer.apple.com/documentation/foundationmodels/transcript/prompt
    public struct Prompt: Sendable {
        public var segments: [Transcript.Segment]
        /// https://developer.apple.com/documentation/foundationmodels/transcript/prompt/init(id:segments:options:responseformat:)
        public init(id: String = UUID().uuidString, segments: [Transcript.Segment], options: GenerationOptions = GenerationOptions(),
                    responseFormat: Transcript.ResponseFormat? = nil) {
            self.segments = segments
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/response
    public struct Response: Sendable {
        public var segments: [Transcript.Segment]
        /// https://developer.apple.com/documentation/foundationmodels/transcript/response/init(id:assetids:segments:)
        public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Transcript.Segment]) { self.segments = segments }
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/toolcall
    public struct ToolCall: Sendable {
        public var id: String
        public var toolName: String
        public var arguments: GeneratedContent
        /// https://developer.apple.com/documentation/foundationmodels/transcript/toolcall/init(id:toolname:arguments:)
        public init(id: String, toolName: String, arguments: GeneratedContent) {
            self.id = id; self.toolName = toolName; self.arguments = arguments
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/toolcalls
    public struct ToolCalls: Sendable, Sequence {
        /// Not Apple's storage (the real type is a random-access collection of its calls).
        public let calls: [Transcript.ToolCall]
        public func makeIterator() -> IndexingIterator<[Transcript.ToolCall]> { calls.makeIterator() }
        /// https://developer.apple.com/documentation/foundationmodels/transcript/toolcalls/init(id:_:)
        public init<S>(id: String = UUID().uuidString, _ calls: S) where S: Sequence, S.Element == Transcript.ToolCall {
            self.calls = Array(calls)
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/tooloutput
    public struct ToolOutput: Sendable {
        public var id: String
        public var toolName: String
        public var segments: [Transcript.Segment]
        /// https://developer.apple.com/documentation/foundationmodels/transcript/tooloutput/init(id:toolname:segments:)
        public init(id: String, toolName: String, segments: [Transcript.Segment]) {
            self.id = id; self.toolName = toolName; self.segments = segments
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/transcript/tooldefinition
    public struct ToolDefinition: Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/transcript/tooldefinition/name
        public var name: String
        /// https://developer.apple.com/documentation/foundationmodels/transcript/tooldefinition/description
        public var description: String
        /// https://developer.apple.com/documentation/foundationmodels/transcript/tooldefinition/parameters
        public var parameters: GenerationSchema
        /// https://developer.apple.com/documentation/foundationmodels/transcript/tooldefinition/init(tool:)
        public init(tool: some Tool) { name = tool.name; description = tool.description; parameters = tool.parameters }
        /// https://developer.apple.com/documentation/foundationmodels/transcript/tooldefinition/init(name:description:parameters:)
        public init(name: String, description: String, parameters: GenerationSchema) {
            self.name = name; self.description = description; self.parameters = parameters
        }
    }
}

// MARK: - Prompts and instructions

/// https://developer.apple.com/documentation/foundationmodels/promptrepresentable
public protocol PromptRepresentable {}
/// https://developer.apple.com/documentation/foundationmodels/instructionsrepresentable
public protocol InstructionsRepresentable {}
extension String: PromptRepresentable, InstructionsRepresentable {}

/// https://developer.apple.com/documentation/foundationmodels/prompt
public struct Prompt: Sendable {
    /// Not Apple's: the text, for shell tests.
    public let text: String
    /// https://developer.apple.com/documentation/foundationmodels/prompt/init(_:)
    public init(@PromptBuilder _ content: () throws -> Prompt) rethrows { self = try content() }
    init(text: String) { self.text = text }
}

/// https://developer.apple.com/documentation/foundationmodels/promptbuilder
@resultBuilder public struct PromptBuilder {
    public static func buildExpression(_ expression: String) -> String { expression }
    public static func buildBlock(_ components: String...) -> Prompt { Prompt(text: components.joined(separator: "\n")) }
}

/// https://developer.apple.com/documentation/foundationmodels/instructions
public struct Instructions: Sendable {
    /// Not Apple's: the text, for shell tests.
    public let text: String
}

/// https://developer.apple.com/documentation/foundationmodels/instructionsbuilder
@resultBuilder public struct InstructionsBuilder {
    public static func buildExpression(_ expression: String) -> String { expression }
    public static func buildBlock(_ components: String...) -> Instructions { Instructions(text: components.joined(separator: "\n")) }
}

/// https://developer.apple.com/documentation/foundationmodels/generationoptions
public struct GenerationOptions: Sendable, Equatable {
    /// https://developer.apple.com/documentation/foundationmodels/generationoptions/samplingmode
    public struct SamplingMode: Sendable, Equatable {}
    /// https://developer.apple.com/documentation/foundationmodels/generationoptions/temperature
    public var temperature: Double?
    /// https://developer.apple.com/documentation/foundationmodels/generationoptions/maximumresponsetokens
    public var maximumResponseTokens: Int?
    /// https://developer.apple.com/documentation/foundationmodels/generationoptions/init(sampling:temperature:maximumresponsetokens:)
    public init(sampling: GenerationOptions.SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.temperature = temperature; self.maximumResponseTokens = maximumResponseTokens
    }
}

// MARK: - Generated content

/// https://developer.apple.com/documentation/foundationmodels/generatedcontent
public struct GeneratedContent: Sendable, Equatable {
    /// https://developer.apple.com/documentation/foundationmodels/generatedcontent/jsonstring
    public var jsonString: String
    /// https://developer.apple.com/documentation/foundationmodels/generatedcontent/init(json:)
    /// (the body checks the text is JSON, as the framework does, so the shell's fallback is testable)
    public init(json: String) throws {
        _ = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        jsonString = json
    }
}

/// https://developer.apple.com/documentation/foundationmodels/convertiblefromgeneratedcontent
public protocol ConvertibleFromGeneratedContent {}

/// https://developer.apple.com/documentation/foundationmodels/generable
public protocol Generable: ConvertibleFromGeneratedContent {
    /// https://developer.apple.com/documentation/foundationmodels/generable/partiallygenerated
    associatedtype PartiallyGenerated = Self
}

extension String: Generable {}
extension Int: Generable {}
extension Double: Generable {}
extension Bool: Generable {}
extension GeneratedContent: Generable {}

// MARK: - Schemas

/// https://developer.apple.com/documentation/foundationmodels/generationschema
public struct GenerationSchema: Sendable, Encodable {
    /// Not Apple's: what it was made of, for shell tests; it encodes as this JSON text.
    public var encodedJSON = #"{"type":"object","properties":{}}"#
    public func encode(to encoder: any Encoder) throws {
        let object = try JSONSerialization.jsonObject(with: Data(encodedJSON.utf8))
        var container = encoder.singleValueContainer()
        try container.encode(JSONText(object))
    }
    private struct JSONText: Encodable {
        let object: Any
        init(_ object: Any) { self.object = object }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch object {
            case let dictionary as [String: Any]:
                try container.encode(dictionary.mapValues(JSONText.init))
            case let array as [Any]: try container.encode(array.map(JSONText.init))
            case let string as String: try container.encode(string)
            case let number as NSNumber: try container.encode(number.doubleValue)
            default: try container.encodeNil()
            }
        }
    }
    public let root: DynamicGenerationSchema
    public let dependencies: [DynamicGenerationSchema]
    /// https://developer.apple.com/documentation/foundationmodels/generationschema/init(root:dependencies:)
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
        self.root = root; self.dependencies = dependencies
    }
}

/// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema
public struct DynamicGenerationSchema: Sendable {
    /// Not Apple's: the initializer used and its arguments, for shell tests.
    public indirect enum Made: Sendable {
        case object(name: String, description: String?, properties: [Property])
        case anyOf(name: String, description: String?, choices: [DynamicGenerationSchema])
        case stringChoices(name: String, description: String?, choices: [String])
        case array(of: DynamicGenerationSchema, minimumElements: Int?, maximumElements: Int?)
        case type(String, guides: [String])
        case reference(String)
    }
    public let made: Made

    /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/init(name:description:properties:)
    public init(name: String, description: String? = nil, properties: [DynamicGenerationSchema.Property]) {
        made = .object(name: name, description: description, properties: properties)
    }
    /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/init(name:description:anyof:)
    public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
        made = .anyOf(name: name, description: description, choices: choices)
    }
    /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/init(name:description:anyof:)
    /// (the overload of string choices)
    public init(name: String, description: String? = nil, anyOf choices: [String]) {
        made = .stringChoices(name: name, description: description, choices: choices)
    }
    /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/init(arrayof:minimumelements:maximumelements:)
    public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
        made = .array(of: itemSchema, minimumElements: minimumElements, maximumElements: maximumElements)
    }
    /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/init(type:guides:)
    public init<Value>(type: Value.Type, guides: [GenerationGuide<Value>] = []) where Value: Generable {
        made = .type(String(describing: type), guides: guides.map(\.summary))
    }
    /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/init(referenceto:)
    public init(referenceTo name: String) { made = .reference(name) }

    /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/property
    public struct Property: Sendable {
        public let name: String
        public let description: String?
        public let schema: DynamicGenerationSchema
        public let isOptional: Bool
        /// https://developer.apple.com/documentation/foundationmodels/dynamicgenerationschema/property/init(name:description:schema:isoptional:)
        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {
            self.name = name; self.description = description; self.schema = schema; self.isOptional = isOptional
        }
    }
}

/// https://developer.apple.com/documentation/foundationmodels/generationguide
public struct GenerationGuide<Value>: Sendable {
    /// Not Apple's: the guide, for shell tests.
    public let summary: String
}

extension GenerationGuide where Value == Int {
    /// https://developer.apple.com/documentation/foundationmodels/generationguide/minimum(_:)
    public static func minimum(_ value: Int) -> GenerationGuide<Int> { GenerationGuide(summary: "minimum \(value)") }
    /// https://developer.apple.com/documentation/foundationmodels/generationguide/maximum(_:)
    public static func maximum(_ value: Int) -> GenerationGuide<Int> { GenerationGuide(summary: "maximum \(value)") }
}

extension GenerationGuide where Value == Double {
    /// https://developer.apple.com/documentation/foundationmodels/generationguide/minimum(_:)
    public static func minimum(_ value: Double) -> GenerationGuide<Double> { GenerationGuide(summary: "minimum \(value)") }
    /// https://developer.apple.com/documentation/foundationmodels/generationguide/maximum(_:)
    public static func maximum(_ value: Double) -> GenerationGuide<Double> { GenerationGuide(summary: "maximum \(value)") }
}

extension GenerationGuide where Value == String {
    /// https://developer.apple.com/documentation/foundationmodels/generationguide/pattern(_:)
    public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> { GenerationGuide(summary: "pattern") }
}

// MARK: - Tools

/// https://developer.apple.com/documentation/foundationmodels/tool
public protocol Tool<Arguments, Output>: Sendable {
    /// https://developer.apple.com/documentation/foundationmodels/tool/arguments
    associatedtype Arguments: ConvertibleFromGeneratedContent
    /// https://developer.apple.com/documentation/foundationmodels/tool/output
    associatedtype Output: PromptRepresentable
    /// https://developer.apple.com/documentation/foundationmodels/tool/name
    var name: String { get }
    /// https://developer.apple.com/documentation/foundationmodels/tool/description
    var description: String { get }
    /// https://developer.apple.com/documentation/foundationmodels/tool/parameters
    var parameters: GenerationSchema { get }
    /// https://developer.apple.com/documentation/foundationmodels/tool/call(arguments:)
    func call(arguments: Arguments) async throws -> Output
}

extension GeneratedContent: ConvertibleFromGeneratedContent {}

// MARK: - OS 27: models and executors

/// https://developer.apple.com/documentation/foundationmodels/languagemodelcapabilities
public struct LanguageModelCapabilities: Sendable {
    /// Not Apple's storage: the capabilities given.
    public let declared: [Capability]
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelcapabilities (its overview's `init(_:)`)
    public init(_ capabilities: [Capability]) { declared = capabilities }
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelcapabilities/capability
    public struct Capability: Sendable, Hashable {
        let name: String
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelcapabilities/capability/toolcalling
        public static var toolCalling: Capability { Capability(name: "toolCalling") }
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelcapabilities/capability/guidedgeneration
        public static var guidedGeneration: Capability { Capability(name: "guidedGeneration") }
    }
    public func contains(_ capability: Capability) -> Bool { declared.contains(capability) }
}

/// https://developer.apple.com/documentation/foundationmodels/languagemodel
public protocol LanguageModel: Sendable {
    /// https://developer.apple.com/documentation/foundationmodels/languagemodel/executor
    associatedtype Executor: LanguageModelExecutor where Self == Self.Executor.Model
    /// https://developer.apple.com/documentation/foundationmodels/languagemodel/executorconfiguration
    var executorConfiguration: Self.Executor.Configuration { get }
    /// https://developer.apple.com/documentation/foundationmodels/languagemodel/capabilities
    var capabilities: LanguageModelCapabilities { get }
}

/// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutor
public protocol LanguageModelExecutor: Sendable {
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutor/model
    associatedtype Model: LanguageModel
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutor/configuration
    associatedtype Configuration: Hashable, Sendable
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutor/init(configuration:)
    init(configuration: Self.Configuration) throws
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutor/respond(to:model:streaminginto:)
    func respond(to request: LanguageModelExecutorGenerationRequest, model: Self.Model,
                 streamingInto channel: LanguageModelExecutorGenerationChannel) async throws
}

/// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationrequest
public struct LanguageModelExecutorGenerationRequest: Sendable {
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationrequest/transcript
    public var transcript: Transcript
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationrequest/enabledtools
    public var enabledTools: [Transcript.ToolDefinition]
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationrequest/schema
    public var schema: GenerationSchema?
    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationrequest/generationoptions
    public var generationOptions: GenerationOptions
    /// Not Apple's initializer (the documented one also takes an id, context options and metadata).
    public init(transcript: Transcript, enabledTools: [Transcript.ToolDefinition], schema: GenerationSchema? = nil,
                generationOptions: GenerationOptions) {
        self.transcript = transcript; self.enabledTools = enabledTools; self.schema = schema; self.generationOptions = generationOptions
    }
}

/// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel
public struct LanguageModelExecutorGenerationChannel: Sendable {
    /// Not Apple's: where sent events go, for shell tests.
    let sink: @Sendable (Event) -> Void
    public init(sink: @escaping @Sendable (Event) -> Void) { self.sink = sink }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/send(_:)
    public func send(_ event: Event) async { sink(event) }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/event
    public struct Event: Sendable {
        /// Not Apple's: what the event carries, for shell tests.
        public enum Made: Sendable { case response(entryID: String?, Response.Action), toolCalls(entryID: String?, ToolCalls.Action) }
        public let made: Made
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/event/response(entryid:action:)
        public static func response(entryID: String? = nil, action: Response.Action) -> Event { Event(made: .response(entryID: entryID, action)) }
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/event/toolcalls(entryid:action:)
        public static func toolCalls(entryID: String? = nil, action: ToolCalls.Action) -> Event { Event(made: .toolCalls(entryID: entryID, action)) }
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/response
    public struct Response: Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/response/action-swift.struct
        public enum Action: Sendable {
            case appendTextMade(String, tokenCount: Int)
            case updateUsageMade(input: Usage.Input, output: Usage.Output)
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/response/action-swift.struct/appendtext(_:segmentid:tokencount:)
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                .appendTextMade(text, tokenCount: tokenCount)
            }
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/response/action-swift.struct/updateusage(input:output:metadata:)
            public static func updateUsage(input: Usage.Input, output: Usage.Output) -> Action { .updateUsageMade(input: input, output: output) }
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/toolcalls
    public struct ToolCalls: Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/toolcalls/action-swift.struct
        public enum Action: Sendable {
            case toolCallMade(id: String, name: String, action: ToolCall.Action)
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/toolcalls/action-swift.struct/toolcall(id:name:action:)
            public static func toolCall(id: String, name: String, action: ToolCall.Action) -> Action {
                .toolCallMade(id: id, name: name, action: action)
            }
        }
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/toolcalls/toolcall
        public struct ToolCall: Sendable {
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/toolcalls/toolcall/action
            public enum Action: Sendable {
                case appendArgumentsMade(String, tokenCount: Int)
                /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/toolcalls/toolcall/action/appendarguments(_:tokencount:)
                public static func appendArguments(_ content: String, tokenCount: Int) -> Action {
                    .appendArgumentsMade(content, tokenCount: tokenCount)
                }
            }
        }
    }

    /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/usage
    public struct Usage: Sendable {
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/usage/input-swift.struct
        public struct Input: Sendable, Equatable {
            public var totalTokenCount: Int
            public var cachedTokenCount: Int
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/usage/input-swift.struct/init(totaltokencount:cachedtokencount:)
            public init(totalTokenCount: Int, cachedTokenCount: Int) {
                self.totalTokenCount = totalTokenCount; self.cachedTokenCount = cachedTokenCount
            }
        }
        /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/usage/output-swift.struct
        public struct Output: Sendable, Equatable {
            public var totalTokenCount: Int
            public var reasoningTokenCount: Int
            /// https://developer.apple.com/documentation/foundationmodels/languagemodelexecutorgenerationchannel/usage/output-swift.struct/init(totaltokencount:reasoningtokencount:)
            public init(totalTokenCount: Int, reasoningTokenCount: Int) {
                self.totalTokenCount = totalTokenCount; self.reasoningTokenCount = reasoningTokenCount
            }
        }
    }
}
#endif
