/// The context stack: values pushed by sections, searched top to bottom.
struct Context {
    var frames: [MustacheValue]

    init(_ root: MustacheValue) {
        frames = [root]
        frames.reserveCapacity(16)
    }

    @inline(__always) mutating func push(_ value: MustacheValue) { frames.append(value) }
    @inline(__always) mutating func pop() { frames.removeLast() }

    /// Spec name resolution: `.` is the top; otherwise the first part is looked
    /// up down the stack, and the remaining parts only inside what it found.
    func lookup(_ name: Name) -> MustacheValue? {
        let parts = name.parts
        guard let first = parts.first else { return frames.last }
        var i = frames.count &- 1
        while i >= 0 {
            if case .object(let object) = frames[i], let value = object.value(forKey: first) {
                return parts.count == 1 ? value : Context.resolve(value, parts)
            }
            i &-= 1
        }
        return nil
    }

    /// The remaining parts of a dotted name, inside `value` only.
    private static func resolve(_ value: MustacheValue, _ parts: [String]) -> MustacheValue? {
        var value = value
        var k = 1
        while k < parts.count {
            guard case .object(let object) = value, let next = object.value(forKey: parts[k]) else { return nil }
            value = next
            k += 1
        }
        return value
    }
}
