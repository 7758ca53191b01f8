import Support
import Testing

/// A document ID is its bytes: `ExactText` is equal and hashes alike exactly when the bytes
/// are the same, whatever the string's storage.
@Suite struct ExactTextTests {
    @Test func twoUnicodeFormsAreTwoKeys() {
        let (composed, decomposed) = (ExactText("caf\u{E9}"), ExactText("cafe\u{301}"))
        #expect(composed.text == decomposed.text, "Swift calls them equal")
        #expect(composed != decomposed && Set([composed, decomposed]).count == 2)
    }

    @Test func theSameBytesHashAlikeInAnyStorage() {
        let small = "abc"
        var large = ""
        large.reserveCapacity(64)
        large += "abc"
        #expect(ExactText(small) == ExactText(large))
        #expect(ExactText(small).hashValue == ExactText(large).hashValue)
        #expect([ExactText(small): 1][ExactText(large)] == 1)
    }
}
