import Foundation
import Switchboard
import SwitchboardLocal
import SwitchboardTestKit

/// `semantic-cache`: the semantic cache on labeled prompt pairs (`Tests/Fixtures/semantic-cache/pairs.tsv`),
/// with the on-device encoder. For each threshold: right hits (paraphrases served) and wrong hits (a
/// negation, number, name or topic change served), with and without the guard. The default threshold is
/// chosen on the even pairs (highest right-hit rate with no wrong hit) and reported on the odd ones too.
/// Then the index's lookup time with `--entries` (10,000) entries in one scope.
enum SemanticCacheCommand: BenchCommand {
    static let name = "semantic-cache"
    static let summary = "the semantic cache's right and wrong hits on labeled prompt pairs, and its lookup time"
    static let options: [BenchOption]? = [.text("model"), .text("pairs"), .integer("entries", 1...1_000_000)]

    struct Pair { var label: String; var a: String; var b: String; var similarity: Float = 0; var refused = false }

    static func run(_ arguments: Arguments) async -> Int32 {
        let path = arguments.string("pairs") ?? "Tests/Fixtures/semantic-cache/pairs.tsv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { printError("cannot read \(path)"); return 66 }
        var pairs: [Pair] = text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            return line.hasPrefix("#") || fields.count != 3 ? nil : Pair(label: fields[0], a: fields[1], b: fields[2])
        }
        let embedder: OnDeviceEmbedder
        do { embedder = try OnDeviceEmbedder(directory: arguments.string("model")) } catch {
            printError("cannot load the encoder: \(error)"); return 66
        }
        let clock = ContinuousClock()
        let start = clock.now
        guard let first = try? await embedder.embed(pairs.map(\.a)), let second = try? await embedder.embed(pairs.map(\.b)) else {
            printError("embedding failed"); return 1
        }
        let embedSeconds = (clock.now - start).seconds
        for index in pairs.indices {
            pairs[index].similarity = zip(first[index], second[index]).reduce(0) { $0 + $1.0 * $1.1 }
            pairs[index].refused = SemanticGuard.refusal(cached: pairs[index].a, candidate: pairs[index].b) != nil
        }
        func rates(_ subset: [Pair], _ threshold: Float, guarded: Bool) -> (right: Double, wrong: Double) {
            let hits = subset.filter { $0.label == "hit" }, misses = subset.filter { $0.label != "hit" }
            let served = { (pair: Pair) in pair.similarity >= threshold && !(guarded && pair.refused) }
            return (Double(hits.filter(served).count) / Double(max(1, hits.count)),
                    Double(misses.filter(served).count) / Double(max(1, misses.count)))
        }
        let even = pairs.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let odd = pairs.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        var chosen: Float = 0.95
        for step in stride(from: 95, through: 70, by: -1) {
            let threshold = Float(step) / 100
            if rates(even, threshold, guarded: true).wrong <= 0 { chosen = threshold } else { break }
        }
        var table: [[String: Any]] = []
        for step in stride(from: 70, through: 95, by: 5) {
            let threshold = Float(step) / 100
            let guarded = rates(pairs, threshold, guarded: true), bare = rates(pairs, threshold, guarded: false)
            table.append(["threshold": threshold, "right_hits": guarded.right, "wrong_hits": guarded.wrong,
                          "wrong_hits_without_guard": bare.wrong])
        }
        let all = rates(pairs, chosen, guarded: true), heldOut = rates(odd, chosen, guarded: true)

        // Lookup time: `entries` stored answers in one scope, then lookups of vectors near stored ones.
        let entries = arguments.int("entries") ?? 10_000
        var index = SemanticIndex(dimension: embedder.dimension)
        var random = SeededRandom(seed: 7)
        let scope = SemanticCacheScope(request: GenerationRequest(prompt: "x"))
        var stored: [[Float]] = []
        for number in 0..<entries {
            var vector = (0..<embedder.dimension).map { _ in Float(Int(random.next() % 2001) - 1000) / 1000 }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            vector = vector.map { $0 / norm }
            if number < 200 { stored.append(vector) }
            index.store(vector, entry: .init(scope: scope, prompt: "prompt \(number)",
                                             response: GenerationResponse(text: "answer", providerID: "bench"), privacy: .public,
                                             expiresAt: .seconds(3600)), maxEntries: entries)
        }
        var times: [Double] = []
        for (number, vector) in stored.enumerated() {
            let begin = clock.now
            _ = index.lookup(vector, prompt: "prompt \(number)", scope: scope, privacy: .public, threshold: chosen, now: .zero)
            times.append((clock.now - begin).seconds * 1000)
        }
        times.sort()
        let report: [String: Any] = [
            "pairs": pairs.count, "paraphrase_pairs": pairs.filter { $0.label == "hit" }.count,
            "threshold_chosen_on_even_pairs": chosen, "right_hits": all.right, "wrong_hits": all.wrong,
            "odd_pairs_right_hits": heldOut.right, "odd_pairs_wrong_hits": heldOut.wrong, "by_threshold": table,
            "lookup_entries": entries, "lookup_p50_ms": times[times.count / 2], "lookup_p99_ms": times[times.count * 99 / 100],
            "embedding_ms_per_prompt": embedSeconds * 1000 / Double(2 * pairs.count),
        ]
        let json = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        print(String(decoding: json, as: UTF8.self))
        return 0
    }
}
