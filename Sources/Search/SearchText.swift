import Foundation
import Support

/// The text rules of search (SPEC 8), the same in Swift and in `static/search.js`: a word is
/// a maximal run of letters, marks, digits and `_` (Unicode L*, M*, N*), and text is compared
/// after folding: NFC, then each scalar's own lowercase mapping (no context, so a final sigma
/// is not special), `ς` as `σ`, then NFC again. The browser does exactly these steps with
/// `normalize("NFC")` and `toLowerCase()` of one code point at a time.
package enum SearchText {
    /// `text` folded (see the type's comment).
    package static func fold(_ text: String) -> String {
        // Nearly all text is ASCII or precomposed Hangul: no table look-ups for it.
        var simple = true
        for scalar in text.unicodeScalars where scalar.value >= 0x80 && !isHangulSyllable(scalar) {
            simple = false
            break
        }
        if simple {
            var folded = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                folded.append(
                    scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 32)! : scalar)
            }
            return String(folded)
        }
        var lowered = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar == "\u{3C2}" {
                lowered.append("\u{3C3}")
            } else if scalar.value < 0x80 || isHangulSyllable(scalar) {
                lowered.append(
                    scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(scalar.value + 32)! : scalar)
            } else {
                lowered.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(lowered).precomposedStringWithCanonicalMapping
    }

    /// The words of `text`, folded, in order (repeats kept).
    package static func words(_ text: String) -> [String] {
        if isASCII(text) { return asciiWords(text) }
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in fold(text).unicodeScalars {
            if isWordScalar(scalar) {
                word.append(scalar)
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    /// `words` of ASCII text, byte by byte (most captions; a megabyte caption stays cheap).
    private static func asciiWords(_ text: String) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A: word.append(byte + 32)
            case 0x30...0x39, 0x61...0x7A, 0x5F: word.append(byte)
            default:
                if !word.isEmpty {
                    words.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                }
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// Letters, marks, digits (L*, M*, N*) and `_`.
    package static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0..<0x80: return false
        case 0xAC00...0xD7A3: return true
        default:
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return false
            }
        }
    }

    @inline(__always)
    static func isHangulSyllable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAC00 && scalar.value <= 0xD7A3
    }
}
