import Synchronization
import SwitchboardCore
@testable import SwitchboardFoundationModels

/// A system model that answers from a script: the snapshots (and usage) to stream, then an optional
/// error; its availability can change between calls, as a device's does. Records every call.
final class ScriptedSystemModel: SystemModel {
    struct Answer: Sendable {
        var events: [SystemModelEvent]
        var error: (any Error)?
        init(_ events: [SystemModelEvent], then error: (any Error)? = nil) { self.events = events; self.error = error }
    }

    let contextSize: Int?
    let supportedLanguages: Set<String>?
    private let state: Mutex<SystemModelAvailability>
    private let script: @Sendable (SystemModelRequest) -> Answer
    private let recorded = Mutex<[SystemModelRequest]>([])

    init(availability: SystemModelAvailability = .available, contextSize: Int? = 4096, supportedLanguages: Set<String>? = nil,
         script: @escaping @Sendable (SystemModelRequest) -> Answer) {
        state = Mutex(availability); self.contextSize = contextSize; self.supportedLanguages = supportedLanguages
        self.script = script
    }

    /// Text answered as cumulative snapshots of these pieces.
    convenience init(pieces: [String], availability: SystemModelAvailability = .available) {
        self.init(availability: availability) { _ in
            var text = ""
            return Answer(pieces.map { text += $0; return .snapshot(text) })
        }
    }

    var calls: [SystemModelRequest] { recorded.withLock { $0 } }
    func setAvailability(_ availability: SystemModelAvailability) { state.withLock { $0 = availability } }
    func availability() async -> SystemModelAvailability { state.withLock { $0 } }

    func stream(_ request: SystemModelRequest) -> AsyncThrowingStream<SystemModelEvent, any Error> {
        recorded.withLock { $0.append(request) }
        let answer = script(request)
        return AsyncThrowingStream { continuation in
            for event in answer.events { continuation.yield(event) }
            continuation.finish(throwing: answer.error)
        }
    }
}
