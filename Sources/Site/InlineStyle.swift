import Foundation
import Support

/// The theme's stylesheet written into a page itself, with the hash that lets the page's
/// Content-Security-Policy allow it (`style-src 'sha256-…'`, no `'unsafe-inline'`).
///
/// Only 404.html needs it: servers show that page at any URL, so its `<base>` is the base URL,
/// which from `file://` (a site opened from disk) names the filesystem's root, and a linked
/// stylesheet would not load.
struct InlineStyle: Sendable {
    /// The CSS, as the theme has it (theme text, never store text).
    let css: String
    /// `sha256-` and the base64 of the SHA-256 of the CSS's UTF-8 bytes (CSP level 2 hash source).
    let hashSource: String

    init(css: String) {
        self.css = css
        hashSource = Self.hashSource(of: css)
    }

    /// The CSP hash source (`sha256-…`) of an inline `<style>` or `<script>` holding `text`.
    static func hashSource(of text: String) -> String {
        "sha256-" + Data(SHA256.hash(Array(text.utf8))).base64EncodedString()
    }
}

/// 404.html's one inline script, run right after its `<base>`: opened from `file://`, where
/// that base (the base URL, right at any URL of a server) names the filesystem's root, it
/// makes the page's own folder the base, which is the site's root since the page lies there.
/// Then its scripts, links, icon and search form resolve as on every other page. Over HTTP it
/// does nothing. The page's CSP allows it by its hash (`script-src 'sha256-…'`).
package enum FileBaseScript {
    package static let text =
        #"if(location.protocol==="file:")document.querySelector("base").setAttribute("href","./");"#
    package static let hashSource = InlineStyle.hashSource(of: text)
}
