/// A text compared and hashed by its UTF-8 bytes, not as Swift compares strings (by canonical
/// equivalence): a document's ID is its bytes (SPEC 2.1: its file name), so "é" as one code
/// point and "é" as e and a combining accent name two documents, as they do in Firestore.
public struct ExactText: Hashable, Sendable {
    public let text: String

    @inline(__always)
    public init(_ text: String) { self.text = text }

    @inline(__always)
    public static func == (a: ExactText, b: ExactText) -> Bool { sameBytes(a.text, b.text) }

    public func hash(into hasher: inout Hasher) {
        // One way for every string (`withUTF8` makes a contiguous copy when it must): equal
        // bytes must hash alike whatever their storage.
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
