/// Unicode code point order, which for UTF-8 is byte order (Swift's `<` on String
/// compares canonical equivalents instead): the order of the manifest's paths, of sorted
/// IDs, of files listed for a hash. Compares the strings' UTF-8 in place where they have it
/// (native strings): walking `String.UTF8View` byte by byte costs several times more.
@inline(__always)
public func codePointOrder(_ a: String, _ b: String) -> Bool {
    let inPlace = a.utf8.withContiguousStorageIfAvailable { a in
        b.utf8.withContiguousStorageIfAvailable { b in a.lexicographicallyPrecedes(b) }
    }
    return (inPlace ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
}
