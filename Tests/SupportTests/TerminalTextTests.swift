import Support
import Testing

@Suite struct TerminalTextTests {
    @Test func controlsAreWrittenAsEscapesAndTextIsKept() {
        #expect(TerminalText.safe("plain 한국어 text\twith tab\nand line") == "plain 한국어 text\twith tab\nand line")
        #expect(TerminalText.safe("\u{1B}[2J\u{1B}]52;c;cHduZWQ=\u{07}") == "\\u001b[2J\\u001b]52;c;cHduZWQ=\\u0007")
        #expect(TerminalText.safe("a\rb\u{7F}c\u{9B}d\u{0}") == "a\\u000db\\u007fc\\u009bd\\u0000")
        #expect(TerminalText.safe("file\u{202E}txt.exe\u{2066}") == "file\\u202etxt.exe\\u2066")
    }
}
