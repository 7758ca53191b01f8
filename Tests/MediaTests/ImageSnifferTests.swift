import Foundation
import Testing

@testable import Media

@Suite("ImageSniffer: the type by the bytes, the size from the header")
struct ImageSnifferTests {
    @Test(arguments: [
        ("red-3x2.png", ImageFormat.png, 3, 2),
        ("photo-5x4.jpg", .jpeg, 5, 4),
        ("progressive-6x3.jpg", .jpeg, 6, 3),
        ("comment-12x10.jpg", .jpeg, 12, 10),
        ("anim-7x5.gif", .gif, 7, 5),
        ("lossy-9x7.webp", .webp, 9, 7),
        ("lossless-4x3.webp", .webp, 4, 3),
        ("alpha-10x6.webp", .webp, 10, 6),
        ("tiny-8x6.avif", .avif, 8, 6),
    ])
    func fixtures(name: String, format: ImageFormat, width: Int, height: Int) throws {
        let bytes = try Fixtures.bytes(name)
        #expect(ImageSniffer.identify(bytes) == ImageInfo(format: format, width: width, height: height))
        #expect(ImageSniffer.verdict(Array(bytes.prefix(64))) == .image(format))
    }

    @Test func refusedWhateverTheyClaim() throws {
        let svg = try Fixtures.bytes("script.svg")
        #expect(ImageSniffer.identify(svg) == nil)
        #expect(ImageSniffer.verdict(svg) == .notAnImage)
        #expect(ImageSniffer.describe(svg) == "SVG")
        let html = Array("<!DOCTYPE html><html><body>not a picture</body></html>".utf8)
        #expect(ImageSniffer.identify(html) == nil)
        #expect(ImageSniffer.describe(html) == "HTML")
        #expect(ImageSniffer.describe(Array("  <svg xmlns='http://www.w3.org/2000/svg'/>".utf8)) == "SVG")
        #expect(ImageSniffer.describe([]) == "an empty file")
        #expect(ImageSniffer.identify([]) == nil)
        #expect(ImageSniffer.describe(Array("BM".utf8) + [UInt8](repeating: 0, count: 40)) == "BMP")
        #expect(ImageSniffer.describe([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0, 0, 0]) == "TIFF")
        // RIFF that is not WebP (a WAVE file).
        let wave = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8)
        #expect(ImageSniffer.identify(wave) == nil)
    }

    /// ISO-BMFF: AVIF only when `avif` or `avis` is the major brand or a compatible one.
    @Test func ftypBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            var box: [UInt8] = []
            let size = 16 + 4 * compatible.count
            box +=
                [0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
            for brand in compatible { box += Array(brand.utf8) }
            return box + [0, 0, 0, 8] + Array("free".utf8)
        }
        #expect(ImageSniffer.verdict(ftyp("avif", ["mif1"])) == .image(.avif))
        #expect(ImageSniffer.verdict(ftyp("mif1", ["miaf", "avis"])) == .image(.avif))
        #expect(ImageSniffer.verdict(ftyp("heic", ["mif1", "heic"])) == .notAnImage)
        #expect(ImageSniffer.verdict(ftyp("isom", ["iso2", "mp41"])) == .notAnImage)
        // The compatible brands are not all there yet: more bytes are needed.
        #expect(ImageSniffer.verdict(Array(ftyp("mif1", ["miaf", "avis"]).prefix(20))) == .needMore)
        #expect(ImageSniffer.verdict(Array(ftyp("mif1", ["miaf", "avis"]).prefix(20)), complete: true) == .notAnImage)
        // An AVIF without `meta`: an AVIF all the same, of unknown size.
        #expect(ImageSniffer.identify(ftyp("avif", [])) == ImageInfo(format: .avif))
        #expect(ImageSniffer.describe(ftyp("heic", [])) == "an ISO media file that is not AVIF (HEIC, MP4, …)")
    }

    @Test func verdictNeedsTwelveBytesUnlessComplete() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(ImageSniffer.verdict(png) == .needMore)
        #expect(ImageSniffer.verdict(png, complete: true) == .notAnImage)
        #expect(ImageSniffer.verdict(png + [0, 0, 0, 13]) == .image(.png))
        #expect(ImageSniffer.verdict(Array("<html><head>".utf8)) == .notAnImage)
    }

    /// A signature with a broken or cut header: the format, no size.
    @Test func truncatedHeadersGiveNoSize() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        #expect(ImageSniffer.identify(png) == ImageInfo(format: .png))
        // A start of scan before any frame header.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0]
        #expect(ImageSniffer.identify(jpeg) == ImageInfo(format: .jpeg))
        // Fill bytes before a marker, then SOF0 (precision, height 0x0102, width 0x0304).
        let sof: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0xC0, 0, 11, 8, 0x01, 0x02, 0x03, 0x04, 1, 1, 0x11, 0]
        #expect(ImageSniffer.identify(sof) == ImageInfo(format: .jpeg, width: 0x0304, height: 0x0102))
        // A height of 0 (defined later by DNL): no size.
        let dnl: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0, 0, 0x03, 0x04, 1, 1, 0x11, 0]
        #expect(ImageSniffer.identify(dnl) == ImageInfo(format: .jpeg))
        // A VP8 frame that is not a key frame.
        var vp8 = try Fixtures.bytes("lossy-9x7.webp")
        vp8[20] |= 1
        #expect(ImageSniffer.identify(vp8) == ImageInfo(format: .webp))
        let gif87 = Array("GIF87a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0, 0, 0]
        #expect(ImageSniffer.identify(gif87) == ImageInfo(format: .gif, width: 320, height: 240))
    }

    /// Every fixture cut at every length, and with bytes changed: never a crash, never a
    /// format the full file is not.
    @Test func cutAndDamagedFilesNeverCrash() throws {
        for name in Fixtures.images {
            let bytes = try Fixtures.bytes(name)
            let format = ImageSniffer.identify(bytes)!.format
            for length in 0...bytes.count {
                let info = ImageSniffer.identify(Array(bytes.prefix(length)))
                #expect(info == nil || info!.format == format)
            }
            var damaged = bytes
            for i in stride(from: 12, to: damaged.count, by: 3) {
                damaged[i] = 0xFF
                _ = ImageSniffer.identify(damaged)
            }
        }
    }

    @Test func extensions() {
        #expect(ImageFormat.allCases.map(\.fileExtension) == ["png", "jpg", "gif", "webp", "avif"])
        #expect(ImageFormat(fileExtension: "jpg") == .jpeg)
        #expect(ImageFormat(fileExtension: "svg") == nil)
    }
}

enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static let images = [
        "red-3x2.png", "photo-5x4.jpg", "progressive-6x3.jpg", "comment-12x10.jpg", "anim-7x5.gif",
        "lossy-9x7.webp", "lossless-4x3.webp", "alpha-10x6.webp", "tiny-8x6.avif",
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }
}
