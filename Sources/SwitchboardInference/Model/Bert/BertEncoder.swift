import Foundation

/// A sentence encoder (all-MiniLM-L6-v2 and other BERT sentence-transformers with mean pooling):
/// texts in, L2-normalized vectors out, on `threads` kernel threads.
///
/// Not thread-safe: one encoder runs one batch at a time (an app wraps it in an actor). Batches are
/// cut into groups of at most `tokensPerPass` tokens so activations stay bounded (15 MB for
/// MiniLM) whatever the number of texts.
public final class BertEncoder {
    public let tokenizer: WordPieceTokenizer
    /// Longest input in ids, `[CLS]` and `[SEP]` included (256 for all-MiniLM-L6-v2).
    public let maxSequenceLength: Int
    public var dimension: Int { model.h.hidden }
    let model: Bert
    private let pool: WorkerPool
    private let scratch: BertScratch
    static let tokensPerPass = 1_024

    /// A model folder as `Scripts/fetch-model.sh minilm` stores it: `model.safetensors`,
    /// `tokenizer.json` and `config.json`.
    public convenience init(directory: String, threads: Int = 2, maxSequenceLength: Int = 256) throws(BertError) {
        func read(_ name: String) throws(BertError) -> Data {
            let path = (directory as NSString).appendingPathComponent(name)
            do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw .cannotRead(path: path, reason: (error as NSError).localizedDescription)
            }
        }
        let h = try BertHyperparameters(configJSON: try read("config.json"))
        let tokenizer: WordPieceTokenizer
        do { tokenizer = try WordPieceTokenizer(tokenizerJSON: try read("tokenizer.json")) } catch let error as BertError {
            throw error
        } catch let error as TokenizerError { throw .tokenizer(error) } catch { throw .unsupportedConfiguration("\(error)") }
        let file: SafetensorsFile
        do { file = try SafetensorsFile(contentsOf: (directory as NSString).appendingPathComponent("model.safetensors")) } catch {
            throw .safetensors(error)
        }
        try self.init(model: try Bert(h, weights: SafetensorsBertWeights(file)), tokenizer: tokenizer, threads: threads,
                      maxSequenceLength: maxSequenceLength)
    }

    /// A llama.cpp `bert` GGUF (weights, hyperparameters and vocabulary in one file).
    public convenience init(gguf path: String, threads: Int = 2, maxSequenceLength: Int = 256) throws(BertError) {
        let file: GGUFFile
        do { file = try GGUFFile(contentsOf: path) } catch { throw .gguf(error) }
        try self.init(gguf: file, threads: threads, maxSequenceLength: maxSequenceLength)
    }

    public convenience init(gguf file: GGUFFile, threads: Int = 2, maxSequenceLength: Int = 256) throws(BertError) {
        let h = try BertHyperparameters(gguf: file)
        let tokenizer: WordPieceTokenizer
        do { tokenizer = try WordPieceTokenizer(gguf: file) } catch { throw .tokenizer(error) }
        try self.init(model: try Bert(h, weights: GGUFBertWeights(file: file)), tokenizer: tokenizer, threads: threads,
                      maxSequenceLength: maxSequenceLength)
    }

    init(model: Bert, tokenizer: WordPieceTokenizer, threads: Int, maxSequenceLength: Int) throws(BertError) {
        guard tokenizer.vocabularySize <= model.vocabularySize else {
            throw .unsupportedConfiguration("the tokenizer has \(tokenizer.vocabularySize) tokens, the embeddings \(model.vocabularySize)")
        }
        self.model = model
        self.tokenizer = tokenizer
        self.maxSequenceLength = max(2, min(maxSequenceLength, model.h.positions))
        pool = WorkerPool(threads: max(1, min(threads, 64)))
        scratch = BertScratch(capacity: Self.tokensPerPass, hyperparameters: model.h, maxSentence: self.maxSequenceLength,
                              threads: pool.threads)
    }

    /// One vector per text, in order.
    public func embed(_ texts: [String]) -> [[Float]] {
        // Tokenized ids are in the vocabulary and within the length limit by construction.
        (try? embed(ids: texts.map { tokenizer.encode($0, maxLength: maxSequenceLength) })) ?? []
    }

    /// One vector per id sequence (each truncated to `maxSequenceLength`; an empty one embeds as
    /// `[CLS] [SEP]`).
    public func embed(ids sequences: [[Int32]]) throws(BertError) -> [[Float]] {
        for ids in sequences { for id in ids where id < 0 || Int(id) >= model.vocabularySize { throw .invalidToken(id) } }
        let sequences = sequences.map { $0.isEmpty ? [tokenizer.cls, tokenizer.sep] : Array($0.prefix(maxSequenceLength)) }
        var out: [[Float]] = []
        out.reserveCapacity(sequences.count)
        var start = 0
        let d = dimension
        var vectors = [Float](repeating: 0, count: d * max(1, min(sequences.count, Self.tokensPerPass / 2)))
        while start < sequences.count {
            var ranges: [Range<Int>] = []
            var used = 0
            var end = start
            while end < sequences.count, used + sequences[end].count <= scratch.capacity, ranges.count * d < vectors.count {
                for (i, id) in sequences[end].enumerated() { scratch.tokens[used + i] = id }
                ranges.append(used..<(used + sequences[end].count))
                used += sequences[end].count
                end += 1
            }
            vectors.withUnsafeMutableBufferPointer { buffer in
                if let base = buffer.baseAddress { model.encode(scratch, sentences: ranges, into: base, pool: pool) }
            }
            for i in 0..<ranges.count { out.append(Array(vectors[(i * d)..<((i + 1) * d)])) }
            start = end
        }
        return out
    }
}
