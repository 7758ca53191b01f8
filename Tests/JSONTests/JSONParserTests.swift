import Foundation
import Testing

@testable import JSON

private func parse(_ s: String) throws(JSONError) -> JSONValue { try JSONParser.parse(s) }

private func failure(_ bytes: [UInt8]) -> JSONError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

private func failure(_ s: String) -> JSONError? { failure(Array(s.utf8)) }

@Suite struct JSONParserTests {
    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse(" false\n") == .bool(false))
        #expect(try parse("\"hi\"") == .string("hi"))
        #expect(try parse("0") == .integer(0))
        #expect(try parse("-0") == .integer(0))
        #expect(try parse("42") == .integer(42))
    }

    @Test func containersKeepOrderAndDuplicates() throws {
        let v = try parse(#"{"b": 1, "a": [1, 2.5, "x", null, {}], "b": 3, "e": []}"#)
        guard case .object(let pairs) = v else {
            Issue.record("not an object")
            return
        }
        #expect(pairs.map(\.key) == ["b", "a", "b", "e"])
        #expect(v["b"] == .integer(3))
        #expect(v["a"] == .array([.integer(1), .double(2.5), .string("x"), .null, .object([])]))
        #expect(v["e"] == .array([]))
        #expect(v["zzz"] == nil)
    }

    @Test func numbers() throws {
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("-9223372036854775808") == .integer(.min))
        #expect(try parse("9223372036854775808") == .double(9223372036854775808.0))
        #expect(try parse("-9223372036854775809") == .double(-9223372036854775809.0))
        #expect(try parse("1.5") == .double(1.5))
        #expect(try parse("1e3") == .double(1000))
        #expect(try parse("1E+3") == .double(1000))
        #expect(try parse("-2.5e-3") == .double(-0.0025))
        #expect(try parse("37.5665") == .double(37.5665))
        #expect(try parse("1.0") == .double(1.0))
        #expect(try parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func badNumbers() {
        #expect(failure("01")?.message == "invalid number: leading zeros are not allowed")
        #expect(failure("-")?.message == "unexpected end of input, expected a digit after '-'")
        #expect(failure("1.")?.message == "unexpected end of input, expected a digit after '.'")
        #expect(failure("1.e3")?.message == "unexpected character 'e', expected a digit after '.'")
        #expect(failure("1e")?.message == "unexpected end of input, expected a digit in the exponent")
        #expect(failure("+1")?.message == "unexpected character '+'")
        #expect(failure(".5")?.message == "unexpected character '.'")
        #expect(failure("1e999")?.message.hasPrefix("number out of range") == true)
        #expect(failure("NaN")?.message == "unexpected character 'N'")
        #expect(failure("Infinity")?.message == "unexpected character 'I'")
        #expect(failure("-Infinity")?.message == "unexpected character 'I', expected a digit after '-'")
        #expect(failure("0x10") != nil)
    }

    @Test func escapes() throws {
        #expect(try parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) == .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"))
        #expect(try parse(#""\u0041\u00e9\u4e2d\uD55C""#) == .string("Aé中한"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse(#""x\u0041""#) == .string("xA"))
    }

    @Test func surrogatePairs() throws {
        #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try parse(#""a\ud83d\ude00b""#) == .string("a😀b"))
        #expect(try parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
    }

    @Test func loneSurrogatesAreErrors() {
        let high = failure(#"["\uD800"]"#)
        #expect(high?.message.hasPrefix("lone surrogate \\uD800") == true)
        #expect(high?.column == 3)
        #expect(failure(#""\uDC00""#)?.message.hasPrefix("lone surrogate \\uDC00") == true)
        #expect(failure(#""\uD800\u0041""#)?.message.hasPrefix("lone surrogate \\uD800") == true)
        #expect(failure(#""\uD800x""#) != nil)
    }

    @Test func badEscapes() {
        #expect(failure(#""\x""#)?.message == "invalid escape '\\x' in string")
        #expect(failure(#""\u12G4""#)?.message == "invalid \\u escape: expected 4 hexadecimal digits")
        #expect(failure(#""\u12"#)?.message == "unterminated \\u escape")
        #expect(failure(#""\u12""#)?.message == "invalid \\u escape: expected 4 hexadecimal digits")
    }

    @Test func rawUTF8Strings() throws {
        #expect(try parse("\"김민준 🐦 café\"") == .string("김민준 🐦 café"))
        #expect(try parse("{\"이름\": \"값\"}")["이름"] == .string("값"))
    }

    @Test func errorPositions() {
        // Each: input, line, column, message.
        let cases: [(String, Int, Int, String)] = [
            ("{\n  \"a\": 1,\n  \"b\": x\n}", 3, 8, "unexpected character 'x'"),
            ("[1, 2,]", 1, 7, "trailing comma before ']'"),
            ("{\"a\": 1,}", 1, 9, "trailing comma before '}'"),
            ("{\"a\" 1}", 1, 6, "unexpected character '1', expected ':' after the key"),
            ("{\"a\": 1 \"b\": 2}", 1, 9, "unexpected character '\"', expected ',' or '}'"),
            ("[1 2]", 1, 4, "unexpected character '2', expected ',' or ']'"),
            ("{a: 1}", 1, 2, "unexpected character 'a', expected a string key"),
            ("{\"a\": 1} x", 1, 10, "trailing characters after the document"),
            ("{\"a\": 1}{}", 1, 9, "trailing characters after the document"),
            ("\n\n   \"abc", 3, 4, "unterminated string"),
            ("[\"a\nb\"]", 1, 4, "unescaped control character U+000A in string"),
            ("// c\n{}", 1, 1, "unexpected character '/'"),
            ("{\"a\": tru}", 1, 10, "unexpected character '}'"),
            ("[1,", 1, 4, "unexpected end of input, expected a value"),
            ("{\"k\": [1,", 1, 10, "unexpected end of input, expected a value"),
            ("", 1, 1, "unexpected end of input (the document is empty)"),
            ("   ", 1, 4, "unexpected end of input (the document is empty)"),
            ("{'a': 1}", 1, 2, "unexpected character \"'\", expected a string key"),
            ("\"한국어\" x", 1, 7, "trailing characters after the document"),
            ("[\"한\",\n  é]", 2, 3, "unexpected character 'é'"),
            ("{\r\n\"a\":\r\n ?}", 3, 2, "unexpected character '?'"),
            ("\t[\u{1}]", 1, 3, "unexpected character U+0001"),
        ]
        for (input, line, column, message) in cases {
            let e = failure(input)
            #expect(e != nil, "\(input.debugDescription) should fail")
            #expect(e?.line == line, "\(input.debugDescription): line")
            #expect(e?.column == column, "\(input.debugDescription): column")
            #expect(e?.message == message, "\(input.debugDescription): message")
            #expect(e?.kind == .syntax)
        }
        #expect(failure("[\n x]")?.description == "2:2: unexpected character 'x'")
    }

    @Test func invalidUTF8() {
        // In a string.
        var e = failure(Array("{\"a\": \"ok".utf8) + [0xFF] + Array("\"}".utf8))
        #expect(e?.kind == .invalidUTF8)
        #expect(e?.message == "invalid UTF-8 (byte 0xFF)")
        #expect(e?.line == 1 && e?.column == 10)
        // Truncated sequence, overlong encoding, encoded surrogate, beyond U+10FFFF, stray continuation.
        for bad: [UInt8] in [
            [0xC3], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80],
        ] {
            e = failure([0x22] + bad + [0x22])
            #expect(e?.kind == .invalidUTF8, "\(bad)")
            #expect(e?.column == 2, "\(bad)")
        }
        // In a string after an escape.
        e = failure(Array("\"\\n".utf8) + [0xFE] + [0x22])
        #expect(e?.kind == .invalidUTF8)
        // Outside a string.
        e = failure(Array("[1,\n ".utf8) + [0xFF] + Array("]".utf8))
        #expect(e?.kind == .invalidUTF8)
        #expect(e?.line == 2 && e?.column == 2)
        // After the document.
        e = failure(Array("{} ".utf8) + [0xC3, 0x28])
        #expect(e?.kind == .invalidUTF8)
        #expect(e?.column == 4)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8)) == .object([("a", .integer(1))]))
        // Only at the start.
        #expect(failure(Array("[".utf8) + [0xEF, 0xBB, 0xBF] + Array("]".utf8)) != nil)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let e = failure(deep)
        #expect(e?.kind == .tooDeep)
        #expect(e?.message == "nesting deeper than 512 levels")
        #expect(e?.column == 513)
        let deepObjects = String(repeating: "{\"a\":", count: 100_000)
        #expect(failure(deepObjects)?.kind == .tooDeep)
        // 512 levels are fine.
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect((try? parse(ok)) != nil)
        #expect(failure("[" + ok + "]")?.kind == .tooDeep)
    }

    @Test func parsesFromBuffersAndArrays() throws {
        let bytes = Array("[1]".utf8)
        let v = try bytes.withUnsafeBytes { buffer in try JSONParser.parse(buffer) }
        #expect(v == .array([.integer(1)]))
        #expect(try JSONParser.parse(bytes) == v)
        #expect(failure([]) != nil)
    }
}

