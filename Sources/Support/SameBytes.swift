#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `a` and `b` are the same bytes, not only canonically equivalent as `==` says: a
/// text in another Unicode form (é as one code point, or as e and a combining accent) is
/// equal as a Swift string but renders, hashes and sorts by code point differently.
/// Compares the UTF-8 in place where the strings have it (native strings).
@inline(__always)
public func sameBytes(_ a: String, _ b: String) -> Bool {
    let inPlace = a.utf8.withContiguousStorageIfAvailable { a in
        b.utf8.withContiguousStorageIfAvailable { b in sameBytes(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) }
    }
    return (inPlace ?? nil) ?? a.utf8.elementsEqual(b.utf8)
}

/// `sameBytes` of two optional texts: both absent, or both there and the same bytes.
public func sameBytes(_ a: String?, _ b: String?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): sameBytes(a, b)
    default: false
    }
}

/// Whether two buffers hold the same bytes (one `memcmp`, not a walk through two sequences).
@inline(__always)
public func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
}
