/// Whether `text` is certainly in NFC, found cheaply: ASCII and precomposed Hangul syllables
/// (U+AC00…U+D7A3) are, in any sequence (neither composes with what follows, nor ASCII with
/// what precedes it). Two such strings are canonically equivalent exactly when their bytes are equal.
func isKnownNFC(_ text: String) -> Bool {
    var bytes = text.utf8.makeIterator()
    while let b = bytes.next() {
        if b < 0x80 { continue }
        // A Hangul syllable is EA B0 80 … ED 9E A3 in UTF-8.
        guard b >= 0xEA, b <= 0xED, let b1 = bytes.next(), let b2 = bytes.next() else { return false }
        let scalar = (UInt32(b & 0x0F) << 12) | (UInt32(b1 & 0x3F) << 6) | UInt32(b2 & 0x3F)
        guard (0xAC00...0xD7A3).contains(scalar) else { return false }
    }
    return true
}
