import Store
import Support

/// A decoded document in the build cache's binary form (`ByteWriter`): loading it is much
/// cheaper than reading, parsing and decoding the JSON file again.
extension DecodedDocument {
    package func encode(into out: inout ByteWriter) {
        switch entity {
        case nil:
            out.append(0 as UInt8)
        case .user(let user):
            out.append(1 as UInt8)
            out.append(user.uid)
            out.append(user.username)
            out.append(user.fullname)
            out.append(user.profileImageURL)
            out.append(user.bio)
            out.append(user.bioImages)
            out.append(user.handle)
        case .tweet(let tweet):
            out.append(2 as UInt8)
            out.append(tweet.id)
            out.append(tweet.caption)
            out.append(tweet.timestamp)
            out.append(tweet.authorUID)
            out.append(tweet.storedLikes != nil)
            if let likes = tweet.storedLikes { out.append(likes) }
            out.append(tweet.replyTo)
            out.append(tweet.hashtags)
            out.append(tweet.images)
        case .like(let like):
            out.append(3 as UInt8)
            out.append(like.uid)
            out.append(like.tweetID)
            out.append(like.timestamp != nil)
            if let timestamp = like.timestamp { out.append(timestamp) }
        case .favorite(let place):
            out.append(4 as UInt8)
            out.append(place.id)
            out.append(place.uid)
            out.append(place.name)
            out.append(place.address)
            out.append(place.coordinate != nil)
            if let c = place.coordinate {
                out.append(c.latitude)
                out.append(c.longitude)
            }
        }
        out.append(length: diagnostics.count)
        for d in diagnostics {
            out.append(d.kind.rawValue)
            out.append(d.path)
            out.append(d.field)
            out.append(d.message)
        }
    }

    package init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        switch try reader.byte() {
        case 0:
            entity = nil
        case 1:
            var user = User(
                uid: try reader.string(), username: try reader.string(), fullname: try reader.string(),
                profileImageURL: try reader.optionalString(), bio: try reader.optionalString(), handle: "")
            user.bioImages = try reader.strings()
            user.handle = try reader.string()
            entity = .user(user)
        case 2:
            let id = try reader.string()
            let caption = try reader.string()
            let timestamp = try reader.timestamp()
            let author = try reader.string()
            let likes = try reader.bool() ? try reader.int64() : nil
            var tweet = Tweet(
                id: id, caption: caption, timestamp: timestamp, authorUID: author, storedLikes: likes,
                replyTo: try reader.optionalString(), hashtags: try reader.strings())
            tweet.images = try reader.strings()
            entity = .tweet(tweet)
        case 3:
            let uid = try reader.string()
            let tweetID = try reader.string()
            entity = .like(
                Like(uid: uid, tweetID: tweetID, timestamp: try reader.bool() ? try reader.timestamp() : nil))
        case 4:
            let id = try reader.string()
            let uid = try reader.string()
            let name = try reader.string()
            let address = try reader.optionalString()
            let coordinate =
                try reader.bool() ? Coordinate(latitude: try reader.double(), longitude: try reader.double()) : nil
            entity = .favorite(FavoritePlace(id: id, uid: uid, name: name, address: address, coordinate: coordinate))
        default:
            throw ByteReader.Malformed()
        }
        let count = try reader.length()
        var diagnostics: [Diagnostic] = []
        for _ in 0..<count {
            guard let kind = Diagnostic.Kind(rawValue: try reader.string()) else { throw ByteReader.Malformed() }
            let path = try reader.string()
            let field = try reader.optionalString()
            diagnostics.append(Diagnostic(kind, path: path, field: field, try reader.string()))
        }
        self.diagnostics = diagnostics
    }
}

extension ByteWriter {
    fileprivate mutating func append(_ timestamp: Timestamp) {
        append(timestamp.seconds)
        append(Int64(timestamp.nanoseconds))
    }
}

extension ByteReader {
    fileprivate mutating func timestamp() throws(Malformed) -> Timestamp {
        let seconds = try int64()
        let nanoseconds = try int64()
        guard let n = Int32(exactly: nanoseconds) else { throw Malformed() }
        return Timestamp(seconds: seconds, nanoseconds: n)
    }
}
