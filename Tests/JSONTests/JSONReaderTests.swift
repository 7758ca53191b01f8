import Testing

@testable import JSON

/// Walks `bytes` with a `JSONReader` fed `piece` bytes at a time (the buffer starts at
/// `chunk`): the outer object or array key by key or element by element, each value inside
/// whole. Returns the value rebuilt, or the error.
private func walk(_ bytes: [UInt8], chunk: Int = 16, piece: Int = 5) -> Result<JSONValue, JSONError> {
    var offset = 0
    var reader = JSONReader(chunk: chunk) { buffer in
        let n = min(piece, buffer.count, bytes.count - offset)
        for k in 0..<n { buffer[k] = bytes[offset + k] }
        offset += n
        return n
    }
    do throws(JSONError) {
        try reader.beginText()
        let value: JSONValue
        switch try reader.peek() {
        case UInt8(ascii: "{"):
            try reader.beginObject()
            var pairs: [(key: String, value: JSONValue)] = []
            while let key = try reader.nextKey() { pairs.append((key, try reader.readValue())) }
            value = .object(pairs)
        case UInt8(ascii: "["):
            try reader.beginArray()
            var values: [JSONValue] = []
            while try reader.nextElement() { values.append(try reader.readValue()) }
            value = .array(values)
        default:
            value = try reader.readValue()
        }
        try reader.endText()
        return .success(value)
    } catch {
        return .failure(error)
    }
}

private func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONError> {
    do throws(JSONError) { return .success(try JSONParser.parse(bytes)) } catch { return .failure(error) }
}

@Suite struct JSONReaderTests {
    static let text = Array(
        """
        \u{FEFF}{"users": {"u1": {"name": "앨리스 \\u00e9\\ud83d\\ude00", "n": 12345678901234567890, "ok": true}},
         "list": [1, -2.5e3, null, false, "x", {"deep": [[[]]]}],
         "empty": {}, "none": []}
        """.utf8)

    @Test func walksAsTheParserParses() {
        for (chunk, piece) in [(16, 1), (16, 5), (64, 64), (1 << 20, 1 << 20)] {
            #expect(walk(Self.text, chunk: chunk, piece: piece) == parse(Self.text), "chunk \(chunk), piece \(piece)")
        }
        for text in ["[]", "{}", " 42 ", "\"s\"", "[1,2,3]", "{\"a\":1}", "12"] {
            #expect(walk(Array(text.utf8), chunk: 16, piece: 1) == parse(Array(text.utf8)), "\(text)")
        }
    }

    /// Every truncation and many corruptions: the same error, at the same line, column and
    /// offset, as the whole text parsed at once, whatever the chunks.
    @Test func reportsTheParsersErrors() {
        var inputs: [[UInt8]] = []
        for end in 0..<Self.text.count { inputs.append(Array(Self.text[..<end])) }
        let replacements: [UInt8] = [0x2C, 0x7D, 0x5D, 0x22, 0x5C, 0x00, 0xFF, 0x0A, 0x20, 0x31, 0x3A, 0x7B]
        for position in stride(from: 0, to: Self.text.count, by: 3) {
            var bytes = Self.text
            bytes[position] = replacements[position % replacements.count]
            inputs.append(bytes)
        }
        inputs.append(Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8))
        inputs.append(Array("{\"a\": [\(String(repeating: "{\"b\":", count: 520))".utf8))
        inputs.append(Array("{\"a\": 1} x".utf8))
        inputs.append([0x5B, 0x31, 0x5D, 0x20, 0xFF])
        inputs.append(Array("\n\n  ".utf8))
        for (k, input) in inputs.enumerated() {
            let expected = parse(input)
            for (chunk, piece) in [(16, 1), (16, 7), (4096, 4096)] {
                #expect(
                    walk(input, chunk: chunk, piece: piece) == expected, "input \(k), chunk \(chunk), piece \(piece)")
            }
        }
    }
}
