/// A loaded model: immutable weights over the memory-mapped GGUF file, its tokenizer and
/// hyperparameters, behind the family that runs it (`TransformerFamily`). Share one instance
/// between any number of `InferenceSession`s.
public final class LanguageModel: Sendable {
    public let architecture: ModelArchitecture
    public let tokenizer: Tokenizer
    let file: GGUFFile
    let family: any TransformerFamily
    /// The chat template of this model's file (nil: a completion-only model).
    public let chatTemplate: ChatTemplate?
    /// Ids of the tokens that end a turn or the text: the tokenizer's end-of-generation tokens and
    /// the chat template's end-of-turn pieces.
    public let stopTokenIDs: Set<Int32>

    /// Longest sequence (prompt + generated tokens) the model was trained for.
    public var contextLength: Int { architecture.contextLength }
    /// Rows of the output matrix (= logits per position).
    public var vocabularySize: Int { architecture.vocabularySize }


    /// Positions whose RoPE cos/sin are tabulated at load; later positions are computed on the fly.
    static let tabulatedPositions = 4096

    private init(file: GGUFFile, progress: (Double) -> Void) throws(InferenceError) {
        let name: String
        do { name = try file.architecture } catch { throw .gguf(error) }
        let type = try TransformerFamilies.family(named: name)
        let a = try ModelArchitecture(file: file, arch: name, defaults: type.defaults)
        progress(0.15)
        family = try type.init(file: file, architecture: a) { progress(0.15 + 0.7 * $0) }
        do { tokenizer = try Tokenizer(gguf: file) } catch { throw .tokenizer(error.description) }
        guard tokenizer.vocabularySize <= a.vocabularySize else {
            throw .tokenizer("\(tokenizer.vocabularySize) tokens but only \(a.vocabularySize) embedding rows")
        }
        architecture = a
        self.file = file
        let template = ChatTemplate.detect(source: try? file.optionalString("tokenizer.chat_template") ?? nil, architecture: name)
        chatTemplate = template
        var stops = tokenizer.endOfGenerationIDs
        for piece in template?.endOfTurnPieces ?? [] { if let id = tokenizer.id(of: piece) { stops.insert(id) } }
        stopTokenIDs = stops
        progress(1)
    }

    /// Maps and validates the GGUF model at `path`. `progress` receives fractions in 0...1 as the
    /// header is parsed, tensors are validated and tables are built.
    public static func load(from path: String, progress: (@Sendable (Double) -> Void)? = nil) throws(InferenceError) -> LanguageModel {
        progress?(0)
        let file: GGUFFile
        do { file = try GGUFFile(contentsOf: path) } catch { throw .gguf(error) }
        progress?(0.1)
        return try LanguageModel(file: file) { progress?($0) }
    }
}
