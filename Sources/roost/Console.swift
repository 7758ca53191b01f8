import Support

#if canImport(Glibc)
import Glibc
#endif

/// Standard output for results, standard error for problems (SPEC 5).
enum Console {
    /// A line to standard output, control characters in it escaped (`TerminalText`): it
    /// may hold store text.
    static func out(_ text: String) {
        write(TerminalText.safe(text) + "\n", to: STDOUT_FILENO)
    }

    /// A line to standard error, control characters in it escaped, as `out`.
    static func error(_ text: String) {
        write(TerminalText.safe(text) + "\n", to: STDERR_FILENO)
    }

    /// Without a line break, as it is: for a progress bar redrawn in place (its own escapes).
    static func error(partial text: String) {
        write(text, to: STDERR_FILENO)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}

extension String {
    /// `1.234`.
    init(format3 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        self = "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
