/// The hashtags and mentions of a caption: exactly those the renderer links
/// (mentions regardless of whether the user exists — the renderer links only
/// those `mentionURL` knows).
package enum HashtagsAndMentions {
    /// Hashtags lowercased, without "#", unique, in order of first occurrence;
    /// mentions as written, without "@", unique, in order of first occurrence.
    /// Only text is searched: not code spans or blocks, raw HTML, or the text
    /// of links and images.
    package static func scan(_ markdown: String) -> (hashtags: [String], mentions: [String]) {
        let found = scanAll(markdown)
        return (found.hashtags, found.mentions)
    }

    /// What `scan` finds, and the images (`MarkdownImages`) from the same parse.
    package static func scanAll(_ markdown: String) -> (hashtags: [String], mentions: [String], images: [MarkdownImage])
    {
        var hashtags: [String] = []
        var mentions: [String] = []
        var seenTags: Set<String> = []
        var seenMentions: Set<String> = []
        var linkDepth = 0
        var images = MarkdownImages()
        Cmark.walk(markdown) { event in
            images.handle(event)
            switch event {
            case .enter(.link), .enter(.image):
                linkDepth += 1
            case .exit(.link), .exit(.image):
                linkDepth -= 1
            case .enter(.text(let text)) where linkDepth == 0:
                Tokenizer.segments(of: text) { segment in
                    switch segment {
                    case .hashtag(let tag):
                        let tag = tag.lowercased()
                        if seenTags.insert(tag).inserted { hashtags.append(tag) }
                    case .mention(let handle):
                        if seenMentions.insert(handle).inserted { mentions.append(handle) }
                    case .text, .url:
                        break
                    }
                }
            default:
                break
            }
        }
        return (hashtags, mentions, images.found)
    }
}
