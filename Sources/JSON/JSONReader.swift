/// Reads one JSON text from a source a chunk at a time, one piece at a time: the caller
/// walks the outer objects and arrays key by key and element by element, and takes each
/// value inside whole (`readValue`), so a large file is never one tree, nor one buffer.
///
/// Every error is the one `JSONParser.parse` reports for the same bytes, at the same line,
/// column and offset (counted from the start of the text): each step runs the parser's own
/// code on the bytes in hand, and a step that fails or reaches the end of them is run again
/// with more, so an error is only reported once the bytes up to the end of the text are in.
package struct JSONReader: ~Copyable {
    /// Fills the buffer it is given from the start; returns the number of bytes put there,
    /// 0 at the end of the source (or on a failure the caller keeps track of).
    package typealias Fill = (UnsafeMutableRawBufferPointer) -> Int

    private let fill: Fill
    private var buffer: UnsafeMutablePointer<UInt8>  // raw: the parser reads it by pointer
    private var capacity: Int
    /// Bytes in the buffer.
    private var count = 0
    /// The position in the buffer.
    private var i = 0
    private var depth = 0
    /// True once `fill` returned 0: the buffer holds the rest of the text.
    private var atEnd = false
    /// Where `buffer[0]` is in the text.
    private var origin = TextOrigin()
    /// One per open object or array: true until its first key or element is read.
    private var first: [Bool] = []

    /// `chunk` is the buffer's first size; it grows to hold the largest value read whole.
    package init(chunk: Int = 1 << 20, fill: @escaping Fill) {
        self.fill = fill
        capacity = max(chunk, 16)
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// The byte offset in the text of the next thing to read.
    package var offset: Int { origin.offset + i }

    /// Runs `step` on the bytes in hand, again with more whenever it failed or stopped at
    /// their end before the end of the text (a number may go on in the next chunk).
    private mutating func step<R>(_ step: (inout Parser) throws(JSONError) -> R) throws(JSONError) -> R {
        while true {
            var parser = Parser(base: buffer, count: count, origin: origin)
            parser.i = i
            parser.depth = depth
            do {
                let result = try step(&parser)
                if parser.i < count || atEnd {
                    i = parser.i
                    depth = parser.depth
                    return result
                }
            } catch {
                if atEnd { throw error }
            }
            refill()
        }
    }

    /// Drops the bytes before `i`, then reads until the buffer is full (grown if it was) or
    /// the source ends.
    private mutating func refill() {
        origin.advance(over: UnsafeBufferPointer(start: buffer, count: i))
        if i > 0 {
            (buffer).update(from: buffer + i, count: count - i)
            count -= i
            i = 0
        }
        if count == capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        while count < capacity && !atEnd {
            let n = fill(UnsafeMutableRawBufferPointer(start: buffer + count, count: capacity - count))
            if n <= 0 { atEnd = true } else { count += n }
        }
    }

    /// Starts the text: skips a byte order mark and white space; an empty text is an error.
    package mutating func beginText() throws(JSONError) {
        refill()
        if count >= 3 && buffer[0] == utf8BOM.0 && buffer[1] == utf8BOM.1 && buffer[2] == utf8BOM.2 {
            i = 3
        }
        if count == 0 {
            throw JSONError(message: "unexpected end of input (the document is empty)", line: 1, column: 1, offset: 0)
        }
        try step { (p: inout Parser) throws(JSONError) in
            p.skipWhitespace()
            if p.i >= p.count { throw p.error("unexpected end of input (the document is empty)", at: p.i) }
        }
    }

    /// Ends the text: only white space may follow the value.
    package mutating func endText() throws(JSONError) {
        try step { (p: inout Parser) throws(JSONError) in
            p.skipWhitespace()
            if p.i < p.count {
                if let bad = p.firstInvalidUTF8(from: p.i) { throw p.invalidUTF8(at: bad) }
                throw p.error("trailing characters after the document", at: p.i)
            }
        }
    }

    /// The first byte of the next value (`{`, `[`, `"`, …), or nil at the end of the text;
    /// nothing is consumed.
    package mutating func peek() throws(JSONError) -> UInt8? {
        try step { (p: inout Parser) throws(JSONError) -> UInt8? in
            p.skipWhitespace()
            return p.i < p.count ? p.base[p.i] : nil
        }
    }

    /// The next value, whole.
    package mutating func readValue() throws(JSONError) -> JSONValue {
        try step { (p: inout Parser) throws(JSONError) in try p.parseValue() }
    }

    /// Enters the object that is the next value (`peek()` said `{`); then `nextKey()`
    /// until it returns nil.
    package mutating func beginObject() throws(JSONError) {
        try begin(UInt8(ascii: "{"))
    }

    /// Enters the array that is the next value (`peek()` said `[`); then `nextElement()`
    /// until it returns false.
    package mutating func beginArray() throws(JSONError) {
        try begin(UInt8(ascii: "["))
    }

    private mutating func begin(_ open: UInt8) throws(JSONError) {
        try step { (p: inout Parser) throws(JSONError) in
            p.skipWhitespace()
            guard p.i < p.count, p.base[p.i] == open else { throw p.unexpected(at: p.i) }
            try p.enter()
            p.i += 1
        }
        first.append(true)
    }

    /// The next key of the open object, the reader then at its value (which must be read
    /// next); nil at the object's end, which is left.
    package mutating func nextKey() throws(JSONError) -> String? {
        let isFirst = first[first.count - 1]
        let key = try step { (p: inout Parser) throws(JSONError) -> String? in
            // What `Parser.parseObject` does between two values, with its messages.
            p.skipWhitespace()
            if isFirst {
                if p.i < p.count && p.base[p.i] == UInt8(ascii: "}") {
                    p.i += 1
                    p.depth -= 1
                    return nil
                }
            } else {
                guard p.i < p.count else { throw p.error("unexpected end of input, expected ',' or '}'", at: p.i) }
                let b = p.base[p.i]
                if b == UInt8(ascii: ",") {
                    p.i += 1
                } else if b == UInt8(ascii: "}") {
                    p.i += 1
                    p.depth -= 1
                    return nil
                } else {
                    throw p.unexpected(at: p.i, expected: "',' or '}'")
                }
            }
            p.skipWhitespace()
            guard p.i < p.count else { throw p.error("unexpected end of input, expected a string key", at: p.i) }
            if p.base[p.i] != UInt8(ascii: "\"") {
                if p.base[p.i] == UInt8(ascii: "}") { throw p.error("trailing comma before '}'", at: p.i) }
                throw p.unexpected(at: p.i, expected: "a string key")
            }
            let key = try p.parseString()
            p.skipWhitespace()
            guard p.i < p.count, p.base[p.i] == UInt8(ascii: ":") else {
                throw p.unexpected(at: p.i, expected: "':' after the key")
            }
            p.i += 1
            p.skipWhitespace()
            return key
        }
        if key == nil { first.removeLast() } else { first[first.count - 1] = false }
        return key
    }

    /// True when the open array has another element, the reader then at it (which must be
    /// read next); false at the array's end, which is left.
    package mutating func nextElement() throws(JSONError) -> Bool {
        let isFirst = first[first.count - 1]
        let more = try step { (p: inout Parser) throws(JSONError) -> Bool in
            // What `Parser.parseArray` does between two values, with its messages.
            p.skipWhitespace()
            if isFirst {
                if p.i < p.count && p.base[p.i] == UInt8(ascii: "]") {
                    p.i += 1
                    p.depth -= 1
                    return false
                }
            } else {
                guard p.i < p.count else { throw p.error("unexpected end of input, expected ',' or ']'", at: p.i) }
                let b = p.base[p.i]
                if b == UInt8(ascii: ",") {
                    p.i += 1
                } else if b == UInt8(ascii: "]") {
                    p.i += 1
                    p.depth -= 1
                    return false
                } else {
                    throw p.unexpected(at: p.i, expected: "',' or ']'")
                }
            }
            p.skipWhitespace()
            if p.i < p.count && p.base[p.i] == UInt8(ascii: "]") {
                throw p.error("trailing comma before ']'", at: p.i)
            }
            return true
        }
        if more { first[first.count - 1] = false } else { first.removeLast() }
        return more
    }
}
