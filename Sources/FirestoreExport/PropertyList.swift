import Store
import Support

/// An entity's properties as they are read, put together into fields: a repeated property
/// (`multiple`, one value each, Datastore's form of an array) becomes one array at its first
/// value's place; an empty array's mark an empty array. A name given twice otherwise is damage.
/// Names are compared as bytes: Firestore's field names are, canonically equivalent or not.
struct PropertyList {
    private var pairs: [(key: String, value: Value)] = []
    /// For each pair, whether it is an array made of repeated properties (which takes more).
    private var repeated: [Bool] = []
    /// Each name's pair, once there are enough that a linear search costs more.
    private var index: [[UInt8]: Int]?

    mutating func add(_ property: EntityDecoder.Property) throws(ExportDamage) {
        guard let k = position(of: property.name) else {
            append(property)
            return
        }
        guard property.multiple, repeated[k], let value = property.value, case .array(var values) = pairs[k].value
        else {
            throw ExportDamage(
                at: property.offset, "property \(property.name) appears twice, and not as the values of one array")
        }
        pairs[k].value = .null  // the array's one reference, so that appending does not copy it
        values.append(value)
        pairs[k].value = .array(values)
    }

    private mutating func append(_ property: EntityDecoder.Property) {
        switch (property.value, property.multiple) {
        case (let value?, false): pairs.append((property.name, value))
        case (let value?, true): pairs.append((property.name, .array([value])))
        case (nil, _): pairs.append((property.name, .array([])))
        }
        repeated.append(property.multiple && property.value != nil)
        if index != nil {
            index?[Array(property.name.utf8)] = pairs.count - 1
        } else if pairs.count > 16 {
            index = Dictionary(
                pairs.enumerated().map { (Array($1.key.utf8), $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private func position(of name: String) -> Int? {
        if let index { return index[Array(name.utf8)] }
        return pairs.firstIndex { sameBytes($0.key, name) }
    }

    consuming func fields() -> Fields { Fields(pairs) }
}
