/// Whether every byte of `text` is ASCII: then it is its own NFC, its letters are Latin, and
/// it folds and splits into words byte by byte. Read in place where the string has its UTF-8
/// (native strings), without a branch per byte.
public func isASCII(_ text: String) -> Bool {
    let inPlace = text.utf8.withContiguousStorageIfAvailable { bytes in
        var any: UInt8 = 0
        for b in bytes { any |= b }
        return any < 0x80
    }
    return inPlace ?? text.utf8.allSatisfy { $0 < 0x80 }
}
