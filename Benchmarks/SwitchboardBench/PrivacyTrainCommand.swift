import Foundation
import Switchboard
import SwitchboardLocal
import SwitchboardTestKit

/// `privacy-train`: trains the on-device privacy classifier's head and measures it.
///
/// Reads `label<TAB>text` lines (`private` or `public`), embeds them with the on-device encoder, holds out
/// every fifth text (by a hash of its text, so the split never changes), and fits a logistic regression on
/// the rest (class-balanced, L2, full-batch Adam). The threshold is chosen on out-of-fold scores (five
/// models, each scoring the fifth of the training split it did not see): the lowest, at least 0.5, that
/// flags at most 3 % of those public texts, since training scores are overfit. A public request kept home
/// needlessly costs quality; the recognizers stay the guarantee. Held-out data never chooses anything. Prints the held-out figures,
/// and with `--eval FILE` (a labelled corpus in `Tests/Fixtures/privacy` format) what the classifier adds
/// to the recognizers there. `--out FILE` writes the head as Swift (`PrivacyHead+Trained.swift`).
enum PrivacyTrainCommand: BenchCommand {
    static let name = "privacy-train"
    static let summary = "train and measure the on-device privacy classifier's head (logistic regression on MiniLM embeddings)"
    static let options: [BenchOption]? = [.text("model"), .text("data"), .text("out"), .text("eval"), .flag("json"),
                                          .integer("epochs", 1...100_000), .number("l2", 0...10)]

    struct Example { var text: String; var label: Double; var vector: [Float] = [] }

    static func run(_ arguments: Arguments) async -> Int32 {
        let dataPath = arguments.string("data") ?? "Benchmarks/Data/privacy-train.tsv"
        guard let data = try? String(contentsOfFile: dataPath, encoding: .utf8) else { printError("cannot read \(dataPath)"); return 66 }
        var examples: [Example] = data.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let tab = line.firstIndex(of: "\t") else { return nil }
            let label = line[..<tab]
            guard label == "private" || label == "public" else { return nil }
            return Example(text: String(line[line.index(after: tab)...]), label: label == "private" ? 1 : 0)
        }
        let embedder: OnDeviceEmbedder
        do { embedder = try OnDeviceEmbedder(directory: arguments.string("model")) } catch {
            printError("cannot load the encoder: \(error) (run Scripts/fetch-model.sh minilm)"); return 66
        }
        do {
            let vectors = try await embedder.embed(examples.map(\.text))
            for index in examples.indices { examples[index].vector = vectors[index] }
        } catch { printError("embedding failed: \(error)"); return 1 }
        let heldOut = examples.filter { isHeldOut($0.text) }
        let training = examples.filter { !isHeldOut($0.text) }
        let epochs = arguments.int("epochs") ?? 600
        let lambda = arguments.double("l2") ?? 0.1
        var head = fit(training, epochs: epochs, lambda: lambda, modelID: embedder.modelID)
        var outOfFold: [(score: Double, label: Double)] = []
        for fold in 0..<5 {
            let part = training.enumerated().filter { $0.offset % 5 != fold }.map(\.element)
            let foldHead = fit(part, epochs: epochs, lambda: lambda, modelID: embedder.modelID)
            for (offset, example) in training.enumerated() where offset % 5 == fold {
                outOfFold.append((foldHead.score(example.vector), example.label))
            }
        }
        head.threshold = threshold(outOfFold, maxFalsePositiveRate: 0.03)
        let oofPrivate = outOfFold.filter { $0.label == 1 }
        let oofRecall = Double(oofPrivate.filter { $0.score >= head.threshold }.count) / Double(max(1, oofPrivate.count))

