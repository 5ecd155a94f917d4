import Foundation

/// The llama.cpp CPU build whose float order the engine reproduces bit for bit. llama.cpp compiles
/// for the host's instruction set, and a few of its vector routines round differently by build:
/// the exp polynomial behind softmax and SiLU (`ggml_v_expf`: j·2ⁿ with `vscalefps` on AVX-512,
/// k + k·j on AVX2), the lane count of the softmax sums (16 or 8), and the f16 dot products of
/// attention (`ggml_vec_dot_f16` and tinyBLAS: 16- or 8-lane accumulators, reduced differently).
/// The quantized matrix products are the same in both builds. `host` follows the machine, so the
/// engine matches the llama.cpp that runs beside it; either can be asked for (tests check the AVX2
/// order on an AVX-512 machine against llama.cpp outputs made on an AVX2 one).
public enum ReferenceBuild: String, Sendable, CaseIterable {
    /// x86-64 with AVX-512F and AVX-512DQ.
    case avx512
    /// x86-64 with AVX2, FMA and F16C, no AVX-512 (also the closer of the two on other CPUs).
    case avx2

    public static let host: ReferenceBuild = detect()

    private static func detect() -> ReferenceBuild {
        #if arch(x86_64) && os(Linux)
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
        else { return .avx2 }
        let flags = Set(line.split(separator: " ").map(String.init))
        return flags.contains("avx512f") && flags.contains("avx512dq") ? .avx512 : .avx2
        #else
        return .avx2
        #endif
    }
}
