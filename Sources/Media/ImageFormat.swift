/// The image formats a mirrored site may contain (SPEC 9), told by their first bytes: what a
/// server says (`Content-Type`, the URL's extension) is never asked. Everything else (SVG,
/// which can carry scripts; HTML; BMP, TIFF, HEIC, …) is refused.
package enum ImageFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case png, jpeg, gif, webp, avif

    /// The extension of the file in the cache and in the output (`media/{hash}.{ext}`).
    package var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .gif: "gif"
        case .webp: "webp"
        case .avif: "avif"
        }
    }

    package var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .avif: "image/avif"
        }
    }

    /// The format whose `fileExtension` is `ext`.
    package init?(fileExtension ext: String) {
        guard let format = ImageFormat.allCases.first(where: { $0.fileExtension == ext }) else { return nil }
        self = format
    }

    /// "PNG", "JPEG", … for messages.
    package var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .avif: "AVIF"
        }
    }
}

/// An image's format and, when its header gives them cheaply, its size in pixels (for an
/// `<img>`'s `width` and `height`, so a page does not jump as pictures arrive).
package struct ImageInfo: Sendable, Hashable {
    package var format: ImageFormat
    package var width: Int?
    package var height: Int?

    package init(format: ImageFormat, width: Int? = nil, height: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// Reads the first bytes of a file: which of the five formats it is, and its size.
package enum ImageSniffer {
    /// What the first bytes of a download say so far.
    package enum Verdict: Sendable, Equatable {
        /// One of the five formats (its size is read from the whole file by `identify`).
        case image(ImageFormat)
        /// None of them, whatever follows: the download can stop here.
        case notAnImage
        /// Too few bytes to tell.
        case needMore
    }

    /// The most bytes `verdict` ever asks for (an AVIF's `ftyp` box is rarely above 40).
    package static let maxPrefix = 4096

    /// The format the first bytes announce; `complete` says there are no more (then the
    /// answer is never `.needMore`).
    package static func verdict(_ bytes: UnsafeRawBufferPointer, complete: Bool = false) -> Verdict {
        let b = Bytes(bytes)
        if b.count < 12 { return complete ? .notAnImage : .needMore }
        if b.matches(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .image(.png) }
        if b.matches(0, [0xFF, 0xD8, 0xFF]) { return .image(.jpeg) }
        if b.matches(0, Array("GIF87a".utf8)) || b.matches(0, Array("GIF89a".utf8)) { return .image(.gif) }
        if b.matches(0, Array("RIFF".utf8)) && b.matches(8, Array("WEBP".utf8)) { return .image(.webp) }
        if b.matches(4, Array("ftyp".utf8)) {
            // size, 'ftyp', major brand, minor version, compatible brands: 4 bytes each.
            let size = Int(b.uint32(0)!)
            guard size >= 16, size <= maxPrefix, size % 4 == 0 else { return .notAnImage }
            guard b.count >= size else { return complete ? .notAnImage : .needMore }
            let brands = [8] + Array(stride(from: 16, to: size, by: 4))
            let avif = brands.contains { b.matches($0, Array("avif".utf8)) || b.matches($0, Array("avis".utf8)) }
            return avif ? .image(.avif) : .notAnImage
        }
        return .notAnImage
    }

    package static func verdict(_ bytes: [UInt8], complete: Bool = false) -> Verdict {
        bytes.withUnsafeBytes { verdict($0, complete: complete) }
    }

    /// The image a whole file is, or nil when it is none of the five formats.
    package static func identify(_ bytes: UnsafeRawBufferPointer) -> ImageInfo? {
        guard case .image(let format) = verdict(bytes, complete: true) else { return nil }
        let b = Bytes(bytes)
        let size: (Int, Int)? =
            switch format {
            case .png: pngSize(b)
            case .gif: gifSize(b)
            case .jpeg: jpegSize(b)
            case .webp: webpSize(b)
            case .avif: AVIFSize.read(b)
            }
        guard let (width, height) = size, width > 0, height > 0 else { return ImageInfo(format: format) }
        return ImageInfo(format: format, width: width, height: height)
    }

    package static func identify(_ bytes: [UInt8]) -> ImageInfo? {
        bytes.withUnsafeBytes { identify($0) }
    }

    /// What a refused file looks like, for the warning ("it looks like SVG"): nil when it is
    /// nothing this knows.
    package static func describe(_ bytes: [UInt8]) -> String? {
        if bytes.isEmpty { return "an empty file" }
        let b = bytes.withUnsafeBytes { Bytes($0) }
        if b.matches(0, Array("BM".utf8)) { return "BMP" }
        if b.matches(0, [0x49, 0x49, 0x2A, 0x00]) || b.matches(0, [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if b.matches(0, [0x00, 0x00, 0x01, 0x00]) { return "an icon (ICO)" }
        if b.matches(0, Array("%PDF".utf8)) { return "PDF" }
        if b.matches(4, Array("ftyp".utf8)) { return "an ISO media file that is not AVIF (HEIC, MP4, …)" }
        if b.matches(0, Array("RIFF".utf8)) { return "a RIFF file that is not WebP" }
        // Text: skip a byte-order mark and white space, then look at what starts it.
        var start = b.matches(0, [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = String(decoding: bytes[start..<min(bytes.count, start + 1024)], as: UTF8.self).lowercased()
        if head.hasPrefix("<svg") || (head.hasPrefix("<") && head.contains("<svg")) { return "SVG" }
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.contains("<body")
            || head.contains("<head")
        {
            return "HTML"
        }
        if head.hasPrefix("<?xml") { return "XML" }
        if head.hasPrefix("{") || head.hasPrefix("[") { return "JSON" }
        let printable = bytes.prefix(512).allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return printable ? "text" : nil
    }

    // PNG: the signature, then the IHDR chunk (length 13): width and height, big-endian.
    private static func pngSize(_ b: Bytes) -> (Int, Int)? {
        guard b.matches(12, Array("IHDR".utf8)), let w = b.uint32(16), let h = b.uint32(20) else { return nil }
        return (Int(w), Int(h))
    }

    // GIF: the logical screen's width and height, little-endian, after the 6-byte signature.
    private static func gifSize(_ b: Bytes) -> (Int, Int)? {
        guard let w = b.uint16LE(6), let h = b.uint16LE(8) else { return nil }
        return (Int(w), Int(h))
    }

    /// JPEG: segments after SOI, each `FF marker length…`, up to the first frame header
    /// (SOF0–SOF15 but DHT, JPG and DAC): precision, height, width. Start of scan first: no size.
    private static func jpegSize(_ b: Bytes) -> (Int, Int)? {
        var at = 2
        while at + 1 < b.count {
            guard b[at] == 0xFF else { return nil }
            let marker = b[at + 1]
            at += 2
            switch marker {
            case 0xFF:
                at -= 1  // fill byte: the marker follows
            case 0x01, 0xD0...0xD8:
                continue  // no length
            case 0xD9, 0xDA:
                return nil
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard let h = b.uint16(at + 3), let w = b.uint16(at + 5) else { return nil }
                return (Int(w), Int(h))
            default:
                guard let length = b.uint16(at), length >= 2 else { return nil }
                at += Int(length)
            }
        }
        return nil
    }

    /// WebP: the first chunk after `RIFF size WEBP` is `VP8 ` (lossy: a key frame's start
    /// code, then 14-bit width and height), `VP8L` (lossless: signature 0x2F, then width−1
    /// and height−1 in 14 bits each) or `VP8X` (extended: the canvas, width−1 and height−1 in
    /// 24 bits each).
    private static func webpSize(_ b: Bytes) -> (Int, Int)? {
        if b.matches(12, Array("VP8 ".utf8)) {
            guard b.count >= 30, b[20] & 1 == 0, b.matches(23, [0x9D, 0x01, 0x2A]) else { return nil }
            return (Int(b.uint16LE(26)! & 0x3FFF), Int(b.uint16LE(28)! & 0x3FFF))
        }
        if b.matches(12, Array("VP8L".utf8)) {
            guard b.count >= 25, b[20] == 0x2F else { return nil }
            let bits = UInt32(b[21]) | UInt32(b[22]) << 8 | UInt32(b[23]) << 16 | UInt32(b[24]) << 24
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        }
        if b.matches(12, Array("VP8X".utf8)) {
            guard b.count >= 30 else { return nil }
            let w = Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16
            let h = Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16
            return (w + 1, h + 1)
        }
        return nil
    }
}

/// Bounds-checked reads from a buffer: every read past the end is nil, never a crash.
struct Bytes {
    let raw: UnsafeRawBufferPointer

    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

    var count: Int { raw.count }

    subscript(i: Int) -> UInt8 { raw[i] }

    func matches(_ offset: Int, _ expected: [UInt8]) -> Bool {
        guard offset >= 0, offset + expected.count <= raw.count else { return false }
        for (i, byte) in expected.enumerated() where raw[offset + i] != byte { return false }
        return true
    }

    func uint16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= raw.count else { return nil }
        return UInt16(raw[offset]) << 8 | UInt16(raw[offset + 1])
    }

    func uint16LE(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= raw.count else { return nil }
        return UInt16(raw[offset]) | UInt16(raw[offset + 1]) << 8
    }

    func uint32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= raw.count else { return nil }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(raw[offset + $1]) }
    }

    func uint64(_ offset: Int) -> UInt64? {
        guard offset >= 0, offset + 8 <= raw.count else { return nil }
        return (0..<8).reduce(0) { $0 << 8 | UInt64(raw[offset + $1]) }
    }

    func fourCC(_ offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= raw.count else { return nil }
        return String(decoding: raw[offset..<offset + 4], as: UTF8.self)
    }
}