@Suite struct JSONWriterTests {
    @Test func prettyLayout() {
        let v: JSONValue = .object([
            ("b", .integer(1)),
            ("a", .array([.bool(true), .null, .double(2.5)])),
            ("e", .object([])),
            ("f", .array([])),
            ("o", .object([("x", .string("y"))])),
        ])
        #expect(
            JSONWriter.string(v) == """
                {
                  "b": 1,
                  "a": [
                    true,
                    null,
                    2.5
                  ],
                  "e": {},
                  "f": [],
                  "o": {
                    "x": "y"
                  }
                }
                """)
        #expect(JSONWriter.string(v, pretty: false) == #"{"b":1,"a":[true,null,2.5],"e":{},"f":[],"o":{"x":"y"}}"#)
    }

    @Test func escaping() {
        let s = "q\"b\\s/\n\r\t\u{8}\u{C}\u{0}\u{1F}é😀"
        #expect(JSONWriter.string(.string(s)) == #""q\"b\\s/\n\r\t\b\f\u0000\u001fé😀""#)
    }

    @Test func roundTrip() throws {
        let v: JSONValue = .object([
            ("text", .string("한국어 \"quoted\" \\ \n\u{0} 😀 </script>")),
            ("int", .integer(.min)),
            ("max", .integer(.max)),
            ("double", .double(0.1)),
            ("whole", .double(3.0)),
            ("tiny", .double(1e-300)),
            ("big", .double(1.7976931348623157e308)),
            ("neg", .double(-2.5e-7)),
            ("nested", .array([.object([("k", .array([.array([])]))]), .null, .bool(false)])),
            ("dup", .integer(1)),
            ("dup", .integer(2)),
        ])
        for pretty in [true, false] {
            let bytes = JSONWriter.write(v, pretty: pretty)
            #expect(try JSONParser.parse(bytes) == v)
        }
        #expect(JSONWriter.string(.double(.nan)) == "null")
    }
}

