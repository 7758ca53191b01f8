/// Unicode code point order, which for UTF-8 is byte order (Swift's `<` on String
/// compares canonical equivalents instead).
@inline(__always)
func codePointOrder(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
