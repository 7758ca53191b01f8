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
        var i = frames.count - 1
        var found: MustacheValue? = nil
        while i >= 0 {
            if let v = frames[i].member(first) {
                found = v
                break
            }
            i -= 1
        }
        guard var value = found else { return nil }
        var k = 1
        while k < parts.count {
            guard let next = value.member(parts[k]) else { return nil }
            value = next
            k += 1
        }
        return value
    }
}
