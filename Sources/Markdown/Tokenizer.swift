// Splits the literal of one cmark text node into plain text, @mentions,
// #hashtags and bare http(s) URLs. Shared by the renderer and `HashtagsAndMentions.scan`,
// so what is linked and what is reported are the same by construction.
// Works on UTF-8 bytes; decodes scalars only around `@` and `#`.

enum Segment: Equatable {
    case text(String)
    /// The handle as written, without "@".
    case mention(String)
    /// The tag as written (not lowercased), without "#".
    case hashtag(String)
    /// The URL as written, trailing punctuation already trimmed.
    case url(String)
}

enum Tokenizer {
    static let maxHandleLength = 30
    static let maxTagLength = 64

    /// Calls `emit` with the segments of `text`, in order; concatenating the
    /// segments' source text gives back `text`. Adjacent plain text is emitted
    /// as one segment.
    static func segments(of text: String, _ emit: (Segment) -> Void) {
        var text = text
        text.withUTF8 { bytes in
            // Fast path: nothing that could start an entity.
            var interesting = false
            for byte in bytes where byte == UInt8(ascii: "@") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: ":")
            {
                interesting = true
                break
            }
            if !interesting {
                if !bytes.isEmpty { emit(.text(String(decoding: bytes, as: UTF8.self))) }
                return
            }
            scan(bytes, emit)
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (Segment) -> Void) {
        let count = bytes.count
        var textStart = 0
        var index = 0

        func flush(upTo end: Int) {
            if end > textStart {
                emit(.text(String(decoding: UnsafeBufferPointer(rebasing: bytes[textStart..<end]), as: UTF8.self)))
            }
        }
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "@"):
                if let end = mentionEnd(bytes, at: index) {
                    flush(upTo: index)
                    emit(.mention(string(index + 1..<end)))
                    textStart = end
                    index = end
                    continue
                }
            case UInt8(ascii: "#"):
                if let end = hashtagEnd(bytes, at: index) {
                    flush(upTo: index)
                    emit(.hashtag(string(index + 1..<end)))
                    textStart = end
                    index = end
                    continue
                }
            case UInt8(ascii: "h"), UInt8(ascii: "H"):
                if let end = urlEnd(bytes, at: index) {
                    flush(upTo: index)
                    emit(.url(string(index..<end)))
                    textStart = end
                    index = end
                    continue
                }
            default:
                break
            }
            index += 1
        }
        flush(upTo: count)
    }

    // MARK: - Mentions

    @inline(__always)
    static func isHandleByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_")
    }

    /// `@` not preceded by a letter, digit or `_`; then 1–30 of `[A-Za-z0-9_]`
    /// not followed by another of those. Returns the end of the handle.
    private static func mentionEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        if let previous = scalar(before: start, in: bytes), isWordScalar(previous) { return nil }
        var end = start + 1
        while end < bytes.count, isHandleByte(bytes[end]) {
            end += 1
            if end - start - 1 > maxHandleLength { return nil }
        }
        return end > start + 1 ? end : nil
    }

    // MARK: - Hashtags

    /// Letters, marks, decimal digits and `_`: what a hashtag is made of, and
    /// what may not come right before `@` or `#`.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isHandleByte(UInt8(scalar.value)) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    /// `#` not preceded by a letter, digit, `_` or `&`; then 1–64 letters,
    /// marks, digits or `_`, at least one of them not a digit, not followed by
    /// another of those. Returns the end of the tag.
    private static func hashtagEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        if let previous = scalar(before: start, in: bytes),
            previous == "&" || isWordScalar(previous)
        {
            return nil
        }
        var end = start + 1
        var length = 0
        var hasNonDigit = false
        while end < bytes.count {
            let (scalar, width) = decode(bytes, at: end)
            guard isWordScalar(scalar) else { break }
            length += 1
            if length > maxTagLength { return nil }
            if !hasNonDigit {
                hasNonDigit =
                    scalar.isASCII
                    ? !(scalar.value >= 0x30 && scalar.value <= 0x39)
                    : scalar.properties.generalCategory != .decimalNumber
            }
            end += width
        }
        return length > 0 && hasNonDigit ? end : nil
    }

    // MARK: - URLs

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `http://` or `https://` (any case) not preceded by an ASCII letter or
    /// digit, up to whitespace, `<` or `>`; trailing `.,;:!?'"` trimmed, and
    /// `)` / `]` trimmed unless balanced inside the URL. Returns the end.
    private static func urlEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let count = bytes.count
        if start > 0 {
            let previous = bytes[start - 1]
            if previous < 0x80, isHandleByte(previous), previous != UInt8(ascii: "_") { return nil }
        }
        // Scheme.
        guard start + 7 <= count,
            lower(bytes[start + 1]) == UInt8(ascii: "t"),
            lower(bytes[start + 2]) == UInt8(ascii: "t"),
            lower(bytes[start + 3]) == UInt8(ascii: "p")
        else { return nil }
        var cursor = start + 4
        if lower(bytes[cursor]) == UInt8(ascii: "s") { cursor += 1 }
        guard cursor + 3 <= count,
            bytes[cursor] == UInt8(ascii: ":"),
            bytes[cursor + 1] == UInt8(ascii: "/"),
            bytes[cursor + 2] == UInt8(ascii: "/")
        else { return nil }
        let hostStart = cursor + 3

        // Extent.
        var end = hostStart
        var openParens = 0
        var closeParens = 0
        var openBrackets = 0
        var closeBrackets = 0
        while end < count {
            let byte = bytes[end]
            if byte < 0x80 {
                if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") { break }
                switch byte {
                case UInt8(ascii: "("): openParens += 1
                case UInt8(ascii: ")"): closeParens += 1
                case UInt8(ascii: "["): openBrackets += 1
                case UInt8(ascii: "]"): closeBrackets += 1
                default: break
                }
                end += 1
            } else {
                let (scalar, width) = decode(bytes, at: end)
                if scalar.properties.isWhitespace { break }
                end += width
            }
        }

        // Trailing punctuation.
        trimming: while end > hostStart {
            switch bytes[end - 1] {
            case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
                UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                end -= 1
            case UInt8(ascii: ")") where closeParens > openParens:
                closeParens -= 1
                end -= 1
            case UInt8(ascii: "]") where closeBrackets > openBrackets:
                closeBrackets -= 1
                end -= 1
            default:
                break trimming
            }
        }

        // A host must be there.
        guard end > hostStart else { return nil }
        switch bytes[hostStart] {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: ":"):
            return nil
        default:
            return end
        }
    }

    // MARK: - UTF-8

    /// Decodes the scalar starting at `index` (the input is valid UTF-8).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        var value: UInt32
        let width: Int
        if lead < 0xE0 {
            value = UInt32(lead & 0x1F)
            width = 2
        } else if lead < 0xF0 {
            value = UInt32(lead & 0x0F)
            width = 3
        } else {
            value = UInt32(lead & 0x07)
            width = 4
        }
        var position = index + 1
        while position < index + width, position < bytes.count {
            value = value << 6 | UInt32(bytes[position] & 0x3F)
            position += 1
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", width)
    }

    /// The scalar that ends right before `index`, if any.
    @inline(__always)
    static func scalar(before index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard index > 0 else { return nil }
        var start = index - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return decode(bytes, at: start).0
    }
}
