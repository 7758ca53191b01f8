import Store
import Support

// The build cache's binary form of what documents decode to, shared by the cached documents
// (`DecodedDocument+Bytes`) and the cached snapshot (`Snapshot+Bytes`).

extension User {
    func encode(into out: inout ByteWriter) {
        out.append(uid)
        out.append(username)
        out.append(fullname)
        out.append(profileImageURL)
        out.append(bio)
        out.append(bioImages)
        out.append(handle)
    }

    init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        self.init(
            uid: try reader.string(), username: try reader.string(), fullname: try reader.string(),
            profileImageURL: try reader.optionalString(), bio: try reader.optionalString(), handle: "")
        bioImages = try reader.strings()
        handle = try reader.string()
    }
}

extension Tweet {
    func encode(into out: inout ByteWriter) {
        out.append(id)
        out.append(caption)
        out.append(timestamp)
        out.append(authorUID)
        out.append(storedLikes != nil)
        if let storedLikes { out.append(storedLikes) }
        out.append(replyTo)
        out.append(hashtags)
        out.append(images)
    }

    init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        let id = try reader.string()
        let caption = try reader.string()
        let timestamp = try reader.timestamp()
        let author = try reader.string()
        let likes = try reader.bool() ? try reader.int64() : nil
        self.init(
            id: id, caption: caption, timestamp: timestamp, authorUID: author, storedLikes: likes,
            replyTo: try reader.optionalString(), hashtags: try reader.strings())
        images = try reader.strings()
    }
}

extension FavoritePlace {
    func encode(into out: inout ByteWriter) {
        out.append(id)
        out.append(uid)
        out.append(name)
        out.append(address)
        out.append(coordinate != nil)
        if let coordinate {
            out.append(coordinate.latitude)
            out.append(coordinate.longitude)
        }
    }

    init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        let id = try reader.string()
        let uid = try reader.string()
        let name = try reader.string()
        let address = try reader.optionalString()
        let coordinate =
            try reader.bool() ? Coordinate(latitude: try reader.double(), longitude: try reader.double()) : nil
        self.init(id: id, uid: uid, name: name, address: address, coordinate: coordinate)
    }
}

extension Diagnostic {
    static func encode(_ diagnostics: [Diagnostic], into out: inout ByteWriter) {
        out.append(length: diagnostics.count)
        for d in diagnostics {
            out.append(d.kind.rawValue)
            out.append(d.path)
            out.append(d.field)
            out.append(d.message)
        }
    }

    static func decode(from reader: inout ByteReader) throws(ByteReader.Malformed) -> [Diagnostic] {
        let count = try reader.length()
        var diagnostics: [Diagnostic] = []
        for _ in 0..<count {
            guard let kind = Diagnostic.Kind(rawValue: try reader.string()) else { throw ByteReader.Malformed() }
            let path = try reader.string()
            let field = try reader.optionalString()
            diagnostics.append(Diagnostic(kind, path: path, field: field, try reader.string()))
        }
        return diagnostics
    }
}

extension ByteWriter {
    mutating func append(_ timestamp: Timestamp) {
        append(timestamp.seconds)
        append(Int64(timestamp.nanoseconds))
    }
}

extension ByteReader {
    mutating func timestamp() throws(Malformed) -> Timestamp {
        let seconds = try int64()
        let nanoseconds = try int64()
        guard let n = Int32(exactly: nanoseconds) else { throw Malformed() }
        return Timestamp(seconds: seconds, nanoseconds: n)
    }
}
