// swift-tools-version: 6.0
import PackageDescription

// Layers, bottom up: SwitchboardCore (values, protocols, policies; no I/O) → Switchboard (the actors)
// → providers (SwitchboardLocal, SwitchboardRemote). SwitchboardInference stands alone: the on-device
// engine, usable without the runtime. SwitchboardTestKit is for tests, ours and users'.
let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Switchboard", targets: ["Switchboard"]),
        .library(name: "SwitchboardCore", targets: ["SwitchboardCore"]),
        .library(name: "SwitchboardInference", targets: ["SwitchboardInference"]),
        .library(name: "SwitchboardLocal", targets: ["SwitchboardLocal"]),
        .library(name: "SwitchboardRemote", targets: ["SwitchboardRemote"]),
        .library(name: "SwitchboardTestKit", targets: ["SwitchboardTestKit"]),
        .library(name: "SwitchboardFoundationModels", targets: ["SwitchboardFoundationModels"]),
        .executable(name: "switchboard", targets: ["SwitchboardCLI"]),
        .executable(name: "switchboard-bench", targets: ["SwitchboardBench"]),
    ],
    targets: [
        .target(name: "SwitchboardCore"),
        // Re-exports SwitchboardCore: `import Switchboard` brings requests, events and errors.
        .target(name: "Switchboard", dependencies: ["SwitchboardCore"]),
        .target(name: "SwitchboardTestKit", dependencies: ["SwitchboardCore"]),
        .target(name: "SwitchboardInference"),
        .target(name: "SwitchboardLocal", dependencies: ["SwitchboardCore", "SwitchboardInference"]),
        .target(name: "SwitchboardRemote", dependencies: ["SwitchboardCore"]),
        // Apple's system model as a provider: plain-Swift mapping everywhere, and a thin shell over the
        // framework in `Shell/`, compiled only where `FoundationModels` exists (Docs/FoundationModels.md).
        .target(name: "SwitchboardFoundationModels", dependencies: ["Switchboard"]),
        // Test support only, never a product: the FoundationModels declarations the shell uses, copied
        // from Apple's documentation, compiled only where the real framework is absent.
        .target(name: "FoundationModelsStandIn", path: "Tests/Support/FoundationModelsStandIn"),
        // `switchboard`: what a user runs (ask, chat, analyze, models).
        .executableTarget(name: "SwitchboardCLI", dependencies: ["Switchboard", "SwitchboardLocal", "SwitchboardRemote"]),
        .executableTarget(
            name: "SwitchboardBench",
            dependencies: ["Switchboard", "SwitchboardTestKit", "SwitchboardInference", "SwitchboardLocal", "SwitchboardRemote"],
            path: "Benchmarks/SwitchboardBench"
        ),
        .testTarget(name: "SwitchboardCoreTests", dependencies: ["SwitchboardCore"]),
        .testTarget(name: "SwitchboardTests", dependencies: ["Switchboard", "SwitchboardTestKit"]),
        .testTarget(name: "SwitchboardInferenceTests", dependencies: ["SwitchboardInference"]),
        .testTarget(name: "SwitchboardLocalTests", dependencies: ["Switchboard", "SwitchboardLocal", "SwitchboardTestKit"]),
        .testTarget(name: "SwitchboardRemoteTests", dependencies: ["Switchboard", "SwitchboardRemote", "SwitchboardTestKit"]),
        .testTarget(name: "SwitchboardFoundationModelsTests",
                    dependencies: ["Switchboard", "SwitchboardFoundationModels", "SwitchboardTestKit"]),
        // Compiles the shipped shell (`Sources/SwitchboardFoundationModels/Shell`, linked here) against the
        // stand-in, so Linux CI type-checks it; on Apple platforms the same files build against the SDK.
        .testTarget(name: "SwitchboardFoundationModelsShellTests",
                    dependencies: ["Switchboard", "SwitchboardFoundationModels", "SwitchboardTestKit", "FoundationModelsStandIn"],
                    swiftSettings: [.define("FOUNDATION_MODELS_STAND_IN")]),
        // The bench's argument parsing and a small chaos run, through `@testable import` of the executable target.
        .testTarget(name: "SwitchboardBenchTests", dependencies: ["SwitchboardBench", "SwitchboardTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)
