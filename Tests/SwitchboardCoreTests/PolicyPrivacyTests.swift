import Testing
@testable import SwitchboardCore

@Suite("Privacy policy")
struct PolicyPrivacyTests {
    @Test("Sensitive never leaves the device, even when personal data may")
    func sensitiveStaysLocal() {
        for allow in [false, true] {
            let policy = PrivacyPolicy(allowPersonalRemote: allow)
            #expect(!policy.mayDispatch(.sensitive, onDevice: false))
            #expect(policy.mayDispatch(.sensitive, onDevice: true))
        }
    }

    @Test("Personal goes remote only when the app allows it")
    func personalNeedsPermission() {
        #expect(!PrivacyPolicy().mayDispatch(.personal, onDevice: false))
        #expect(PrivacyPolicy(allowPersonalRemote: true).mayDispatch(.personal, onDevice: false))
    }

    @Test("Public and contextual may go anywhere", arguments: [PrivacyLevel.public, .contextual])
    func publicGoesAnywhere(level: PrivacyLevel) {
        #expect(PrivacyPolicy().mayDispatch(level, onDevice: false))
        #expect(PrivacyPolicy().mayDispatch(level, onDevice: true))
    }
}
