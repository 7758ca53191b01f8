import Support

/// A manifest written line by line to a file through a 1 MiB buffer: at two million files,
/// the manifest whole in memory was a few hundred megabytes at a build's peak.
struct ManifestStream {
    private let fd: Int32
    private var out: [UInt8] = []
    /// 0, or the errno of the first write that failed (the lines after it are dropped).
    private(set) var error: Int32 = 0
    private static let flushAt = 1 << 20

    /// A whole manifest: its header first.
    init(to fd: Int32, inputs: String?) {
        self.fd = fd
        out.reserveCapacity(Self.flushAt + 4096)
        Manifest.appendHeader(inputs: inputs, to: &out)
    }

    mutating func append(_ path: String, _ entry: ManifestEntry) {
        Manifest.appendLine(path, entry, to: &out)
        if out.count >= Self.flushAt { flush() }
    }

    /// The line of `previous`'s entry at `position`: copied from it where it can be
    /// (`PreviousManifest.line(at:)`), else written.
    mutating func append(_ previous: PreviousManifest, at position: Int) {
        if let line = previous.line(at: position) {
            previous.bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[line])) }
            if out.count >= Self.flushAt { flush() }
        } else {
            append(previous.path(at: position), previous.entries[position])
        }
    }

    /// Writes what is buffered; returns 0 or the errno of the first failed write.
    mutating func finish() -> Int32 {
        flush()
        return error
    }

    private mutating func flush() {
        if error == 0 { error = out.withUnsafeBytes { writeAll(fd, $0) } }
        out.removeAll(keepingCapacity: true)
    }
}
