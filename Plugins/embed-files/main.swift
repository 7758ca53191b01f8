#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// embed-files OUTPUT STAMP NAME=FOLDER…: writes OUTPUT, a Swift file that declares, for each
// NAME, `DefaultSite.embedded<Name>: StaticString`, an archive of every file under FOLDER,
// which `DefaultSite` unpacks. Run by the EmbedDefaultSite build-tool plugin (which says
// why) on every build: OUTPUT is rewritten only when its bytes differ; STAMP every time.
//
// The archive, entry after entry: the path relative to FOLDER (`/`-separated), NUL, `t`
// (the bytes follow as they are: UTF-8 text) or `b` (they follow in base64), NUL, the count
// of bytes that follow in the archive, NUL, those bytes. One string literal per folder
// costs the compiler nearly nothing, optimized or not; an array of 260 values does not.
//
// Names starting with `.` are skipped (as the store and the theme's static files skip
// them), so are symbolic links and anything but folders and regular files. Files are in
// byte order of their paths, so the output is the same on every machine. Only the standard
// library and libc: the tool is compiled before anything else, on every clean build.

func fail(_ message: String) -> Never {
    let line = Array("embed-files: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return nil }
        if n == 0 { return bytes }
        bytes += chunk[0..<n]
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return false }
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        if n <= 0 {
            close(fd)
            return false
        }
        written += n
    }
    return close(fd) == 0 && rename(temporary, path) == 0
}

/// Every regular file under `folder`, relative paths in byte order.
func files(under folder: String) -> [(path: String, bytes: [UInt8])] {
    var found: [(path: String, bytes: [UInt8])] = []
    func walk(_ relative: String) {
        let directory = relative.isEmpty ? folder : folder + "/" + relative
        guard let stream = opendir(directory) else { fail("cannot list \(directory)") }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(stream)
        for name in names {
            let path = relative.isEmpty ? name : relative + "/" + name
            let full = folder + "/" + path
            var info = stat()
            guard lstat(full, &info) == 0 else { fail("cannot stat \(full)") }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: walk(path)
            case S_IFREG:
                guard let bytes = readFile(full) else { fail("cannot read \(full)") }
                found.append((path, bytes))
            default: continue
            }
        }
    }
    walk("")
    return found.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
}

func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        let n = min(3, bytes.count - i)
        var group = 0
        for k in 0..<3 { group = group << 8 | (k < n ? Int(bytes[i + k]) : 0) }
        for k in 0..<4 { out.append(k <= n ? alphabet[(group >> (18 - 6 * k)) & 63] : UInt8(ascii: "=")) }
        i += 3
    }
    return String(decoding: out, as: UTF8.self)
}

/// `text`'s contents in a Swift string literal: `"` and `\` escaped, and every scalar that
/// could be invisible or move text around (controls, NUL included, line and paragraph
/// separators, format characters such as bidirectional marks) written as `\u{…}`. The
/// literal's UTF-8 is `text`'s exactly.
func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}

/// The archive of `folder` (see the top of this file), escaped for a string literal.
func archive(_ folder: String) -> String {
    var out = ""
    for file in files(under: folder) {
        let (kind, body) =
            String(validating: file.bytes, as: UTF8.self).map { ("t", $0) } ?? ("b", base64(file.bytes))
        out += escaped(file.path + "\0" + kind + "\0" + String(body.utf8.count) + "\0" + body)
    }
    return out
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count > 2 else { fail("usage: embed-files OUTPUT STAMP NAME=FOLDER…") }
let (output, stamp) = (arguments[0], arguments[1])
var source = "// Generated by embed-files (the EmbedDefaultSite build-tool plugin) at build time: do not edit.\n\n"
source += "extension DefaultSite {\n"
for argument in arguments.dropFirst(2) {
    guard let equals = argument.firstIndex(of: "=") else { fail("expected NAME=FOLDER, not \(argument)") }
    let name = argument[..<equals]
    let folder = String(argument[argument.index(after: equals)...])
    let property = "embedded" + name.prefix(1).uppercased() + name.dropFirst()
    source += "    static let \(property): StaticString = \"\(archive(folder))\"\n"
}
source += "}\n"
if readFile(output) != Array(source.utf8), !writeFile(output, Array(source.utf8)) { fail("cannot write \(output)") }
guard writeFile(stamp, Array("\(time(nil))\n".utf8)) else { fail("cannot write \(stamp)") }
