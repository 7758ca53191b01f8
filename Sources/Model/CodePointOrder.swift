/// Unicode code point order, which for UTF-8 is byte order (Swift's `<` on String
/// compares canonical equivalents instead). Compares the strings' UTF-8 in place where
/// they have it (native strings): walking `String.UTF8View` byte by byte costs several times more.
@inline(__always)
func codePointOrder(_ a: String, _ b: String) -> Bool {
    let inPlace = a.utf8.withContiguousStorageIfAvailable { a in
        b.utf8.withContiguousStorageIfAvailable { b in a.lexicographicallyPrecedes(b) }
    }
    return (inPlace ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// Whether `a` and `b` are the same bytes (not only canonically equivalent, as `==` says).
@inline(__always)
func sameBytes(_ a: String, _ b: String) -> Bool {
    let inPlace = a.utf8.withContiguousStorageIfAvailable { a in
        b.utf8.withContiguousStorageIfAvailable { b in a.elementsEqual(b) }
    }
    return (inPlace ?? nil) ?? a.utf8.elementsEqual(b.utf8)
}
