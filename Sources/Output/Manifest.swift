import Support

/// The record of what the last build wrote: `.roost-manifest` in the output folder.
///
/// Format (UTF-8, one entry a line, sorted by the path's bytes):
///
///     # roost-manifest 2
///     # inputs <token>                        (optional)
///     <hash: 16 hex digits> <size: decimal bytes> <fingerprint: 16 hex digits or -> <path relative to the output folder>
///
/// The fingerprint, when the builder gave one, stands for everything the file was made from:
/// a later build with the same fingerprint may keep the file without producing it again.
/// Version 1 manifests (no fingerprint column) are still read.
///
/// The inputs token, when the builder gave one, stands for everything the whole build was made
/// from (store, templates, options): a later build with the same token has nothing to do.
/// It is written only by a commit that finished; older readers skip it as a comment.
///
/// An entry whose hash is `-` is "dirty": the file is ours but its content is unknown
/// (it was being replaced when a commit was interrupted); it never counts as unchanged.
/// Lines that do not parse, or whose path breaks `PathRules`, are ignored.
public struct ManifestEntry: Equatable, Sendable {
    public var hash: UInt64
    public var size: Int
    public var known: Bool
    public var fingerprint: UInt64?

    public init(hash: UInt64, size: Int, fingerprint: UInt64? = nil) {
        self.hash = hash
        self.size = size
        self.known = true
        self.fingerprint = fingerprint
    }
    public static let dirty = ManifestEntry(unknown: ())
    private init(unknown: Void) {
        hash = 0
        size = 0
        known = false
        fingerprint = nil
    }

    func matches(hash: UInt64, size: Int) -> Bool { known && self.hash == hash && self.size == size }
}

public enum Manifest {
    public static let fileName = ".roost-manifest"
    static let header = "# roost-manifest 2\n"

    static let inputsPrefix = "# inputs "

    public static func encode(_ entries: [String: ManifestEntry], inputs: String? = nil) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(header.utf8.count + entries.count * 64)
        appendHeader(inputs: inputs, to: &out)
        for path in sortedPaths(entries.keys) { appendLine(path, entries[path]!, to: &out) }
        return out
    }

    /// Writes the manifest of `paths` (in byte order, each once) with `entry` of each to
    /// `fd`, through a 1 MiB buffer: at two million files, the manifest whole in memory was
    /// a few hundred megabytes at a build's peak. Returns 0, or the errno of a failed write.
    static func write(
        _ paths: some Sequence<String>, entry: (String) -> ManifestEntry, inputs: String?, to fd: Int32
    ) -> Int32 {
        let flushAt = 1 << 20
        var out = [UInt8]()
        out.reserveCapacity(flushAt + 4096)
        appendHeader(inputs: inputs, to: &out)
        for path in paths {
            appendLine(path, entry(path), to: &out)
            if out.count >= flushAt {
                let error = out.withUnsafeBytes { writeAll(fd, $0) }
                if error != 0 { return error }
                out.removeAll(keepingCapacity: true)
            }
        }
        return out.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// `paths` in the manifest's order: by their bytes.
    static func sortedPaths(_ paths: some Sequence<String>) -> [String] {
        paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func appendHeader(inputs: String?, to out: inout [UInt8]) {
        out.append(contentsOf: header.utf8)
        if let inputs, !inputs.contains(where: \.isNewline) {
            out.append(contentsOf: (inputsPrefix + inputs + "\n").utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendLine(_ path: String, _ entry: ManifestEntry, to out: inout [UInt8]) {
        func appendHex(_ value: UInt64) {
            for shift in stride(from: 60, through: 0, by: -4) {
                out.append(hexDigits[Int((value >> UInt64(shift)) & 0xF)])
            }
        }
        if entry.known {
            appendHex(entry.hash)
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: String(entry.size).utf8)
            out.append(UInt8(ascii: " "))
            if let fingerprint = entry.fingerprint { appendHex(fingerprint) } else { out.append(UInt8(ascii: "-")) }
        } else {
            out.append(contentsOf: "- 0 -".utf8)
        }
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: path.utf8)
        out.append(UInt8(ascii: "\n"))
    }

    /// The inputs token of a manifest, if it has one (on the line after the header).
    public static func inputs(of bytes: [UInt8]) -> String? {
        guard bytes.starts(with: header.utf8) else { return nil }
        let rest = bytes[header.utf8.count...]
        guard rest.starts(with: inputsPrefix.utf8) else { return nil }
        let start = rest.startIndex + inputsPrefix.utf8.count
        let end = rest[start...].firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        return String(decoding: rest[start..<end], as: UTF8.self)
    }

    public static func decode(_ bytes: [UInt8]) -> [String: ManifestEntry] {
        var entries = [String: ManifestEntry]()
        entries.reserveCapacity(bytes.count { $0 == UInt8(ascii: "\n") })
        let withFingerprints = bytes.starts(with: header.utf8)
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if let (path, entry) = parseLine(bytes[lineStart..<lineEnd], withFingerprint: withFingerprints) {
                entries[path] = entry
            }
            lineStart = lineEnd + 1
        }
        return entries
    }

    private static func parseLine(_ line: ArraySlice<UInt8>, withFingerprint: Bool) -> (String, ManifestEntry)? {
        guard line.first != UInt8(ascii: "#") else { return nil }
        // The fields before the path (which may itself hold spaces), read in place.
        var rest = line
        func field() -> ArraySlice<UInt8>? {
            guard let space = rest.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            defer { rest = rest[(space + 1)...] }
            return rest[rest.startIndex..<space]
        }
        guard let hashField = field(), let sizeField = field() else { return nil }
        let fingerprintField = withFingerprint ? field() : nil
        if withFingerprint && fingerprintField == nil { return nil }
        guard let size = decimal(sizeField) else { return nil }
        let path = String(decoding: rest, as: UTF8.self)
        guard PathRules.problem(with: path) == nil else { return nil }
        if hashField.elementsEqual("-".utf8) { return (path, .dirty) }
        guard let hash = hex(hashField) else { return nil }
        var fingerprint: UInt64?
        if let fingerprintField, !fingerprintField.elementsEqual("-".utf8) {
            guard let value = hex(fingerprintField) else { return nil }
            fingerprint = value
        }
        return (path, ManifestEntry(hash: hash, size: size, fingerprint: fingerprint))
    }

    /// Exactly 16 lowercase or uppercase hex digits.
    private static func hex(_ field: ArraySlice<UInt8>) -> UInt64? {
        guard field.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in field {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// A non-negative decimal that fits in an Int (at most 18 digits).
    private static func decimal(_ field: ArraySlice<UInt8>) -> Int? {
        guard !field.isEmpty, field.count <= 18 else { return nil }
        var value = 0
        for byte in field {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
