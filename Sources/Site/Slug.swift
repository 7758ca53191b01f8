import Model
import Support

/// Path segments for IDs and tags (SPEC 3): never `.`, `..`, empty, longer than 200 bytes,
/// or containing `/`; stable across builds.
enum Slug {
    /// A tweet ID as is when it is plain (`[A-Za-z0-9_-]`, up to 200 bytes — Firestore's
    /// generated IDs always are); otherwise `~` and a hash of it. `~` never appears in a
    /// plain slug, so the two forms cannot collide.
    static func id(_ id: String) -> String {
        let bytes = id.utf8
        if (1...200).contains(bytes.count), bytes.allSatisfy(isPlain) { return id }
        return hashed(id)
    }

    /// A hashtag (already lowercased letters, digits, marks and `_`) as is up to 200 bytes.
    static func tag(_ tag: String) -> String {
        let bytes = tag.utf8
        if (1...200).contains(bytes.count), !bytes.contains(UInt8(ascii: "/")), !bytes.contains(UInt8(ascii: ".")),
            !bytes.contains(UInt8(ascii: "~"))
        {
            return tag
        }
        return hashed(tag)
    }

    static func hashed(_ text: String) -> String {
        "~" + StableHash.hex(StableHash.fnv1a(text))
    }

    private static func isPlain(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 45
    }

    /// Percent-encodes everything but unreserved characters and `/`, for `href`s of
    /// segments that may hold non-ASCII text (Korean tags).
    static func percentEncoded(_ path: String) -> String {
        // Nearly every path is plain already: return it without building a new string.
        guard !path.utf8.allSatisfy(isKept) else { return path }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count * 3)
        for b in path.utf8 {
            if isKept(b) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes a path keeps as they are in an `href`.
    private static func isKept(_ b: UInt8) -> Bool {
        isPlain(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "~") || b == UInt8(ascii: "/")
    }
}
