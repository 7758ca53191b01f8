/// An AVIF's size: the `ispe` (image spatial extents) property of its primary item, found
/// through ISO-BMFF boxes as HEIF lays them out: `meta` → `pitm` (the primary item's ID),
/// `meta` → `iprp` → `ipco` (the properties, numbered from 1) and `ipma` (which properties
/// each item has). Anything unexpected gives nil: the size is a nicety, never a reason to
/// refuse an image.
enum AVIFSize {
    /// A box: its type, and where its payload starts and ends.
    struct Box {
        var type: String
        var start: Int
        var end: Int
    }

    /// The boxes between `start` and `end`.
    static func boxes(_ b: Bytes, from start: Int, to end: Int) -> [Box] {
        var found: [Box] = []
        var at = start
        while at + 8 <= end, found.count < 1024 {
            guard let size32 = b.uint32(at), let type = b.fourCC(at + 4) else { break }
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let large = b.uint64(at + 8), large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size32 == 0 {
                size = end - at
            }
            guard size >= header, at + size <= end else { break }
            found.append(Box(type: type, start: at + header, end: at + size))
            at += size
        }
        return found
    }

    static func read(_ b: Bytes) -> (Int, Int)? {
        guard let meta = boxes(b, from: 0, to: b.count).first(where: { $0.type == "meta" }) else { return nil }
        // `meta` is a full box: version and flags (4 bytes) before its children.
        let children = boxes(b, from: meta.start + 4, to: meta.end)
        guard let pitm = children.first(where: { $0.type == "pitm" }),
            let primary = primaryItem(b, pitm),
            let iprp = children.first(where: { $0.type == "iprp" })
        else { return nil }
        let properties = boxes(b, from: iprp.start, to: iprp.end)
        guard let ipco = properties.first(where: { $0.type == "ipco" }) else { return nil }
        let list = boxes(b, from: ipco.start, to: ipco.end)
        for ipma in properties where ipma.type == "ipma" {
            for index in associations(b, ipma, item: primary) where index >= 1 && index <= list.count {
                let property = list[index - 1]
                guard property.type == "ispe" else { continue }
                guard let w = b.uint32(property.start + 4), let h = b.uint32(property.start + 8),
                    property.start + 12 <= property.end
                else { return nil }
                return (Int(w), Int(h))
            }
        }
        return nil
    }

    /// `pitm`: version 0 has a 16-bit item ID, version 1 a 32-bit one.
    private static func primaryItem(_ b: Bytes, _ pitm: Box) -> UInt32? {
        guard pitm.start < pitm.end else { return nil }
        if b[pitm.start] == 0 { return b.uint16(pitm.start + 4).map(UInt32.init) }
        return b.uint32(pitm.start + 4)
    }

    /// The property indexes `ipma` gives `item`: entries of (item ID, count, associations),
    /// IDs 16-bit in version 0 and 32-bit after; each association 8 bits (flag bit 0 clear) or
    /// 16, its top bit saying "essential".
    private static func associations(_ b: Bytes, _ ipma: Box, item: UInt32) -> [Int] {
        guard ipma.start + 8 <= ipma.end, let flags = b.uint32(ipma.start), let count = b.uint32(ipma.start + 4)
        else { return [] }
        let version = flags >> 24
        let wide = flags & 1 == 1
        var at = ipma.start + 8
        for _ in 0..<min(Int(count), 65536) {
            let id: UInt32?
            if version < 1 {
                id = b.uint16(at).map(UInt32.init)
                at += 2
            } else {
                id = b.uint32(at)
                at += 4
            }
            guard let id, at < ipma.end else { return [] }
            let n = Int(b[at])
            at += 1
            var indexes: [Int] = []
            for _ in 0..<n {
                if wide {
                    guard let v = b.uint16(at) else { return [] }
                    indexes.append(Int(v & 0x7FFF))
                    at += 2
                } else {
                    guard at < ipma.end else { return [] }
                    indexes.append(Int(b[at] & 0x7F))
                    at += 1
                }
            }
            if id == item { return indexes }
        }
        return []
    }
}
