import Foundation

/// A JSON Schema (draft 2020-12) document compiled for validation, with its own semantics: a keyword
/// constrains only the values of its type (`{"maxLength": 2}` accepts the number 5), `true` and
/// `false` are schemas, `oneOf` means exactly one, and local `$ref`s (JSON pointers, also into
/// `definitions`) are followed, recursion included. Subschemas are compiled once each, by pointer;
/// a reference cycle is an index cycle, and validation bounds its depth (a typed error, not a hang).
///
/// Keywords that constrain but are not implemented (`if`, `contains`, `patternProperties`, …) are
/// refused when the schema is imported, naming where; unknown keywords are ignored, as the
/// specification says.
package final class JSONSchemaValidator: Sendable {
    struct Node: Sendable {
        var always: Bool?
        var types: Set<String>?
        var enumValues: [GeneratedContent]?
        var constant: GeneratedContent?
        var properties: [(name: String, node: Int)] = []
        var additional: Int?
        var patternProperties: [(pattern: SchemaRegex, node: Int)] = []
        var propertyNames: Int?
        var dependentRequired: [(name: String, needs: [String])] = []
        var dependentSchemas: [(name: String, node: Int)] = []
        var required: [String] = []
        var minProperties = 0, maxProperties: Int?
        var prefixItems: [Int] = []
        var items: Int?
        var minItems = 0, maxItems: Int?
        var uniqueItems = false
        var minLength = 0, maxLength: Int?
        var pattern: SchemaRegex?
        var format: SchemaFormat?
        var minimum: JSONDecimal?, maximum: JSONDecimal?, exclusiveMinimum: JSONDecimal?, exclusiveMaximum: JSONDecimal?
        var multipleOf: JSONDecimal?
        var allOf: [Int] = [], anyOf: [Int] = [], oneOf: [Int] = []
        var not: Int?
        var ref: Int?
    }

    let document: GeneratedContent
    let nodes: [Node]

    static let refused: Set<String> = ["if", "then", "else", "contains", "minContains", "maxContains", "dependencies",
                                       "unevaluatedItems", "unevaluatedProperties", "additionalItems", "$dynamicRef", "$recursiveRef"]
    /// Validation nests at most this deep (schema levels, references included).
    static let maxDepth = 256

    package init(document: GeneratedContent) throws(StructuredOutputError) {
        self.document = document
        var compiler = Compiler(document: document)
        _ = try compiler.compile(value: document, pointer: "#")
        nodes = compiler.nodes.map { $0 ?? Node() }
    }

    /// A validator for `schema`, a part of `document` (or a merge of parts) whose references point
    /// into `document`.
    package init(schema: GeneratedContent, in document: GeneratedContent) throws(StructuredOutputError) {
        self.document = document
        var compiler = Compiler(document: document)
        _ = try compiler.compile(value: schema, pointer: "#~part")
        nodes = compiler.nodes.map { $0 ?? Node() }
    }

    /// Validates `instance` against the document's root.
    package func validate(_ instance: GeneratedContent, path: String = "$") throws(StructuredOutputError) {
        try validate(instance, node: 0, path: path, depth: 0)
    }

    package func isValid(_ instance: GeneratedContent) -> Bool { (try? validate(instance)) != nil }

    private func validate(_ value: GeneratedContent, node index: Int, path: String, depth: Int) throws(StructuredOutputError) {
        func fail(_ reason: String) -> StructuredOutputError { .schemaMismatch(path: path, reason: reason) }
        guard depth < Self.maxDepth else { throw fail("the schema nests deeper than \(Self.maxDepth) levels here (a reference cycle?)") }
        let node = nodes[index]
        if let always = node.always {
            if always { return }
            throw fail("the schema allows no value here")
        }
        if let ref = node.ref { try validate(value, node: ref, path: path, depth: depth + 1) }
        if let types = node.types, !types.contains(where: { Self.has(type: $0, value) }) {
            throw fail("expected \(types.sorted().joined(separator: " or ")), found \(value.typeName)")
        }
        if let constant = node.constant, !constant.jsonEquals(value) { throw fail("must be \(constant.jsonText)") }
        if let values = node.enumValues, !values.contains(where: { $0.jsonEquals(value) }) {
            throw fail("\(String(value.jsonText.prefix(80))) is not one of the \(values.count) allowed values")
        }
        switch value {
        case .string(let text): try checkString(text, node, fail)
        case .number(let text): try checkNumber(text, node, fail)
        case .array(let items):
            if items.count < node.minItems { throw fail("\(items.count) items, fewer than \(node.minItems)") }
            if let max = node.maxItems, items.count > max { throw fail("\(items.count) items, more than \(max)") }
            for (i, item) in items.enumerated() {
                let child = i < node.prefixItems.count ? node.prefixItems[i] : node.items
                if let child { try validate(item, node: child, path: "\(path)[\(i)]", depth: depth + 1) }
            }
            if node.uniqueItems {
                for i in items.indices { for j in items.indices where j > i && items[i].jsonEquals(items[j]) {
                    throw fail("items \(i) and \(j) are equal (uniqueItems)")
                } }
            }
        case .object(let members):
            if members.count < node.minProperties { throw fail("\(members.count) properties, fewer than \(node.minProperties)") }
            if let max = node.maxProperties, members.count > max { throw fail("\(members.count) properties, more than \(max)") }
            for name in node.required where !members.contains(where: { $0.key == name }) {
                throw fail("the required property '\(name)' is missing")
            }
            for (name, needs) in node.dependentRequired where members.contains(where: { $0.key == name }) {
                if let missing = needs.first(where: { need in !members.contains { $0.key == need } }) {
                    throw fail("'\(missing)' is required when '\(name)' is present")
                }
            }
            for (name, schema) in node.dependentSchemas where members.contains(where: { $0.key == name }) {
                try validate(value, node: schema, path: path, depth: depth + 1)
            }
            for member in members {
                let childPath = path + "." + member.key
                if let names = node.propertyNames { try validate(.string(member.key), node: names, path: childPath, depth: depth + 1) }
                var matched = false
                if let property = node.properties.first(where: { $0.name == member.key }) {
                    try validate(member.value, node: property.node, path: childPath, depth: depth + 1)
                    matched = true
                }
                for (pattern, schema) in node.patternProperties where pattern.matches(member.key) {
                    try validate(member.value, node: schema, path: childPath, depth: depth + 1)
                    matched = true
                }
                if matched { continue }
                if let additional = node.additional {
                    if nodes[additional].always == false { throw fail("'\(member.key)' is not a property of the schema") }
                    try validate(member.value, node: additional, path: childPath, depth: depth + 1)
                }
            }
        default: break
        }
        for child in node.allOf { try validate(value, node: child, path: path, depth: depth + 1) }
        if !node.anyOf.isEmpty, !node.anyOf.contains(where: { matches(value, $0, path, depth) }) {
            throw fail("matches none of the \(node.anyOf.count) allowed shapes")
        }
        if !node.oneOf.isEmpty {
            let count = node.oneOf.count(where: { matches(value, $0, path, depth) })
            if count != 1 { throw fail(count == 0 ? "matches none of the \(node.oneOf.count) shapes of oneOf" : "matches \(count) shapes of oneOf, not exactly one") }
        }
        if let not = node.not, matches(value, not, path, depth) { throw fail("matches the schema it must not match") }
    }

    private func matches(_ value: GeneratedContent, _ node: Int, _ path: String, _ depth: Int) -> Bool {
        do { try validate(value, node: node, path: path, depth: depth + 1); return true } catch {
            // Depth errors must not turn into "does not match" under `not`: they propagate as no match
            // only because every caller reports its own failure; a cycle fails the whole validation.
            return false
        }
    }

    private func checkString(_ text: String, _ node: Node, _ fail: (String) -> StructuredOutputError) throws(StructuredOutputError) {
        let length = text.unicodeScalars.count
        if length < node.minLength { throw fail("shorter than \(node.minLength) characters") }
        if let max = node.maxLength, length > max { throw fail("longer than \(max) characters") }
        if let pattern = node.pattern, !pattern.matches(text) { throw fail("does not match the pattern \(pattern.source)") }
        if let format = node.format, !format.isValid(text) { throw fail("is not a valid \(format.rawValue)") }
    }

    private func checkNumber(_ text: String, _ node: Node, _ fail: (String) -> StructuredOutputError) throws(StructuredOutputError) {
        guard let value = JSONDecimal(text) else { throw fail("\(text) is not a number") }
        if let m = node.minimum, value < m { throw fail("\(text) is below the minimum \(m.text)") }
        if let m = node.maximum, m < value { throw fail("\(text) is above the maximum \(m.text)") }
        if let m = node.exclusiveMinimum, !(m < value) { throw fail("\(text) is not above \(m.text)") }
        if let m = node.exclusiveMaximum, !(value < m) { throw fail("\(text) is not below \(m.text)") }
        if let m = node.multipleOf, !value.isMultiple(of: m) { throw fail("\(text) is not a multiple of \(m.text)") }
    }

    static func has(type: String, _ value: GeneratedContent) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let text)): JSONDecimal(text)?.isInteger ?? false
        default: false
        }
    }
}

