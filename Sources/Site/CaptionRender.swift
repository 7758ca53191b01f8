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

/// Captions rendered before (by a build cache, which matched them by text): the render of
/// tweet `tweet`'s caption (`snapshot.tweets[tweet]`) for the context it was rendered in; nil
/// when the caption is not known or the context differs.
package typealias CaptionRenders = @Sendable (_ tweet: Int, _ context: UInt64) -> CaptionRender?
