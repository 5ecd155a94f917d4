/// How a byte-level BPE vocabulary cuts text into words before merging, chosen by the GGUF key
/// `tokenizer.ggml.pre`. Each entry is llama.cpp's list of regexes for that name, run in turn (each
/// one splits the pieces the previous one produced), implemented as hand-written scanners over
/// Unicode scalars as in llama.cpp's `unicode.cpp`, not with a regex engine.
struct PreTokenizer: Sendable, Equatable {
    enum Split: Sendable, Equatable {
        /// `\p{N}`: every number character alone, the text between kept whole.
        case eachNumber
        /// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
        case gpt2
        /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,maxDigits}|
        /// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+` (Llama 3 with 3, Qwen2 with 1).
        case llama3(maxDigits: Int)
    }

    let name: String
    let splits: [Split]
    /// A word that is already a vocabulary piece is taken whole, without merging (llama.cpp's
    /// `ignore_merges`, set for Llama 3).
    let ignoresMerges: Bool
    /// Whether BOS is added when the file has no `tokenizer.ggml.add_bos_token`.
    let addsBOSByDefault: Bool

    private struct Entry {
        var names: [String]
        var splits: [Split]
        var ignoresMerges = false
        var addsBOSByDefault = false
    }

    /// llama.cpp's pre-tokenizer names grouped by the regex list they select.
    private static let table: [Entry] = [
        Entry(names: ["smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b"],
              splits: [.eachNumber, .gpt2]),
        Entry(names: ["gpt-2", "phi-2", "mpt", "olmo", "jais"], splits: [.gpt2]),
        Entry(names: ["llama3", "llama-v3", "llama-bpe", "falcon3"], splits: [.llama3(maxDigits: 3)],
              ignoresMerges: true, addsBOSByDefault: true),
        Entry(names: ["dbrx", "smaug-bpe"], splits: [.llama3(maxDigits: 3)]),
        Entry(names: ["qwen2", "deepseek-r1-qwen", "megrez", "stablelm2"], splits: [.llama3(maxDigits: 1)]),
    ]

    static var supportedNames: [String] { table.flatMap(\.names) }

    /// The pre-tokenizer llama.cpp runs for `name`; anything else is refused rather than guessed.
    init(named name: String) throws(TokenizerError) {
        guard let entry = Self.table.first(where: { $0.names.contains(name) }) else {
            throw .unknownPreTokenizer(name)
        }
        self.name = name
        splits = entry.splits
        ignoresMerges = entry.ignoresMerges
        addsBOSByDefault = entry.addsBOSByDefault
    }
}
