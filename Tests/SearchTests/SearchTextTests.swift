import Search
import Testing

/// SPEC 8's word rule and folding, as the browser applies them to queries.
struct SearchTextTests {
    @Test func latinWordsAreRunsOfLettersDigitsAndUnderscoreFolded() {
        #expect(
            SearchText.words("Hello, SwiftUI world! it's 2024 snake_case #tag @Mina https://x.com/a")
                == [
                    "hello", "swiftui", "world", "it", "s", "2024", "snake_case", "tag", "mina", "https", "x", "com",
                    "a",
                ])
    }

    @Test func hangulWordsKeepTheirParticles() {
        // A term is a prefix of a word: 서울 must find 서울에서, so the particle stays in the word.
        #expect(SearchText.words("서울에서 만나요. 부산은?") == ["서울에서", "만나요", "부산은"])
    }

    @Test func mixedScriptsSplitOnlyAtNonWordCharacters() {
        #expect(
            SearchText.words("Swift로 앱을 만들다 東京タワー Ελληνικά—test") == [
                "swift로", "앱을", "만들다", "東京タワー", "ελληνικά", "test",
            ])
    }

    @Test func decomposedTextIsComposedFirst() {
        // NFD é and NFD 한 (conjoining jamo) fold to their precomposed forms.
        #expect(SearchText.fold("Cafe\u{301}") == "caf\u{E9}")
        #expect(SearchText.fold("\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}") == "한글")
        #expect(SearchText.words("e\u{301}te\u{301}") == ["\u{E9}t\u{E9}"])
    }

    @Test func caseIsFoldedScalarByScalarWithoutContext() {
        #expect(SearchText.fold("ÀÉÎ ΣΟΦΊΑ σοφίας") == "àéî σοφία σοφίασ")
        #expect(SearchText.fold("İ") == "i\u{307}")  // what toLowerCase() gives too
        #expect(SearchText.fold("ǅ") == "ǆ")
    }

    @Test func marksAndOtherDigitsAreWordCharacters() {
        #expect(SearchText.words("नमस्ते ٣٤ x²") == ["नमस्ते", "٣٤", "x²"])
        #expect(SearchText.words("a-b a.b a\u{200B}b") == ["a", "b", "a", "b", "a", "b"])
    }
}

struct PostingCodeTests {
    @Test func gapsRoundTrip() {
        let numbers: [Int32] = [0, 1, 2, 5, 31, 32, 33, 1000, 40_000, 99_999]
        let code = PostingCode.encode(numbers, count: 100_000)
        #expect(code.first != UInt8(ascii: "~"))
        #expect(PostingCode.decode(code) == numbers)
        #expect(String(decoding: PostingCode.encode([0, 1, 2, 3], count: 1000), as: UTF8.self) == "0000")
    }

    @Test func denseListsTakeBitsAndRoundTrip() {
        let numbers = (0..<1000).filter { $0 % 3 != 0 }.map(Int32.init)
        let code = PostingCode.encode(numbers, count: 1000)
        #expect(code.first == UInt8(ascii: "~"))
        #expect(code.count == 1 + 167)
        #expect(PostingCode.decode(code) == numbers)
    }

    /// Base 32, most significant digit first, every digit but the last offset by 32.
    @Test func gapsAreWrittenDigitByDigit() {
        // Gaps 0, 31, 1067 (= 1·1024 + 1·32 + 11).
        #expect(String(decoding: PostingCode.encode([0, 32, 1100], count: 100_000), as: UTF8.self) == "0VXXB")
    }

    @Test func emptyListIsEmpty() {
        #expect(PostingCode.encode([], count: 10).isEmpty)
    }
}
