/// Typed metadata accessors: each throws `.missingKey` when absent and `.typeMismatch` when the stored
/// value cannot be represented as the requested type.
extension GGUFFile {
    public func value(_ key: String) throws(GGUFError) -> GGUFValue {
        guard let value = metadata[key] else { throw .missingKey(key) }
        return value
    }

    /// `general.architecture`, e.g. "gemma3".
    public var architecture: String {
        get throws(GGUFError) { try string("general.architecture") }
    }

    /// Any integer type, when the value fits in Int.
    public func int(_ key: String) throws(GGUFError) -> Int {
        guard let value = try value(key).intValue else { throw .typeMismatch(key: key, expected: "an integer") }
        return value
    }

    /// Any integer type, when the value fits in UInt32.
    public func uint32(_ key: String) throws(GGUFError) -> UInt32 {
        guard let value = try value(key).intValue, let narrow = UInt32(exactly: value) else {
            throw .typeMismatch(key: key, expected: "an integer in the uint32 range")
        }
        return narrow
    }

    /// float32 or float64 (narrowed).
    public func float(_ key: String) throws(GGUFError) -> Float {
        switch try value(key) {
        case .float32(let v): return v
        case .float64(let v): return Float(v)
        default: throw .typeMismatch(key: key, expected: "a float")
        }
    }

    public func bool(_ key: String) throws(GGUFError) -> Bool {
        guard case .bool(let v) = try value(key) else { throw .typeMismatch(key: key, expected: "a bool") }
        return v
    }

    public func string(_ key: String) throws(GGUFError) -> String {
        guard case .string(let v) = try value(key) else { throw .typeMismatch(key: key, expected: "a string") }
        return v
    }

    public func array(_ key: String) throws(GGUFError) -> GGUFArray {
        guard case .array(let v) = try value(key) else { throw .typeMismatch(key: key, expected: "an array") }
        return v
    }

    public func stringArray(_ key: String) throws(GGUFError) -> [String] {
        guard case .string(let v) = try array(key) else { throw .typeMismatch(key: key, expected: "an array of strings") }
        return v
    }

    /// float32 arrays as stored; float64 arrays narrowed.
    public func floatArray(_ key: String) throws(GGUFError) -> [Float] {
        switch try array(key) {
        case .float32(let v): return v
        case .float64(let v): return v.map { Float($0) }
        default: throw .typeMismatch(key: key, expected: "an array of floats")
        }
    }

    /// int32 arrays as stored; other integer arrays when every element fits in Int32.
    public func int32Array(_ key: String) throws(GGUFError) -> [Int32] {
        let stored = try array(key)
        if case .int32(let v) = stored { return v }
        guard let wide = stored.intValues else { throw .typeMismatch(key: key, expected: "an array of integers") }
        var out: [Int32] = []
        out.reserveCapacity(wide.count)
        for value in wide {
            guard let narrow = Int32(exactly: value) else {
                throw .typeMismatch(key: key, expected: "an array of integers in the int32 range")
            }
            out.append(narrow)
        }
        return out
    }

    /// Optional lookups for keys with defaults.
    public func optionalInt(_ key: String) throws(GGUFError) -> Int? {
        metadata[key] == nil ? nil : try int(key)
    }

    public func optionalFloat(_ key: String) throws(GGUFError) -> Float? {
        metadata[key] == nil ? nil : try float(key)
    }

    public func optionalBool(_ key: String) throws(GGUFError) -> Bool? {
        metadata[key] == nil ? nil : try bool(key)
    }

    public func optionalString(_ key: String) throws(GGUFError) -> String? {
        metadata[key] == nil ? nil : try string(key)
    }
}
