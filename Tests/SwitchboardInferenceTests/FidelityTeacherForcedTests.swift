import Testing
@testable import SwitchboardInference

/// Teacher-forced top-1 and last-prompt top-5 against llama.cpp on the same model file.
@Suite(.requiresModel, .serialized) struct FidelityTeacherForcedTests {
    @Test func teacherForcedTop1AgreesWithLlamaCpp() throws {
        let model = try fidelityModel.get()
        let golden = try GreedyGolden.load()
        let session = InferenceSession(model: model, contextLength: 256)
        var agree = 0, total = 0
        for c in golden.cases {
            let ids = c.prompt_ids + c.greedy_ids
            let score = try session.scoreAll(ids)
            let expected = c.teacher_forced_top1
            for i in 0..<min(expected.count, score.top1.count) {
                total += 1
                if score.top1[i] == expected[i] { agree += 1 }
            }
        }
        let rate = Double(agree) / Double(max(total, 1))
        print("fidelity: teacher-forced top-1 agreement \(agree)/\(total) = \(rate)")
        #expect(total > 500)
        #expect(rate >= 0.98, "agreement \(agree)/\(total)")
    }

    @Test func lastPromptTop5MatchesLlamaCpp() throws {
        let model = try fidelityModel.get()
        let golden = try GreedyGolden.load()
        let session = InferenceSession(model: model, contextLength: 256)
        var worst: Double = 0
        for c in golden.cases {
            session.reset()
            let logits = try session.prefill(c.prompt_ids)
            let top = LogitMath.top(5, logits)
            let expectedIDs = c.last_prompt_top5.map { Int32($0[0]) }
            #expect(top.map(\.id) == expectedIDs, "prompt \(c.prompt)")
            print("fidelity: top5 \(top.map(\.logit)) vs \(c.last_prompt_top5.map { $0[1] })")
            for (mine, theirs) in zip(top, c.last_prompt_top5) {
                worst = max(worst, abs(Double(mine.logit) - theirs[1]))
            }
        }
        print("fidelity: last-prompt top-5 max logit difference \(worst)")
        #expect(worst <= 0.25)
    }
}
