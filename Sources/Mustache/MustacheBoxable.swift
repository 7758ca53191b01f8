/// A type that can be handed to a template as a value.
package protocol MustacheBoxable: Sendable {
    var mustacheValue: MustacheValue { get }
}

/// An app type whose properties templates read by name, e.g.
///
///     struct Tweet: MustacheObject {
///         let text: String
///         func value(forKey key: String) -> MustacheValue? {
///             key == "text" ? .string(text) : nil
///         }
///     }
package protocol MustacheObject: MustacheBoxable {
    /// The value for `key`, or nil when this object has no such key
    /// (the lookup then continues down the context stack).
    func value(forKey key: String) -> MustacheValue?
}

extension MustacheObject {
    package var mustacheValue: MustacheValue { .object(self) }
}

/// A list a section iterates over. Arrays of boxable elements conform.
package protocol MustacheList: Sendable {
    var count: Int { get }
    func mustacheElement(at index: Int) -> MustacheValue
}

extension MustacheValue: MustacheBoxable {
    package var mustacheValue: MustacheValue { self }
}

extension String: MustacheBoxable {
    package var mustacheValue: MustacheValue { .string(self) }
}

extension Substring: MustacheBoxable {
    package var mustacheValue: MustacheValue { .string(String(self)) }
}

extension Int: MustacheBoxable {
    package var mustacheValue: MustacheValue { .int(self) }
}

extension Double: MustacheBoxable {
    package var mustacheValue: MustacheValue { .double(self) }
}

extension Bool: MustacheBoxable {
    package var mustacheValue: MustacheValue { .bool(self) }
}

extension Optional: MustacheBoxable where Wrapped: MustacheBoxable {
    package var mustacheValue: MustacheValue { self?.mustacheValue ?? .null }
}

extension Array: MustacheBoxable, MustacheList where Element: MustacheBoxable {
    package var mustacheValue: MustacheValue { .list(self) }
    @inline(__always)
    package func mustacheElement(at index: Int) -> MustacheValue { self[index].mustacheValue }
}

extension Dictionary: MustacheBoxable, MustacheObject where Key == String, Value: MustacheBoxable {
    package func value(forKey key: String) -> MustacheValue? { self[key]?.mustacheValue }
}
