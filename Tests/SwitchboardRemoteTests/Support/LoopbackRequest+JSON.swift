import Foundation
import SwitchboardRemote
import SwitchboardTestKit

extension LoopbackRequest {
    /// The body as JSON, nil when it is not JSON.
    var json: JSONValue? { try? JSONValue.decode(body) }
}
