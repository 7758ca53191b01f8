/// A compact binary form for caches that a later run reads back: little-endian integers,
/// LEB128 lengths, UTF-8 strings. Written and read by the same Roost binary only (a cache
/// records which one wrote it), so there is no schema evolution to care about.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// An unsigned LEB128 number: one byte below 128.
    public mutating func append(length: Int) {
        var v = UInt64(max(0, length))
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func append(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func append(_ value: Double) { append(value.bitPattern) }

    public mutating func append(_ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(length: utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A presence byte, then the string.
    public mutating func append(_ text: String?) {
        append(text != nil)
        if let text { append(text) }
    }

    public mutating func append(_ texts: [String]) {
        append(length: texts.count)
        for text in texts { append(text) }
    }

    public mutating func append(_ other: some Collection<UInt8>) { bytes.append(contentsOf: other) }
}

/// Reads what `ByteWriter` wrote. Every read checks its bounds and throws `ByteReader.Malformed`
/// past the end, so damaged bytes give an error, never a crash.
public struct ByteReader {
    public struct Malformed: Error {
        public init() {}
    }

    private let base: UnsafeRawBufferPointer
    public private(set) var offset: Int

    /// `bytes` must outlive the reader.
    public init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        base = bytes
        self.offset = offset
    }

    public var isAtEnd: Bool { offset == base.count }

    /// The bytes not read yet.
    public var remaining: Int { base.count - offset }

    public mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < base.count else { throw Malformed() }
        defer { offset += 1 }
        return base[offset]
    }

    /// A length `append(length:)` wrote: no more than the bytes there are.
    public mutating func length() throws(Malformed) -> Int {
        let value = try number()
        guard value <= UInt64(base.count) else { throw Malformed() }  // no length exceeds the data
        return Int(value)
    }

    /// Any number `append(length:)` wrote (an index, say), below 2^63.
    public mutating func number() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 63 else { throw Malformed() }
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { break }
            shift += 7
        }
        return value
    }

    public mutating func uint64() throws(Malformed) -> UInt64 {
        guard base.count - offset >= 8 else { throw Malformed() }
        var value: UInt64 = 0
        withUnsafeMutableBytes(of: &value) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: base[offset..<offset + 8]))
        }
        offset += 8
        return UInt64(littleEndian: value)
    }

    public mutating func int64() throws(Malformed) -> Int64 { Int64(bitPattern: try uint64()) }

    public mutating func double() throws(Malformed) -> Double { Double(bitPattern: try uint64()) }

    public mutating func bool() throws(Malformed) -> Bool {
        switch try byte() {
        case 0: false
        case 1: true
        default: throw Malformed()
        }
    }

    public mutating func string() throws(Malformed) -> String {
        let count = try length()
        guard base.count - offset >= count else { throw Malformed() }
        let utf8 = UnsafeRawBufferPointer(rebasing: base[offset..<offset + count])
        offset += count
        // (A cache is checksummed whole before it is read: bad UTF-8 here would be our own bug,
        // and decoding repairs it rather than trapping.)
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Steps over a string without decoding it.
    public mutating func skipString() throws(Malformed) {
        _ = try bytes(try length())
    }

    public mutating func optionalString() throws(Malformed) -> String? {
        try bool() ? try string() : nil
    }

    public mutating func strings() throws(Malformed) -> [String] {
        let count = try length()
        var texts: [String] = []
        texts.reserveCapacity(min(count, 1024))
        for _ in 0..<count { texts.append(try string()) }
        return texts
    }

    /// The bytes `read` steps over (reading them as it likes): a record found, to be decoded
    /// later or elsewhere.
    public mutating func bytes(readBy read: (inout ByteReader) throws(Malformed) -> Void) throws(Malformed)
        -> UnsafeRawBufferPointer
    {
        let start = offset
        try read(&self)
        return UnsafeRawBufferPointer(rebasing: base[start..<offset])
    }

    /// The next `count` bytes, unread.
    public mutating func bytes(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
        guard count >= 0, base.count - offset >= count else { throw Malformed() }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: base[offset..<offset + count])
    }
}
