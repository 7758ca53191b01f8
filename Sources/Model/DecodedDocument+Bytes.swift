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
            user.encode(into: &out)
        case .tweet(let tweet):
            out.append(2 as UInt8)
            tweet.encode(into: &out)
        case .like(let like):
            out.append(3 as UInt8)
            out.append(like.uid)
            out.append(like.tweetID)
            out.append(like.timestamp != nil)
            if let timestamp = like.timestamp { out.append(timestamp) }
        case .favorite(let place):
            out.append(4 as UInt8)
            place.encode(into: &out)
        }
        Diagnostic.encode(diagnostics, into: &out)
    }

    package init(from reader: inout ByteReader) throws(ByteReader.Malformed) {
        switch try reader.byte() {
        case 0:
            entity = nil
        case 1:
            entity = .user(try User(from: &reader))
        case 2:
            entity = .tweet(try Tweet(from: &reader))
        case 3:
            let uid = try reader.string()
            let tweetID = try reader.string()
            entity = .like(
                Like(uid: uid, tweetID: tweetID, timestamp: try reader.bool() ? try reader.timestamp() : nil))
        case 4:
            entity = .favorite(try FavoritePlace(from: &reader))
        default:
            throw ByteReader.Malformed()
        }
        diagnostics = try Diagnostic.decode(from: &reader)
    }
}
