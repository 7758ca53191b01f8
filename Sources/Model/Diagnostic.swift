import Store

/// A problem found in the store, tied to the document (and field) it is about.
package struct Diagnostic: Sendable, Hashable, Comparable, CustomStringConvertible {
    package enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        /// The document cannot be used: a missing required field, a wrong type. A build fails.
        case error
        /// The page is still built without the missing part (a dangling reference); `--strict` fails.
        case warning
        /// Worth knowing, never fails a build (a stored counter that drifted).
        case notice

        private var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    package enum Kind: String, Sendable, Hashable, Comparable, CaseIterable {
        case missingField = "missing-field"
        case wrongType = "wrong-type"
        case invalidTimestamp = "invalid-timestamp"
        /// A document given twice (an export file can list one twice; a folder cannot).
        case duplicateDocument = "duplicate-document"
        case tweetByMissingUser = "tweet-by-missing-user"
        case replyToMissingTweet = "reply-to-missing-tweet"
        case likeOfMissingTweet = "like-of-missing-tweet"
        case likeByMissingUser = "like-by-missing-user"
        case favoritesOfMissingUser = "favorites-of-missing-user"
        case nonNumericCoordinate = "non-numeric-coordinate"
        case negativeCounter = "negative-counter"
        case likeCounterDrift = "like-counter-drift"
        case sharedHandle = "shared-handle"
        case unsafeProfileImage = "unsafe-profile-image"
        case imageWithoutAlt = "image-without-alt"
        /// Found by the build, not in the store: `--media mirror` could not copy an image.
        case imageNotMirrored = "image-not-mirrored"
        /// An image on an address mirroring never connects to (SPEC 9): loopback, private, …
        case imageAddressRefused = "image-address-refused"
        /// Found by the store's walk, not in a document: a symbolic link, which no reader follows.
        case skippedLink = "skipped-link"

        /// What `roost check` calls the group.
        package var title: String {
            switch self {
            case .missingField: "missing required fields"
            case .wrongType: "fields of the wrong type"
            case .invalidTimestamp: "invalid timestamps"
            case .duplicateDocument: "documents given more than once"
            case .tweetByMissingUser: "tweets by missing users"
            case .replyToMissingTweet: "replies to missing tweets"
            case .likeOfMissingTweet: "likes of missing tweets"
            case .likeByMissingUser: "likes by missing users"
            case .favoritesOfMissingUser: "favorites of missing users"
            case .nonNumericCoordinate: "coordinates that are not numbers"
            case .negativeCounter: "negative counters"
            case .likeCounterDrift: "like counters that drifted"
            case .sharedHandle: "usernames that share a handle"
            case .unsafeProfileImage: "profile images that are not http(s)"
            case .imageWithoutAlt: "images without alt text"
            case .imageNotMirrored: "images that could not be mirrored"
            case .imageAddressRefused: "images on addresses mirroring refuses"
            case .skippedLink: "symbolic links in the store, not followed"
            }
        }

        package var severity: Severity {
            switch self {
            case .missingField, .wrongType, .invalidTimestamp, .duplicateDocument: .error
            case .tweetByMissingUser, .replyToMissingTweet, .likeOfMissingTweet, .likeByMissingUser,
                .favoritesOfMissingUser, .nonNumericCoordinate, .negativeCounter, .imageNotMirrored,
                .imageAddressRefused, .skippedLink:
                .warning
            case .likeCounterDrift, .sharedHandle, .unsafeProfileImage, .imageWithoutAlt: .notice
            }
        }

        package static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    package var kind: Kind
    /// The document path, `tweets/abc`.
    package var path: String
    /// The field, when the problem is one field's.
    package var field: String?
    package var message: String

    package var severity: Severity { kind.severity }

    package init(_ kind: Kind, path: String, field: String? = nil, _ message: String) {
        self.kind = kind
        self.path = path
        self.field = field
        self.message = message
    }

    /// The warning for the symbolic link at `path` in a folder store: what it points to is
    /// not read, so a folder of tweets linked in would be missing from the site unsaid.
    package static func skippedLink(at path: String) -> Diagnostic {
        Diagnostic(
            .skippedLink, path: path,
            "a symbolic link, not followed: what it points to is not read (put the file or folder itself in the store)")
    }

    /// `diagnostics` (sorted) with a warning for each symbolic link of `links`, in order.
    package static func adding(skippedLinks links: [String], to diagnostics: [Diagnostic]) -> [Diagnostic] {
        links.isEmpty ? diagnostics : (diagnostics + links.map(skippedLink(at:))).sorted()
    }

    /// `tweets/abc: field 'timestamp': …` — the document path first, so editors and grep find it.
    /// One line: a line break in a value quoted from the store is written `\n`.
    package var description: String {
        let line = if let field { "\(path): field '\(field)': \(message)" } else { "\(path): \(message)" }
        guard line.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return line }
        var oneLine = ""
        for scalar in line.unicodeScalars {
            switch scalar {
            case "\n": oneLine += "\\n"
            case "\r": oneLine += "\\r"
            default: oneLine.unicodeScalars.append(scalar)
            }
        }
        return oneLine
    }

    package static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.severity, lhs.kind, lhs.path, lhs.field ?? "", lhs.message)
            < (rhs.severity, rhs.kind, rhs.path, rhs.field ?? "", rhs.message)
    }
}
