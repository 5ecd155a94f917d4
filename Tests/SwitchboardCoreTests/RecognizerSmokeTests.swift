import Testing
@testable import SwitchboardCore

@Suite struct RecognizerSmokeTests {
    @Test func scanWords() {
        let scan = TextScan("hello world")
        #expect(scan.words.count == 2)
    }
    @Test func numbers() { _ = NumberRecognizer.findings(in: "hello 4111 1111 1111 1111") }
    @Test func iban() { _ = IBANRecognizer.findings(in: "hello DE89 3704 0044 0532 0130 00") }
    @Test func secrets() { _ = SecretRecognizer.findings(in: "hello my password is x") }
    @Test func identity() { _ = IdentityRecognizer.findings(in: "hello") }
    @Test func health() { _ = HealthRecognizer.findings(in: "hello") }
    @Test func email() { _ = EmailRecognizer.findings(in: "hello") }
    @Test func personal() { _ = PersonalRecognizer.findings(in: "hello") }
}
@Suite struct AnalyzerSmokeTests {
    @Test func analyze() throws {
        let a = ContentAnalyzer()
        _ = try a.analyze(GenerationRequest(prompt: "hello"))
    }
}