@Suite struct JSONFoundationTests {
    @Test func parsesData() throws {
        #expect(try JSONParser.parse(Data("{\"a\": [true]}".utf8)) == .object([("a", .array([.bool(true)]))]))
        #expect(throws: JSONError.self) { try JSONParser.parse(Data("{".utf8)) }
    }
}

@Suite struct JSONRandomRoundTripTests {
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let pieces: [String] = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "한", "😀", "\u{2028}", "\u{7F}", "e\u{301}",
    ]

    func randomValue(_ rng: inout Rng, depth: Int) -> JSONValue {
        switch rng.below(depth > 4 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(rng.below(2) == 0)
        case 2: return .integer(Int64(bitPattern: rng.next() << 11) >> Int64(rng.below(60)))
        case 3:
            let d = Double(bitPattern: rng.next() << 11 | rng.next() >> 42)
            return .double(d.isFinite ? d : 0.5)
        case 4, 5:
            var s = ""
            for _ in 0..<rng.below(12) { s += Self.pieces[rng.below(Self.pieces.count)] }
            return .string(s)
        case 6: return .array((0..<rng.below(5)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            return .object(
                (0..<rng.below(5)).map { k in
                    ("k\(k)\(Self.pieces[rng.below(Self.pieces.count)])", randomValue(&rng, depth: depth + 1))
                })
        }
    }

    @Test func randomValuesRoundTrip() throws {
        var rng = Rng(state: 7)
        for _ in 0..<500 {
            let v = randomValue(&rng, depth: 0)
            #expect(try JSONParser.parse(JSONWriter.write(v)) == v)
            #expect(try JSONParser.parse(JSONWriter.write(v, pretty: false)) == v)
        }
    }

    @Test func truncatedDocumentsFailCleanly() {
        var rng = Rng(state: 11)
        for _ in 0..<100 {
            let bytes = JSONWriter.write(.array([randomValue(&rng, depth: 0), .object([("x", .string("y"))])]))
            for cut in stride(from: 0, to: bytes.count - 1, by: max(1, bytes.count / 20)) {
                #expect(throws: JSONError.self) { try JSONParser.parse(Array(bytes[0..<cut])) }
            }
        }
    }
}
