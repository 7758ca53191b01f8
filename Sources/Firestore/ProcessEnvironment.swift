#if canImport(Glibc)
import Glibc
#endif

/// The process's environment, as a dictionary.
package enum ProcessEnvironment {
    package static var current: [String: String] {
        var out: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                out[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return out
    }
}
