/// One national identity, tax, health-insurance, device or vehicle numbering scheme, as data: its shape,
/// its check-digit rule and the words that make a match more or less likely. `IdentityNumberRecognizer`
/// scores every candidate against the table (see `Docs/Privacy.md`, "Recognizers and normalization"):
///
///     score = check (none 0, weak 1, strong 2) + structure (0–2) + written in the canonical format (1)
///           + context (the scheme's own words 3, generic identity words 1) − unrelated words (3)
///
/// and reports it at 3 or more. A number that fails its check is never that scheme, whatever the context.
struct IdentityScheme: Sendable {
    enum Check: Int, Sendable { case none = 0, weak = 1, strong = 2 }

    /// Short stable name ("it-cf"), shown in `analyze` reasons.
    let id: String
    let kind: EntityKind
    /// Compact lengths (characters without separators) this scheme accepts.
    let lengths: [Int]
    /// Per position: '9' digit, 'A' capital letter, '*' digit or capital; one pattern per length, or
    /// empty to leave the shape to `validate`.
    let patterns: [String]
    let check: Check
    /// Points for structure beyond the check: an embedded date, fixed letters, a prefix range.
    let structure: Int
    /// Canonical written forms: '#' a character, anything else a separator at that place.
    let formats: [String]
    /// Words (hashed like the scanner's) and, for unspaced scripts, substrings that name this scheme.
    let context: [String]
    /// Schemes with no check digit (or a shape many numbers share) need their own words nearby.
    let requiresContext: Bool
    /// The full rule (shape details and check digit) on the compact form: ASCII digits and capitals.
    let validate: @Sendable ([UInt8]) -> Bool

    init(_ id: String, _ kind: EntityKind = .nationalID, lengths: [Int], patterns: [String] = [], check: Check,
         structure: Int = 0, formats: [String] = [], context: String, requiresContext: Bool = false,
         validate: @escaping @Sendable ([UInt8]) -> Bool) {
        self.id = id; self.kind = kind; self.lengths = lengths; self.patterns = patterns; self.check = check
        self.structure = structure; self.formats = formats
        self.context = context.split(separator: " ").map(String.init)
        self.requiresContext = requiresContext; self.validate = validate
    }

    /// Whether `compact` has the shape of one of `patterns` (or there are none).
    func matchesPattern(_ compact: [UInt8]) -> Bool {
        guard !patterns.isEmpty else { return true }
        outer: for pattern in patterns {
            let p = Array(pattern.utf8)
            guard p.count == compact.count else { continue }
            for (k, c) in p.enumerated() {
                let b = compact[k]
                switch c {
                case 0x39: if !ByteClass.isDigit(b) { continue outer }
                case 0x41: if !ByteClass.isUpper(b) { continue outer }
                default: if !ByteClass.isDigit(b) && !ByteClass.isUpper(b) { continue outer }
                }
            }
            return true
        }
        return false
    }

    /// Whether the original (normalized) characters follow a canonical format: same length, separators
    /// at the same places (any separator matches any separator).
    func isCanonical(_ written: ArraySlice<UInt8>) -> Bool {
        formats.contains { format in
            let f = Array(format.utf8)
            guard f.count == written.count else { return false }
            for (k, b) in written.enumerated() where (f[k] == 0x23) != ByteClass.isASCIIAlphanumeric(b) { return false }
            return true
        }
    }
}
