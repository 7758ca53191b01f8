import Foundation
import Mustache
import Site
import Store

// Fixtures shared by the test targets: the package and its theme, and builders of the
// documents of SPEC 2.3 for stores a test writes itself.

// MARK: - The package and its default theme

/// The package root, from this file's path (`<root>/Tests/TestSupport/Fixtures.swift`).
package let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The default theme's templates and texts (`templates/*.mustache`, `i18n/`), by path in
/// code point order, read once.
package let defaultThemeFiles: [(path: String, bytes: [UInt8])] = {
    let root = packageRoot + "/templates"
    var files: [(path: String, bytes: [UInt8])] = []
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let relative = enumerator?.nextObject() as? String {
        guard relative.hasSuffix(".mustache") || relative.hasPrefix("i18n/"),
            let data = FileManager.default.contents(atPath: root + "/" + relative)
        else { continue }
        files.append((relative, [UInt8](data)))
    }
    return files.sorted { $0.path < $1.path }
}()

/// The default theme's templates in each of its languages, loaded once for the whole suite.
package let defaultTheme: LocalizedTemplates = {
    let root = packageRoot + "/templates"
    do { return try LocalizedTemplates(files: defaultThemeFiles, origin: root) } catch {
        fatalError("cannot load \(root): \(error)")
    }
}()

/// The default theme in English.
package let defaultTemplates: TemplateLibrary = defaultTemplates(language: "en")

/// The default theme in `language` (one of its tables).
package func defaultTemplates(language: String) -> TemplateLibrary {
    do { return try defaultTheme.templates(for: language) } catch {
        fatalError("the default theme has no \(language): \(error)")
    }
}

/// The default theme's `static/style.css` (404.html carries it: see `SiteRenderer`'s `stylesheet`).
package let defaultStylesheet: String = {
    guard let data = FileManager.default.contents(atPath: packageRoot + "/templates/static/style.css") else {
        fatalError("no templates/static/style.css in \(packageRoot)")
    }
    return String(decoding: data, as: UTF8.self)
}()

/// `static/…` paths of the theme's assets (copied to the output as they are).
package let themeAssets: Set<String> = {
    let root = packageRoot + "/templates/static"
    var found: Set<String> = []
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let relative = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            found.insert("static/" + relative)
        }
    }
    return found
}()

// MARK: - Documents

package func doc(_ path: String, _ fields: [(String, Value)] = []) -> Document {
    Document(
        path: DocumentPath(string: path)!, fields: Fields(fields.map { (key: $0.0, value: $0.1) }),
        source: path + ".json")
}

/// `users/{uid}`; the e-mail defaults to `{uid}@private.example` (it must never be written).
package func user(
    _ uid: String, _ username: String, fullname: String? = nil, bio: String? = nil,
    image: String? = nil, email: String? = nil
) -> Document {
    var fields: [(String, Value)] = [
        ("username", .string(username)),
        ("email", .string(email ?? "\(uid)@private.example")),
    ]
    if let fullname { fields.append(("fullname", .string(fullname))) }
    if let bio { fields.append(("bio", .string(bio))) }
    if let image { fields.append(("profileImageUrl", .string(image))) }
    return doc("users/\(uid)", fields)
}

/// `tweets/{id}`; `time` is an RFC 3339 string.
package func tweet(
    _ id: String, by uid: String, at time: String, _ caption: String = "hello",
    replyTo: String? = nil, likes: Int64? = nil
) -> Document {
    var fields: [(String, Value)] = [
        ("caption", .string(caption)), ("timestamp", .string(time)), ("uid", .string(uid)),
    ]
    if let replyTo { fields.append(("replyTo", .string(replyTo))) }
    if let likes { fields.append(("likes", .integer(likes))) }
    return doc("tweets/\(id)", fields)
}

/// `users/{uid}/user-likes/{tweetID}`, with or without a like timestamp.
package func like(_ uid: String, _ tweetID: String, at time: String? = nil) -> Document {
    doc("users/\(uid)/user-likes/\(tweetID)", time.map { [("timestamp", .string($0))] } ?? [])
}

/// `favorites/{uid}/favorites/{id}`.
package func favorite(_ uid: String, _ id: String, _ name: String, address: String? = nil, coordinate: Value? = nil)
    -> Document
{
    var fields: [(String, Value)] = [("placeName", .string(name))]
    if let address { fields.append(("address", .string(address))) }
    if let coordinate { fields.append(("coordinate", coordinate)) }
    return doc("favorites/\(uid)/favorites/\(id)", fields)
}

// MARK: - Paths

/// Decodes `%XX` escapes (as UTF-8); nil when malformed.
package func percentDecoded(_ text: String) -> String? {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let b = utf8.first {
        utf8 = utf8.dropFirst()
        if b == UInt8(ascii: "%") {
            guard utf8.count >= 2, let v = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(v)
            utf8 = utf8.dropFirst(2)
        } else {
            bytes.append(b)
        }
    }
    return String(validating: bytes, as: UTF8.self)
}

// MARK: - Reading HTML

/// Decodes `&amp;` `&lt;` `&gt;` `&quot;` `&#39;` `&apos;` and numeric references.
package func decodeReferences(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
    // Scalars, not Characters: "&gt;" followed by a combining mark is still a reference.
    var out = String.UnicodeScalarView()
    var rest = Substring(text).unicodeScalars
    while let amp = rest.firstIndex(of: "&") {
        out.append(contentsOf: rest[..<amp])
        let after = rest[rest.index(after: amp)...]
        if let semi = after.prefix(12).firstIndex(of: ";") {
            let name = String(after[..<semi])
            var scalar: Unicode.Scalar?
            switch name {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            case "Tab": scalar = "\t"
            case "NewLine": scalar = "\n"
            case "colon": scalar = ":"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar {
                out.append(scalar)
                rest = after[after.index(after: semi)...]
                continue
            }
        }
        out.append("&")
        rest = after
    }
    out.append(contentsOf: rest)
    return String(out)
}
