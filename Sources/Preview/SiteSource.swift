/// Where the preview server gets a site's files from.
///
/// `path` is always a decoded, normalized path relative to the site root, such as
/// `u/mina/index.html` or `style.css`: no leading slash, no empty, `.` or `..` segment,
/// no NUL or backslash (the server refuses such requests before asking the source).
/// Return `nil` for anything that is not a readable file (missing, a folder, outside the site).
package protocol SiteSource: Sendable {
    func file(at path: String) -> [UInt8]?
}