extension JSONSchemaValidator {
    /// The value at a local reference (`#`, `#/a/b~1c`, percent-encoded or not), or nil.
    static func resolve(_ reference: String, in document: GeneratedContent) -> GeneratedContent? {
        guard reference.hasPrefix("#") else { return nil }
        let decoded = reference.dropFirst()
        if decoded.isEmpty { return document }
        guard decoded.hasPrefix("/") else { return nil }
        var node = document
        for raw in decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .object(let members):
                guard let next = members.first(where: { $0.key == token })?.value else { return nil }
                node = next
            case .array(let items):
                guard let i = Int(token), i >= 0, i < items.count else { return nil }
                node = items[i]
            default: return nil
            }
        }
        return node
    }

    /// `#`-pointer of a child: keys escaped as RFC 6901 says.
    static func child(_ pointer: String, _ keys: String...) -> String {
        keys.reduce(pointer) { $0 + "/" + $1.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
    }

    struct Compiler {
        let document: GeneratedContent
        var nodes: [Node?] = []
        var byPointer: [String: Int] = [:]

        init(document: GeneratedContent) { self.document = document }

        /// The node index of the subschema a `$ref` names (compiled on first use). Its text is
        /// percent-decoded first (a URI fragment); pointers built from keys are already plain.
        mutating func compile(reference: String) throws(StructuredOutputError) -> Int {
            let canonical = reference.removingPercentEncoding ?? reference
            if let index = byPointer[canonical] { return index }
            guard let schema = JSONSchemaValidator.resolve(canonical, in: document) else {
                throw .unsupportedSchema(path: reference, reason: "the reference does not point into this document")
            }
            return try compile(value: schema, pointer: canonical)
        }

        /// The node index of `schema`, found at `pointer` (compiled once per pointer).
        mutating func compile(value schema: GeneratedContent, pointer canonical: String) throws(StructuredOutputError) -> Int {
            if let index = byPointer[canonical] { return index }
            guard nodes.count < 100_000 else { throw .unsupportedSchema(path: canonical, reason: "more than 100000 subschemas") }
            let index = nodes.count
            nodes.append(nil)
            byPointer[canonical] = index
            nodes[index] = try node(schema, pointer: canonical)
            return index
        }

        private mutating func node(_ schema: GeneratedContent, pointer: String) throws(StructuredOutputError) -> Node {
            var node = Node()
            func at(_ key: String) -> String { JSONSchemaValidator.child(pointer, key) }
            switch schema {
            case .bool(let value): node.always = value; return node
            case .object: break
            default: throw .unsupportedSchema(path: pointer, reason: "a schema must be an object or a boolean")
            }
            guard case .object(let members) = schema else { return node }
            for (key, value) in members {
                if JSONSchemaValidator.refused.contains(key) {
                    throw .unsupportedSchema(path: at(key), reason: "the keyword '\(key)' is not supported")
                }
                switch key {
                case "type":
                    switch value {
                    case .string(let type): node.types = [type]
                    case .array(let list) where list.allSatisfy({ $0.stringValue != nil }): node.types = Set(list.compactMap(\.stringValue))
                    default: throw .unsupportedSchema(path: at(key), reason: "type must be a string or a list of strings")
                    }
                    let known: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]
                    if let unknown = node.types?.first(where: { !known.contains($0) }) {
                        throw .unsupportedSchema(path: at(key), reason: "unknown type '\(unknown)'")
                    }
                case "enum":
                    guard case .array(let values) = value else { throw .unsupportedSchema(path: at(key), reason: "enum must be a list") }
                    node.enumValues = values
                case "const": node.constant = value
                case "properties":
                    guard case .object(let properties) = value else {
                        throw .unsupportedSchema(path: at(key), reason: "properties must be an object")
                    }
                    for (name, child) in properties {
                        node.properties.append((name, try compile(value: child, pointer: JSONSchemaValidator.child(pointer, key, name))))
                    }
                case "additionalProperties": node.additional = try compile(value: value, pointer: at(key))
                case "patternProperties":
                    guard case .object(let patterns) = value else { throw .unsupportedSchema(path: at(key), reason: "must be an object") }
                    for (source, child) in patterns {
                        let regex: SchemaRegex
                        do { regex = try SchemaRegex(source) } catch {
                            throw .unsupportedSchema(path: JSONSchemaValidator.child(pointer, key, source), reason: error.description)
                        }
                        node.patternProperties.append((regex, try compile(value: child, pointer: JSONSchemaValidator.child(pointer, key, source))))
                    }
                case "propertyNames": node.propertyNames = try compile(value: value, pointer: at(key))
                case "dependentRequired":
                    guard case .object(let entries) = value else { throw .unsupportedSchema(path: at(key), reason: "must be an object") }
                    for (name, needs) in entries {
                        guard let list = needs.stringList else { throw .unsupportedSchema(path: at(key), reason: "must map names to lists of names") }
                        node.dependentRequired.append((name, list))
                    }
                case "dependentSchemas":
                    guard case .object(let entries) = value else { throw .unsupportedSchema(path: at(key), reason: "must be an object") }
                    for (name, child) in entries {
                        node.dependentSchemas.append((name, try compile(value: child, pointer: JSONSchemaValidator.child(pointer, key, name))))
                    }
                case "required":
                    guard let names = value.stringList else { throw .unsupportedSchema(path: at(key), reason: "required must be a list of names") }
                    node.required = names
                case "minProperties": node.minProperties = try count(value, at(key))
                case "maxProperties": node.maxProperties = try count(value, at(key))
                case "prefixItems": node.prefixItems = try list(value, at(key))
                case "items":
                    // A list is the tuple form of earlier drafts: the same as prefixItems.
                    if case .array = value {
                        node.prefixItems = try list(value, at(key))
                    } else {
                        node.items = try compile(value: value, pointer: at(key))
                    }
                case "minItems": node.minItems = try count(value, at(key))
                case "maxItems": node.maxItems = try count(value, at(key))
                case "uniqueItems": node.uniqueItems = value == .bool(true)
                case "minLength": node.minLength = try count(value, at(key))
                case "maxLength": node.maxLength = try count(value, at(key))
                case "pattern":
                    guard let text = value.stringValue else { throw .unsupportedSchema(path: at(key), reason: "pattern must be a string") }
                    do { node.pattern = try SchemaRegex(text) } catch { throw .unsupportedSchema(path: at(key), reason: error.description) }
                case "format": node.format = value.stringValue.flatMap(SchemaFormat.init(rawValue:))
                case "minimum": node.minimum = try decimal(value, at(key))
                case "maximum": node.maximum = try decimal(value, at(key))
                case "exclusiveMinimum": node.exclusiveMinimum = try decimal(value, at(key))
                case "exclusiveMaximum": node.exclusiveMaximum = try decimal(value, at(key))
                case "multipleOf":
                    let m = try decimal(value, at(key))
                    guard !m.negative, !m.isZero else { throw .unsupportedSchema(path: at(key), reason: "multipleOf must be above 0") }
                    node.multipleOf = m
                case "allOf": node.allOf = try list(value, at(key), nonEmpty: true)
                case "anyOf": node.anyOf = try list(value, at(key), nonEmpty: true)
                case "oneOf": node.oneOf = try list(value, at(key), nonEmpty: true)
                case "not": node.not = try compile(value: value, pointer: at(key))
                case "$ref":
                    guard let reference = value.stringValue else { throw .unsupportedSchema(path: at(key), reason: "$ref must be a string") }
                    guard reference.hasPrefix("#") else {
                        throw .unsupportedSchema(path: at(key), reason: "only local references (#/…) are supported, not '\(reference)'")
                    }
                    do { node.ref = try compile(reference: reference) } catch {
                        throw .unsupportedSchema(path: at(key), reason: "'\(reference)' does not point into this document")
                    }
                default: break  // annotations and unknown keywords
                }
            }
            // `nullable`: OpenAPI's form of a null union, which remote APIs and older tools write.
            if members.contains(where: { $0.key == "nullable" && $0.value == .bool(true) }) { node.types?.insert("null") }
            if let min = node.minimum, let max = node.maximum, max < min {
                throw .unsatisfiableSchema(path: pointer, reason: "minimum is above maximum")
            }
            return node
        }

        private mutating func list(_ value: GeneratedContent, _ pointer: String, nonEmpty: Bool = false) throws(StructuredOutputError) -> [Int] {
            guard case .array(let items) = value, !(nonEmpty && items.isEmpty) else {
                throw .unsupportedSchema(path: pointer, reason: "must be a\(nonEmpty ? " non-empty" : "") list of schemas")
            }
            var result: [Int] = []
            for (i, item) in items.enumerated() { result.append(try compile(value: item, pointer: "\(pointer)/\(i)")) }
            return result
        }

        private func count(_ value: GeneratedContent, _ pointer: String) throws(StructuredOutputError) -> Int {
            guard case .number(let text) = value, let decimal = JSONDecimal(text), decimal.isInteger, !decimal.negative else {
                throw .unsupportedSchema(path: pointer, reason: "must be a non-negative integer")
            }
            // Counts beyond Int are as good as unbounded: saturate instead of trapping.
            return Int(exactly: Double(text) ?? .infinity) ?? Int.max
        }

        private func decimal(_ value: GeneratedContent, _ pointer: String) throws(StructuredOutputError) -> JSONDecimal {
            guard case .number(let text) = value, let decimal = JSONDecimal(text) else {
                throw .unsupportedSchema(path: pointer, reason: "must be a number")
            }
            return decimal
        }
    }
}
