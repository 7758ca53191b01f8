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
        hashSource = "sha256-" + Data(SHA256.hash(Array(css.utf8))).base64EncodedString()
    }
}