        let trainFigures = figures(head, training)
        let heldFigures = figures(head, heldOut)
        var report: [String: Any] = [
            "examples": examples.count, "training": training.count, "held_out": heldOut.count, "threshold": head.threshold,
            "out_of_fold_private_recall": oofRecall, "l2": lambda,
            "training_private_recall": trainFigures.recall, "training_public_false_positive_rate": trainFigures.falsePositiveRate,
            "held_out_private_recall": heldFigures.recall, "held_out_public_false_positive_rate": heldFigures.falsePositiveRate,
            "held_out_private": heldFigures.positives, "held_out_public": heldFigures.negatives,
        ]
        if let eval = arguments.string("eval") {
            for path in eval.split(separator: ",").map(String.init) {
                guard let added = await added(head, embedder: embedder, corpus: path) else { printError("cannot read \(path)"); return 66 }
                report["eval \((path as NSString).lastPathComponent)"] = added
            }
        }
        report["latency_100_tokens_p50_ms"] = await latency(head, embedder: embedder)
        let json = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        print(String(decoding: json, as: UTF8.self))
        if let out = arguments.string("out") {
            do { try source(head).write(toFile: out, atomically: true, encoding: .utf8) } catch {
                printError("cannot write \(out): \(error)"); return 1
            }
        }
        return 0
    }

    /// Every fifth text by an FNV-1a hash of its bytes.
    static func isHeldOut(_ text: String) -> Bool {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash % 5 == 0
    }

    /// Logistic regression by full-batch Adam: class-balanced, L2-regularized.
    static func fit(_ examples: [Example], epochs: Int, lambda: Double, modelID: String) -> PrivacyHead {
        let d = examples.first?.vector.count ?? 0
        var w = [Double](repeating: 0, count: d), b = 0.0
        var mw = w, vw = w, mb = 0.0, vb = 0.0
        let positives = Double(examples.filter { $0.label == 1 }.count), negatives = Double(examples.count) - positives
        let weightPositive = Double(examples.count) / (2 * max(1, positives)), weightNegative = Double(examples.count) / (2 * max(1, negatives))
        let rate = 0.05, beta1 = 0.9, beta2 = 0.999
        for epoch in 1...max(1, epochs) {
            var gw = [Double](repeating: 0, count: d), gb = 0.0
            for example in examples {
                var z = b
                for i in 0..<d { z += w[i] * Double(example.vector[i]) }
                let p = 1 / (1 + exp(-z))
                let g = (p - example.label) * (example.label == 1 ? weightPositive : weightNegative)
                for i in 0..<d { gw[i] += g * Double(example.vector[i]) }
                gb += g
            }
            let n = Double(examples.count)
            let c1 = 1 - pow(beta1, Double(epoch)), c2 = 1 - pow(beta2, Double(epoch))
            for i in 0..<d {
                let g = gw[i] / n + lambda * w[i]
                mw[i] = beta1 * mw[i] + (1 - beta1) * g
                vw[i] = beta2 * vw[i] + (1 - beta2) * g * g
                w[i] -= rate * (mw[i] / c1) / ((vw[i] / c2).squareRoot() + 1e-8)
            }
            let g = gb / n
            mb = beta1 * mb + (1 - beta1) * g
            vb = beta2 * vb + (1 - beta2) * g * g
            b -= rate * (mb / c1) / ((vb / c2).squareRoot() + 1e-8)
        }
        return PrivacyHead(weights: w.map { Float($0) }, bias: Float(b), threshold: 0.5, modelID: modelID)
    }

    /// The lowest threshold, at least 0.5, that flags at most `maxFalsePositiveRate` of the public scores.
    static func threshold(_ scored: [(score: Double, label: Double)], maxFalsePositiveRate: Double) -> Double {
        let scores = scored.filter { $0.label == 0 }.map(\.score).sorted(by: >)
        guard !scores.isEmpty else { return 0.5 }
        let allowed = Int(maxFalsePositiveRate * Double(scores.count))
        return max(0.5, scores[min(scores.count - 1, allowed)].nextUp)
    }

    static func figures(_ head: PrivacyHead, _ examples: [Example]) -> (recall: Double, falsePositiveRate: Double, positives: Int, negatives: Int) {
        let positives = examples.filter { $0.label == 1 }, negatives = examples.filter { $0.label == 0 }
        let caught = positives.filter { head.score($0.vector) >= head.threshold }.count
        let flagged = negatives.filter { head.score($0.vector) >= head.threshold }.count
        return (Double(caught) / Double(max(1, positives.count)), Double(flagged) / Double(max(1, negatives.count)),
                positives.count, negatives.count)
    }

    /// On a labelled corpus: of the lines the recognizers let off the device, how many sensitive/personal
    /// ones the classifier keeps home, and how many public ones it keeps home needlessly.
    static func added(_ head: PrivacyHead, embedder: OnDeviceEmbedder, corpus path: String) async -> [String: Int]? {
        guard let corpus = try? PrivacyCorpus(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        let analyzer = ContentAnalyzer()
        let classifier = EmbeddingPrivacyClassifier(embedder: embedder, head: head)
        var result = ["private_missed_by_recognizers": 0, "private_caught_by_classifier": 0,
                      "public_lines": 0, "public_kept_home_by_classifier": 0]
        for line in corpus.lines {
            let level = (try? analyzer.analyze(GenerationRequest(prompt: line.text)).privacy) ?? .sensitive
            guard level <= .contextual else { continue }
            let score = (try? await classifier.scores([line.text]).first) ?? 1
            if line.label == .public {
                result["public_lines", default: 0] += 1
                if score >= head.threshold { result["public_kept_home_by_classifier", default: 0] += 1 }
            } else if line.label == .sensitive || line.label == .personal {
                result["private_missed_by_recognizers", default: 0] += 1
                if score >= head.threshold { result["private_caught_by_classifier", default: 0] += 1 }
            }
        }
        return result
    }

    /// The classifier's time for one 100-token prompt (median of 41 runs after a warm-up).
    static func latency(_ head: PrivacyHead, embedder: OnDeviceEmbedder) async -> Double {
        let classifier = EmbeddingPrivacyClassifier(embedder: embedder, head: head)
        var words: [String] = []
        let vocabulary = "the meeting notes from yesterday mention budget changes travel plans and a new office schedule for next quarter"
            .split(separator: " ").map(String.init)
        while await embedder.tokenCount(words.joined(separator: " ")) < 100 { words.append(vocabulary[words.count % vocabulary.count]) }
        let prompt = words.joined(separator: " ")
        _ = try? await classifier.scores([prompt])
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<41 {
            let start = clock.now
            _ = try? await classifier.scores([prompt])
            let elapsed = clock.now - start
            times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return times.sorted()[times.count / 2]
    }

    static func source(_ head: PrivacyHead) -> String {
        var lines = ["// Written by `switchboard-bench privacy-train` (Scripts/train-privacy-classifier.sh); do not edit by hand.",
                     "// Logistic regression over \(head.modelID) sentence embeddings, trained on Benchmarks/Data/privacy-train.tsv.",
                     "extension PrivacyHead {",
                     "    public static let trained = PrivacyHead(",
                     "        weights: ["]
        var row: [String] = []
        for weight in head.weights {
            row.append(String(format: "%.6f", weight))
            if row.count == 10 { lines.append("            " + row.joined(separator: ", ") + ","); row = [] }
        }
        if !row.isEmpty { lines.append("            " + row.joined(separator: ", ") + ",") }
        lines.append("        ],")
        lines.append("        bias: \(String(format: "%.6f", head.bias)), threshold: \(String(format: "%.4f", head.threshold)), modelID: \"\(head.modelID)\")")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
