import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// Lines that do not parse, or whose path breaks `PathRules`, are ignored, and so is a last line
/// without its newline. A path listed twice counts with its last line: a commit's intent may
/// be lines appended to the manifest it replaces.
package struct ManifestEntry: Equatable, Sendable {
    package var hash: UInt64
    package var size: Int
    package var known: Bool
    package var fingerprint: UInt64?

    package init(hash: UInt64, size: Int, fingerprint: UInt64? = nil) {
        self.hash = hash
        self.size = size
        self.known = true
        self.fingerprint = fingerprint
    }
    package static let dirty = ManifestEntry(unknown: ())
    private init(unknown: Void) {
        hash = 0
        size = 0
        known = false
        fingerprint = nil
    }

    func matches(hash: UInt64, size: Int) -> Bool { known && self.hash == hash && self.size == size }
}

package enum Manifest {
    package static let fileName = ".roost-manifest"
    static let header = "# roost-manifest 2\n"

    static let inputsPrefix = "# inputs "

    package static func encode(_ entries: [String: ManifestEntry], inputs: String? = nil) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(header.utf8.count + entries.count * 64)
        appendHeader(inputs: inputs, to: &out)
        for path in entries.keys.sorted(by: codePointOrder) { appendLine(path, entries[path]!, to: &out) }
        return out
    }

    static func appendHeader(inputs: String?, to out: inout [UInt8]) {
        out.append(contentsOf: header.utf8)
        if let inputs, !inputs.contains(where: \.isNewline) {
            out.append(contentsOf: (inputsPrefix + inputs + "\n").utf8)
        }
    }

    /// Appends the line of `path`. (Fields are formatted in a small buffer and copied at once:
    /// a commit writes a line for every file of the site.)
    static func appendLine(_ path: String, _ entry: ManifestEntry, to out: inout [UInt8]) {
        // Hash, size (at most 19 digits), fingerprint and three spaces: at most 55 bytes.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { fields in
            var n = 0
            func put(_ byte: UInt8) {
                fields[n] = byte
                n += 1
            }
            func putHex(_ value: UInt64) {
                for shift in stride(from: 60, through: 0, by: -4) {
                    let digit = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xF
                    put(UInt8(ascii: "0") &+ digit &+ (digit > 9 ? UInt8(ascii: "a") - UInt8(ascii: "9") - 1 : 0))
                }
            }
            if entry.known {
                putHex(entry.hash)
                put(UInt8(ascii: " "))
                var digits = 1
                var rest = entry.size / 10
                while rest > 0 {
                    digits += 1
                    rest /= 10
                }
                var value = entry.size
                for k in stride(from: n + digits - 1, through: n, by: -1) {
                    fields[k] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                n += digits
                put(UInt8(ascii: " "))
                if let fingerprint = entry.fingerprint { putHex(fingerprint) } else { put(UInt8(ascii: "-")) }
            } else {
                for byte in "- 0 -".utf8 { put(byte) }
            }
            put(UInt8(ascii: " "))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: fields[0..<n]))
        }
        if path.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
            out.append(contentsOf: path.utf8)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The inputs token of a manifest, if it has one (on the line after the header).
    package static func inputs(of bytes: [UInt8]) -> String? {
        guard bytes.starts(with: header.utf8) else { return nil }
        let rest = bytes[header.utf8.count...]
        guard rest.starts(with: inputsPrefix.utf8) else { return nil }
        let start = rest.startIndex + inputsPrefix.utf8.count
        let end = rest[start...].firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        return String(decoding: rest[start..<end], as: UTF8.self)
    }

    package static func decode(_ bytes: [UInt8]) -> [String: ManifestEntry] {
        var entries = [String: ManifestEntry]()
        forEachEntry(in: bytes) { path, _, entry, _ in entries[path] = entry }
        return entries
    }

    /// Calls `body` with each entry of the manifest `bytes`, in the file's order (a path may
    /// come twice: the last one counts), whether the path's bytes follow the last one's, and
    /// the line's bytes (with its newline) when they are those `appendLine` writes for it (nil
    /// otherwise: written by hand or by an older writer). With `lines`, only the lines in that
    /// range of `bytes` (one that starts a line and ends after a newline or at the end, see
    /// `lineRanges`): the first of them is in order.
    static func forEachEntry(
        in bytes: [UInt8], lines: Range<Int>? = nil,
        _ body: (String, _ inOrder: Bool, ManifestEntry, _ line: Range<Int>?) -> Void
    ) {
        forEachPath(in: bytes, lines: lines) { path, repaired, inOrder, entry, line in
            body(repaired ?? String(decoding: bytes[path], as: UTF8.self), inOrder, entry, line)
        }
    }

    /// `forEachEntry` with each path as where its bytes are in `bytes`, and, for one that is
    /// not UTF-8, the text a `String` makes of them (U+FFFD for what is not): not made for
    /// the others, each a string less to allocate.
    static func forEachPath(
        in bytes: [UInt8], lines: Range<Int>? = nil,
        _ body: (_ path: Range<Int>, _ repaired: String?, _ inOrder: Bool, ManifestEntry, _ line: Range<Int>?) -> Void
    ) {
        let withFingerprints = bytes.starts(with: header.utf8)
        let lines = lines ?? 0..<bytes.count
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            var lastPath: Slice<UnsafeBufferPointer<UInt8>> = all[0..<0]
            var lineStart = lines.lowerBound
            while lineStart < lines.upperBound {
                // A last line without its newline was cut off (a commit killed while appending
                // its intent, see `SiteWriter.appendToManifest`): its path may be cut short too.
                guard let newline = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), lines.upperBound - lineStart)
                else { break }
                let lineEnd = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
                if let (pathBytes, entry, canonical) = parseLine(
                    all[lineStart..<lineEnd], withFingerprint: withFingerprints)
                {
                    let raw = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: pathBytes))
                    // (A path that is not UTF-8 is repaired: its line is not the one written for it.)
                    let repaired = isUTF8(raw) ? nil : String(decoding: raw, as: UTF8.self)
                    if (repaired.map { PathRules.problem(with: $0) } ?? PathRules.problem(bytes: raw)) == nil {
                        body(
                            pathBytes.startIndex..<pathBytes.endIndex, repaired, precedes(lastPath, pathBytes), entry,
                            canonical && repaired == nil ? lineStart..<(lineEnd + 1) : nil)
                        lastPath = pathBytes
                    }
                }
                lineStart = lineEnd + 1
            }
        }
    }

    /// Whether `bytes` are UTF-8 as a `String` keeps them (ASCII, or text it takes as it is).
    private static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var text = String(decoding: bytes, as: UTF8.self)
        return text.withUTF8 { sameBytes(UnsafeRawBufferPointer($0), bytes) }
    }

    /// `bytes` cut into about `parts` ranges of whole lines (the last may end without a
    /// newline), in order, to be read on several cores.
    static func lineRanges(of bytes: [UInt8], parts: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for k in 1...max(1, parts) {
            guard start < bytes.count else { break }
            var end = k == parts ? bytes.count : max(start + 1, bytes.count / parts * k)
            while end < bytes.count, bytes[end - 1] != UInt8(ascii: "\n") { end += 1 }
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    /// True when `a`'s bytes come strictly before `b`'s.
    private static func precedes(_ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: Slice<UnsafeBufferPointer<UInt8>>) -> Bool
    {
        if a.isEmpty { return !b.isEmpty }
        let common = min(a.count, b.count)
        let order = memcmp(a.base.baseAddress! + a.startIndex, b.base.baseAddress! + b.startIndex, common)
        return order != 0 ? order < 0 : a.count < b.count
    }

    /// The path's bytes and the entry of one line, nil if it does not parse, and whether
    /// `appendLine` writes exactly these bytes for them (lowercase hex, no leading zero, a
    /// fingerprint field).
    private static func parseLine(_ line: Slice<UnsafeBufferPointer<UInt8>>, withFingerprint: Bool) -> (
        Slice<UnsafeBufferPointer<UInt8>>, ManifestEntry, canonical: Bool
    )? {
        guard line.first != UInt8(ascii: "#") else { return nil }
        // The fields before the path (which may itself hold spaces), read in place.
        var rest = line
        func field() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard let space = rest.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            defer { rest = rest[(space + 1)...] }
            return rest[rest.startIndex..<space]
        }
        guard let hashField = field(), let sizeField = field() else { return nil }
        let fingerprintField = withFingerprint ? field() : nil
        if withFingerprint && fingerprintField == nil { return nil }
        guard let size = decimal(sizeField) else { return nil }
        let noFingerprint = fingerprintField?.elementsEqual("-".utf8) ?? false
        if hashField.elementsEqual("-".utf8) {
            return (rest, .dirty, withFingerprint && size == 0 && sizeField.count == 1 && noFingerprint)
        }
        guard let hash = hex(hashField) else { return nil }
        var canonical =
            withFingerprint && isLowercaseHex(hashField)
            && (sizeField.count == 1 || sizeField.first != UInt8(ascii: "0"))
        var fingerprint: UInt64?
        if let fingerprintField, !noFingerprint {
            guard let value = hex(fingerprintField) else { return nil }
            fingerprint = value
            canonical = canonical && isLowercaseHex(fingerprintField)
        }
        return (rest, ManifestEntry(hash: hash, size: size, fingerprint: fingerprint), canonical)
    }

    /// No hex digit in `field` is an uppercase letter (`hex` took it already).
    private static func isLowercaseHex(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        !field.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
    }

    /// Exactly 16 lowercase or uppercase hex digits. (Without a branch for each digit's kind:
    /// the digits of hashes are random, and mispredicted branches made this half of decoding.)
    private static func hex(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        guard field.count == 16 else { return nil }
        var value: UInt64 = 0
        var valid = true
        for byte in field {
            let isDigit = byte &- UInt8(ascii: "0") < 10
            let isLetter = (byte | 0x20) &- UInt8(ascii: "a") < 6
            valid = valid && (isDigit || isLetter)
            // '0'…'9' are 0x30…0x39, 'a'…'f' and 'A'…'F' end in 1…6 and have bit 6 set.
            value = value << 4 | UInt64((byte & 0xF) &+ 9 &* (byte >> 6))
        }
        return valid ? value : nil
    }

    /// A non-negative decimal that fits in an Int (at most 18 digits).
    private static func decimal(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard !field.isEmpty, field.count <= 18 else { return nil }
        var value = 0
        for byte in field {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
