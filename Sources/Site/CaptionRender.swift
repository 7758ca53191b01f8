import Support

/// A caption as pages show it: its HTML, and its first words as plain text (titles, feed
/// entries). Made once per caption text and link targets (`SiteRenderer.captionContext`);
/// a build cache may keep it between builds.
package struct CaptionRender: Sendable, Equatable {
    package var html: String
    package var excerpt: String

    package init(html: String, excerpt: String) {
        self.html = html
        self.excerpt = excerpt
    }
}

extension CaptionRender {
    /// What card fingerprints take of a render: the FNV-1a of its HTML (the excerpt follows
    /// from the caption's text, which they take too). A build cache keeps it with the render,
    /// so that a rebuild need not decode every caption it keeps to fingerprint their cards.
    package static func digest(html: String) -> UInt64 { StableHash.fnv1a(html) }
}

/// Captions rendered before (by a build cache, which matched them by text): those of tweets
/// of `snapshot.tweets` (by index) that it has, rendered in `context` (none serves a build
/// whose `SiteRenderer.captionContext` differs), each decoded only when a page shows it.
package struct CaptionRenders: Sendable {
    package let context: UInt64
    /// Whether it has tweet `t`'s caption.
    package let has: @Sendable (_ tweet: Int) -> Bool
    /// Tweet `t`'s render, when it has it (nil if it does not decode).
    package let render: @Sendable (_ tweet: Int) -> CaptionRender?
    /// `CaptionRender.digest` of tweet `t`'s render, when it has it, without decoding it.
    package let digest: @Sendable (_ tweet: Int) -> UInt64

    package init(
        context: UInt64, has: @escaping @Sendable (Int) -> Bool, render: @escaping @Sendable (Int) -> CaptionRender?,
        digest: @escaping @Sendable (Int) -> UInt64
    ) {
        self.context = context
        self.has = has
        self.render = render
        self.digest = digest
    }
}
