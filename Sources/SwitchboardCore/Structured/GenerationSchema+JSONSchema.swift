import Foundation

extension GenerationSchema {
    /// Imports a JSON Schema document (draft 2020-12; an object or a boolean). Validation follows the
    /// document exactly; `kind` is what the decoder generates from, a subset of what validates.
    /// What the document says that cannot be validated (non-local `$ref`, `if`/`then`, …) is an
    /// `unsupportedSchema` error naming where; what cannot be generated becomes `.open(reason:)`,
    /// refused by the on-device decoder with that reason.
    public init(jsonSchema text: String) throws(StructuredOutputError) {
        let document: GeneratedContent
        do { document = try GeneratedContent(json: text) } catch { throw .invalidSchemaDocument("\(error)") }
        switch document {
        case .object, .bool: break
        default: throw .invalidSchemaDocument("the top level is not an object or a boolean")
        }
        let validator = try JSONSchemaValidator(document: document)
        var lowering = SchemaLowering(document: document)
        self = lowering.lower(document, depth: 0)
        definitions = lowering.definitions
        self.document = validator
    }

    /// A finite whole Double as an Int, saturating instead of trapping.
    static func clampedInt(_ value: Double) -> Int {
        value.isNaN ? 0 : value >= 9.2e18 ? .max : value <= -9.2e18 ? .min : Int(value)
    }
}

extension GeneratedContent {
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The strings of an array made only of strings.
    var stringList: [String]? {
        guard case .array(let items) = self else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }
}

/// Maps a JSON Schema document onto what the decoder can generate. Never throws: a part that cannot
/// be generated is `.open(reason:)`; alternatives and optional properties that are open are left
/// out of generation later, which keeps the generated language inside the validated one.
struct SchemaLowering {
    typealias Members = [(key: String, value: GeneratedContent)]
    let document: GeneratedContent
    var definitions: [String: GenerationSchema] = [:]
    private var inProgress: Set<String> = []

    init(document: GeneratedContent) { self.document = document }

