/// What a site context makes of each tweet that a build cache can keep between builds (the
/// larger part of making a context again): its time as pages show it (the theme's
/// `text.date`), and its caption's `lang`. Made of one snapshot, theme and site language.
package struct ContextParts: Sendable, Equatable {
    /// Per tweet (`SiteContext.dates`).
    package var dates: [String]
    /// Per tweet (`SiteContext.captionLangs`).
    package var captionLangs: [String?]

    package init(dates: [String], captionLangs: [String?]) {
        self.dates = dates
        self.captionLangs = captionLangs
    }

    /// These parts with the langs of the captions at `tweets` made again from `captions`
    /// (one each), for a site in `siteLanguage` (as `SiteContext` makes them).
    package func replacingLangs(ofTweets tweets: [Int], captions: [String], siteLanguage: String) -> ContextParts {
        var parts = self
        let scripts = ScriptLanguage(siteLanguage: siteLanguage)
        for (t, caption) in zip(tweets, captions) { parts.captionLangs[t] = scripts.lang(of: caption) }
        return parts
    }
}
