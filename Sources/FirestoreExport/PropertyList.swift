import Store
import Support

/// An entity's properties as they are read, put together into fields: a repeated property
/// (`multiple`, one value each, Datastore's form of an array) becomes one array at its first
/// value's place; an empty array's mark an empty array. A name given twice otherwise is damage.
/// Names are compared as bytes: Firestore's field names are, canonically equivalent or not.
struct PropertyList {
    private enum Entry {
        case single(Value)
        case array([Value])
    }

    private var names: [String] = []
    private var entries: [Entry] = []
    /// Each name's entry, once there are enough that a linear search costs more.
    private var index: [[UInt8]: Int]?

    mutating func add(_ property: EntityDecoder.Property) throws(ExportDamage) {
        guard let k = position(of: property.name) else {
            append(property)
            return
        }
        guard property.multiple, let value = property.value, case .array(var values) = entries[k] else {
            throw ExportDamage(
                at: property.offset, "property \(property.name) appears twice, and not as the values of one array")
        }
        entries[k] = .single(.null)  // the array's one reference, so that appending does not copy it
        values.append(value)
        entries[k] = .array(values)
    }

    private mutating func append(_ property: EntityDecoder.Property) {
        names.append(property.name)
        switch (property.value, property.multiple) {
        case (let value?, false): entries.append(.single(value))
        case (let value?, true): entries.append(.array([value]))
        case (nil, _): entries.append(.single(.array([])))
        }
        if index != nil {
            index?[Array(property.name.utf8)] = names.count - 1
        } else if names.count > 16 {
            index = Dictionary(names.enumerated().map { (Array($1.utf8), $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private func position(of name: String) -> Int? {
        if let index { return index[Array(name.utf8)] }
        return names.firstIndex { sameBytes($0, name) }
    }

    func fields() -> Fields {
        var fields = Fields()
        for (name, entry) in zip(names, entries) {
            switch entry {
            case .single(let value): fields.append(name, value)
            case .array(let values): fields.append(name, .array(values))
            }
        }
        return fields
    }
}
