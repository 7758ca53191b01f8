/// Content types by file name.
enum ContentType {
    static let html = "text/html; charset=utf-8"

    static func of(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "feed.xml" { return "application/atom+xml; charset=utf-8" }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "html", "htm": return html
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json", "map": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "xml": return "application/xml; charset=utf-8"
        case "atom": return "application/atom+xml; charset=utf-8"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "ttf": return "font/ttf"
        case "otf": return "font/otf"
        case "pdf": return "application/pdf"
        case "mp4": return "video/mp4"
        case "webm": return "video/webm"
        case "mp3": return "audio/mpeg"
        case "wasm": return "application/wasm"
        default: return "application/octet-stream"
        }
    }
}