    static let annotations: Set<String> = ["$schema", "$id", "$anchor", "$dynamicAnchor", "$comment", "title", "description", "examples",
                                           "default", "deprecated", "readOnly", "writeOnly", "$defs", "definitions", "discriminator",
                                           "contentMediaType", "contentEncoding", "propertyOrdering"]
    static let objectKeywords: Set<String> = ["properties", "required", "additionalProperties", "minProperties", "maxProperties",
                                              "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas"]
    static let arrayKeywords: Set<String> = ["items", "prefixItems", "minItems", "maxItems", "uniqueItems"]
    static let stringKeywords: Set<String> = ["minLength", "maxLength", "pattern", "format"]
    static let numberKeywords: Set<String> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]

    static func open(_ reason: String) -> GenerationSchema { GenerationSchema(.open(reason: reason)) }

    mutating func lower(_ schema: GeneratedContent, depth: Int) -> GenerationSchema {
        guard depth < 48 else { return Self.open("the schema nests deeper than 48 levels") }
        switch schema {
        case .bool(true): return Self.open("the schema `true` allows any value")
        case .bool(false): return Self.open("the schema `false` allows no value")
        case .object(let members):
            var result = lowerObject(members, depth: depth)
            if let description = schema["description"]?.stringValue { result.description = description }
            return result
        default: return Self.open("a schema must be an object or a boolean")
        }
    }

    private static func constraining(_ members: Members) -> Members { members.filter { !annotations.contains($0.key) } }

    private mutating func lowerObject(_ members: Members, depth: Int) -> GenerationSchema {
        let node = GeneratedContent.object(members)
        if let ref = node["$ref"]?.stringValue {
            let rest = Self.constraining(members).filter { $0.key != "$ref" }
            if rest.isEmpty { return reference(ref, depth: depth) }
            guard let target = JSONSchemaValidator.resolve(ref.removingPercentEncoding ?? ref, in: document),
                  let merged = Self.merge(rest, target) else { return Self.open("$ref with keywords beside it that cannot be merged") }
            return lower(.object(merged), depth: depth + 1)
        }
        if case .array(let parts)? = node["allOf"] {
            var merged: Members = members.filter { $0.key != "allOf" }
            for part in parts {
                var part = part
                if let ref = part["$ref"]?.stringValue, Self.constraining(part.objectMembers).count == 1,
                   let target = JSONSchemaValidator.resolve(ref.removingPercentEncoding ?? ref, in: document) {
                    part = target
                }
                guard let next = Self.merge(merged, part) else { return Self.open("allOf parts that cannot be merged into one schema") }
                merged = next
            }
            return lower(.object(merged), depth: depth + 1)
        }
        let anyOf = node["anyOf"], oneOf = node["oneOf"]
        if anyOf != nil, oneOf != nil { return Self.open("both anyOf and oneOf") }
        if case .array(let choices)? = anyOf ?? oneOf {
            let siblings = Self.constraining(members).filter { $0.key != "anyOf" && $0.key != "oneOf" && $0.key != "not" }
            var kept: [GenerationSchema] = []
            var reasons: [String] = []
            for choice in choices {
                let combined = siblings.isEmpty ? choice : Self.merge(siblings, choice).map(GeneratedContent.object)
                let lowered = combined.map { lower($0, depth: depth + 1) } ?? Self.open("an alternative contradicts the keywords beside it")
                if case .open(let reason) = lowered.kind { reasons.append(reason) } else { kept.append(lowered) }
            }
            if kept.isEmpty { return Self.open("no alternative can be generated: \(reasons.first ?? "")") }
            return kept.count == 1 ? kept[0] : GenerationSchema(.anyOf(kept))
        }
        if node["const"] != nil || node["enum"] != nil {
            var values: [GeneratedContent] = []
            if let constant = node["const"] { values = [constant] } else if case .array(let list)? = node["enum"] { values = list }
            // Only the values the whole schema accepts (an enum beside a type or a bound).
            if let check = try? JSONSchemaValidator(schema: node, in: document) { values = values.filter(check.isValid) }
            guard !values.isEmpty else { return Self.open("no value of the enum or const follows the rest of the schema") }
            if let strings = GeneratedContent.array(values).stringList { return .string(enum: strings) }
            return GenerationSchema(.constants(values))
        }
        var types: [String]
        switch node["type"] {
        case .string(let single): types = [single]
        case .array(let list): types = list.compactMap(\.stringValue)
        default:
            let keys = Set(members.map(\.key))
            types = []
            if !keys.isDisjoint(with: Self.objectKeywords) { types.append("object") }
            if !keys.isDisjoint(with: Self.arrayKeywords) { types.append("array") }
            if !keys.isDisjoint(with: Self.stringKeywords) { types.append("string") }
            if !keys.isDisjoint(with: Self.numberKeywords) { types.append("number") }
        }
        if node["nullable"] == .bool(true), !types.isEmpty, !types.contains("null") { types.append("null") }
        if types.contains("integer") { types.removeAll { $0 == "number" } }
        guard !types.isEmpty else {
            return Self.open("the schema names no type, so it allows any value; give it a type (or an enum) to generate from")
        }
        var alternatives: [GenerationSchema] = []
        var reasons: [String] = []
        for type in types {
            let lowered = lowerType(type, node, depth: depth)
            if case .open(let reason) = lowered.kind { reasons.append(reason) } else { alternatives.append(lowered) }
        }
        if alternatives.isEmpty { return Self.open(reasons.first ?? "nothing to generate") }
        return alternatives.count == 1 ? alternatives[0] : GenerationSchema(.anyOf(alternatives))
    }

    /// `.reference` to the definition at `pointer`, lowered once (a cycle meets its own reference).
    private mutating func reference(_ pointer: String, depth: Int) -> GenerationSchema {
        let key = pointer.removingPercentEncoding ?? pointer
        if definitions[key] == nil, !inProgress.contains(key) {
            guard let target = JSONSchemaValidator.resolve(key, in: document) else { return Self.open("the reference \(pointer) points nowhere") }
            inProgress.insert(key)
            definitions[key] = lower(target, depth: depth + 1)
            inProgress.remove(key)
        }
        return GenerationSchema(.reference(key))
    }

    private static func count(_ value: GeneratedContent?) -> Int? {
        guard case .number(let text)? = value, let number = Double(text) else { return nil }
        return GenerationSchema.clampedInt(number.rounded(.down))
    }

    private static func double(_ value: GeneratedContent?) -> Double? {
        guard case .number(let text)? = value else { return nil }
        return Double(text)
    }

    private mutating func lowerType(_ type: String, _ node: GeneratedContent, depth: Int) -> GenerationSchema {
        switch type {
        case "object": return lowerObjectType(node, depth: depth)
        case "array": return lowerArray(node, depth: depth)
        case "string":
            let minLength = Self.count(node["minLength"]) ?? 0, maxLength = Self.count(node["maxLength"])
            if let maxLength, maxLength < minLength { return Self.open("maxLength is below minLength") }
            let pattern = node["pattern"]?.stringValue
            let format = node["format"]?.stringValue.flatMap(SchemaFormat.init(rawValue:))
            return .string(minLength: minLength, maxLength: maxLength, pattern: pattern, format: format)
        case "integer", "number":
            var low = Self.double(node["minimum"]) ?? -.infinity, high = Self.double(node["maximum"]) ?? .infinity
            var integral = type == "integer"
            var step: Int?
            if case .number(let text)? = node["multipleOf"], let m = JSONDecimal(text) {
                if m.isInteger, let value = Double(text), value <= 1e15 {
                    integral = true
                    step = Int(value) > 1 ? Int(value) : nil
                } else if JSONDecimal("1")?.isMultiple(of: m) == true {
                    integral = true   // every integer is a multiple of 1/n
                } else {
                    return Self.open("multipleOf \(text) (only whole numbers, or 1/n, can be generated)")
                }
            }
            if integral {
                if let e = Self.double(node["exclusiveMinimum"]) { low = max(low, e.rounded(.down) + 1) }
                if let e = Self.double(node["exclusiveMaximum"]) { high = min(high, e.rounded(.up) - 1) }
                let lo = low.isFinite ? GenerationSchema.clampedInt(low.rounded(.up)) : nil
                let hi = high.isFinite ? GenerationSchema.clampedInt(high.rounded(.down)) : nil
                if let lo, let hi, lo > hi { return Self.open("the integer range is empty") }
                return .integer(minimum: lo, maximum: hi, multipleOf: step)
            }
            if let e = Self.double(node["exclusiveMinimum"]) { low = max(low, Swift.max(e.nextUp, e + 1e-8)) }
            if let e = Self.double(node["exclusiveMaximum"]) { high = min(high, Swift.min(e.nextDown, e - 1e-8)) }
            if low > high { return Self.open("the number range is empty") }
            return .number(minimum: low.isFinite ? low : nil, maximum: high.isFinite ? high : nil)
        case "boolean": return .boolean()
        case "null": return .null
        default: return Self.open("unknown type '\(type)'")
        }
    }

    private mutating func lowerObjectType(_ node: GeneratedContent, depth: Int) -> GenerationSchema {
        let properties = node["properties"]?.objectMembers ?? []
        let required = node["required"]?.stringList ?? []
        let additional = node["additionalProperties"]
        let minProperties = Self.count(node["minProperties"]) ?? 0, maxProperties = Self.count(node["maxProperties"])
        var result: [GenerationSchema.Property] = []
        for (name, child) in properties {
            let lowered = lower(child, depth: depth + 1)
            let isRequired = required.contains(name)
            if case .open(let reason) = lowered.kind {
                if isRequired { return Self.open("the required property '\(name)': \(reason)") }
                continue   // optional: generated without it
            }
            result.append(.init(name, lowered, required: isRequired))
        }
        for name in required where !properties.contains(where: { $0.key == name }) {
            guard let additional, additional != .bool(false), additional != .bool(true) else {
                return Self.open("the required property '\(name)' has no schema")
            }
            let lowered = lower(additional, depth: depth + 1)
            if case .open(let reason) = lowered.kind { return Self.open("the required property '\(name)': \(reason)") }
            result.append(.init(name, lowered))
        }
        if properties.isEmpty, required.isEmpty, let additional, additional != .bool(false) {
            let values = lower(additional, depth: depth + 1)
            if case .open = values.kind {
                return minProperties > 0 ? Self.open("an object whose values allow anything") : .object([])
            }
            return .dictionary(of: values, minProperties: minProperties, maxProperties: maxProperties)
        }
        // Keywords about keys: generation writes only the declared properties, so it is enough that
        // none of their names is caught by them (else the decoder does not generate this object).
        if let patterns = node["patternProperties"]?.objectMembers, result.contains(where: { property in
            patterns.contains { (try? SchemaRegex($0.key))?.matches(property.name) ?? true }
        }) { return Self.open("a property that patternProperties also constrains") }
        if let names = node["propertyNames"], let check = try? JSONSchemaValidator(schema: names, in: document),
           result.contains(where: { !check.isValid(.string($0.name)) }) {
            return Self.open("a property whose name propertyNames refuses")
        }
        let triggers = (node["dependentRequired"]?.objectMembers ?? []) + (node["dependentSchemas"]?.objectMembers ?? [])
        if triggers.contains(where: { trigger in result.contains { $0.name == trigger.key } }) {
            return Self.open("dependentRequired or dependentSchemas on a property (validated, not generated)")
        }
        // minProperties/maxProperties: require the first optional ones, leave out the last ones.
        var requiredCount = result.count(where: \.isRequired)
        if let maxProperties {
            if requiredCount > maxProperties { return Self.open("more required properties than maxProperties") }
            var optionalsLeft = maxProperties - requiredCount
            result = result.filter { property in
                if property.isRequired { return true }
                optionalsLeft -= 1
                return optionalsLeft >= 0
            }
        }
        for i in result.indices where requiredCount < minProperties && !result[i].isRequired {
            result[i].isRequired = true
            requiredCount += 1
        }
        if requiredCount < minProperties { return Self.open("minProperties above the properties that can be generated") }
        return .object(result)
    }

    private mutating func lowerArray(_ node: GeneratedContent, depth: Int) -> GenerationSchema {
        var minItems = Self.count(node["minItems"]) ?? 0
        var maxItems = Self.count(node["maxItems"])
        if node["uniqueItems"] == .bool(true) {
            // Arrays of at most one item are unique; more cannot be promised while generating.
            guard minItems <= 1 else { return Self.open("uniqueItems with minItems above 1") }
            maxItems = min(maxItems ?? 1, 1)
        }
        if let maxItems, maxItems < minItems { return Self.open("maxItems is below minItems") }
        var prefixSchemas: [GeneratedContent]?
        var rest = node["items"]
        if case .array(let list)? = node["prefixItems"] { prefixSchemas = list }
        if case .array(let list)? = rest { prefixSchemas = list; rest = nil }
        let loweredRest: GenerationSchema? = {
            guard let rest, rest != .bool(false) else { return nil }
            let lowered = lower(rest, depth: depth + 1)
            if case .open = lowered.kind { return nil }
            return lowered
        }()
        if let prefixSchemas {
            var prefix: [GenerationSchema] = []
            for (i, item) in prefixSchemas.enumerated() {
                let lowered = lower(item, depth: depth + 1)
                if case .open(let reason) = lowered.kind {
                    if i < minItems { return Self.open("prefixItems \(i): \(reason)") }
                    maxItems = min(maxItems ?? i, i)
                    break
                }
                prefix.append(lowered)
            }
            if loweredRest == nil, minItems > prefix.count { return Self.open("minItems beyond the items that can be generated") }
            return .tuple(prefix, rest: loweredRest, minItems: minItems, maxItems: maxItems)
        }
        guard let loweredRest else {
            if minItems > 0 { return Self.open("array items that cannot be generated") }
            minItems = 0
            return .tuple([], rest: nil, minItems: 0, maxItems: 0)
        }
        return .array(of: loweredRest, minItems: minItems, maxItems: maxItems)
    }

    /// Two schemas' keywords as one (allOf): bounds tightened, lists intersected or joined,
    /// properties merged by name; nil when they cannot be combined.
    static func merge(_ a: Members, _ b: GeneratedContent) -> Members? {
        guard case .object(let other) = b else { return b == .bool(true) ? a : nil }
        var result = a
        for (key, value) in other {
            guard let i = result.firstIndex(where: { $0.key == key }) else { result.append((key, value)); continue }
            let mine = result[i].value
            if mine == value || annotations.contains(key) { continue }
            switch key {
            case "properties":
                var merged = mine.objectMembers
                for (name, schema) in value.objectMembers {
                    if let j = merged.firstIndex(where: { $0.key == name }) {
                        merged[j].value = .object([("allOf", .array([merged[j].value, schema]))])
                    } else {
                        merged.append((name, schema))
                    }
                }
                result[i].value = .object(merged)
            case "required":
                let names = (mine.stringList ?? []) + (value.stringList ?? []).filter { !(mine.stringList ?? []).contains($0) }
                result[i].value = .array(names.map(GeneratedContent.string))
            case "type":
                let x = Set(mine.typeList), y = Set(value.typeList)
                var both = x.intersection(y)
                if x.contains("integer"), y.contains("number") { both.insert("integer") }
                if y.contains("integer"), x.contains("number") { both.insert("integer") }
                guard !both.isEmpty else { return nil }
                result[i].value = .array(both.sorted().map(GeneratedContent.string))
            case "minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties":
                result[i].value = Self.numberOrder(mine, value) ? value : mine
            case "maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties":
                result[i].value = Self.numberOrder(mine, value) ? mine : value
            case "enum":
                guard case .array(let x) = mine, case .array(let y) = value else { return nil }
                result[i].value = .array(x.filter { v in y.contains { $0.jsonEquals(v) } })
            default:
                return nil
            }
        }
        return result
    }

    /// `a < b` for two numbers.
    private static func numberOrder(_ a: GeneratedContent, _ b: GeneratedContent) -> Bool {
        guard case .number(let x) = a, case .number(let y) = b, let p = JSONDecimal(x), let q = JSONDecimal(y) else { return false }
        return p < q
    }
}

extension GeneratedContent {
    var objectMembers: [(key: String, value: GeneratedContent)] { if case .object(let members) = self { members } else { [] } }
    var typeList: [String] {
        switch self {
        case .string(let type): [type]
        case .array(let list): list.compactMap(\.stringValue)
        default: []
        }
    }
}
