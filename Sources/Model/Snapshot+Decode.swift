import Markdown
import Store
import Support

/// Reading one document by the schema of SPEC 2.3: the part of building a snapshot that
/// depends on that document alone (see `DecodedDocument`).
extension Snapshot {
    static func decodeUser(_ document: Document) -> (User?, [Diagnostic]) {
        var reader = FieldReader(document)
        let username = reader.requiredString("username")
        let fullname = reader.optionalString("fullname", "fullName")
        let image = reader.optionalString("profileImageUrl")
        let bio = reader.optionalString("bio")
        var safeImage: String?
        if let image, !image.isEmpty {
            if let usable = WebAddress.httpURL(image) {
                safeImage = usable
            } else {
                reader.warn(
                    .unsafeProfileImage, "profileImageUrl", "not a usable http(s) URL; the placeholder is shown")
            }
        }
        let bioImages = bio.map { images(in: $0, field: "bio", &reader) } ?? []
        guard reader.isUsable, let username else { return (nil, reader.diagnostics) }
        var user = User(
            uid: document.path.id, username: username,
            fullname: (fullname?.isEmpty ?? true) ? username : fullname!,
            profileImageURL: safeImage, bio: bio, handle: "")
        user.bioImages = bioImages
        return (user, reader.diagnostics)
    }

    static func decodeTweet(_ document: Document) -> (Tweet?, [Diagnostic]) {
        var reader = FieldReader(document)
        let caption = reader.requiredString("caption")
        let timestamp = reader.requiredTimestamp("timestamp")
        let uid = reader.requiredString("uid")
        let likes = reader.optionalInteger("likes")
        let replyTo = reader.optionalString("replyTo")
        guard reader.isUsable, let caption, let timestamp, let uid else { return (nil, reader.diagnostics) }
        let scan = HashtagsAndMentions.scanAll(caption)
        var tweet = Tweet(
            id: document.path.id, caption: caption, timestamp: timestamp, authorUID: uid,
            storedLikes: likes, replyTo: (replyTo?.isEmpty ?? true) ? nil : replyTo,
            hashtags: scan.hashtags)
        tweet.images = images(scan.images, field: "caption", &reader)
        return (tweet, reader.diagnostics)
    }

    /// The images of a Markdown field, unique URLs in order; one without alt text is a notice
    /// (SPEC 9: a reader who cannot see it learns nothing of it).
    private static func images(in markdown: String, field: String, _ reader: inout FieldReader) -> [String] {
        // Most texts have no image: only those with "![" are parsed again.
        guard markdown.utf8.count > 3, markdown.contains("![") else { return [] }
        return images(HashtagsAndMentions.scanAll(markdown).images, field: field, &reader)
    }

    private static func images(_ found: [MarkdownImage], field: String, _ reader: inout FieldReader) -> [String] {
        var urls: [String] = []
        var seen = Set<String>()
        for image in found {
            if image.alt.isEmpty {
                reader.warn(.imageWithoutAlt, field, "image without alt text: \(image.url)")
            }
            if seen.insert(image.url).inserted { urls.append(image.url) }
        }
        return urls
    }

    static func decodeLike(_ document: Document) -> (Like?, [Diagnostic]) {
        var reader = FieldReader(document)
        let timestamp = reader.optionalTimestamp("timestamp")
        guard reader.isUsable else { return (nil, reader.diagnostics) }
        let s = document.path.segments
        return (Like(uid: s[1], tweetID: s[3], timestamp: timestamp), reader.diagnostics)
    }

    static func decodeFavorite(_ document: Document) -> (FavoritePlace?, [Diagnostic]) {
        var reader = FieldReader(document)
        let name = reader.requiredString("placeName")
        let address = reader.optionalString("address")
        let coordinate = reader.coordinate("coordinate")
        guard reader.isUsable, let name else { return (nil, reader.diagnostics) }
        let s = document.path.segments
        let place = FavoritePlace(
            id: s[3], uid: s[1], name: name,
            address: (address?.isEmpty ?? true) ? nil : address, coordinate: coordinate)
        return (place, reader.diagnostics)
    }
}
