/// Text made safe for a terminal: store text (an ID, a value quoted in a message) goes to
/// standard error, and an escape sequence in it could clear the screen, retitle the
/// window or write the clipboard (OSC 52).
///
/// C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional embedding,
/// override and isolate controls (which can show a path reversed) are written as `\u001b`,
/// as JSON writes them; everything else is kept.
public enum TerminalText {
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
