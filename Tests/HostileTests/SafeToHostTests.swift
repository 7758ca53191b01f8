import Foundation
import Site
import Store
import TestSupport
import Testing

// A hang is caught within the limit. It is generous because a test's clock runs while it waits
// for a thread: on 2 cores, the tests that wait for child processes can hold both for minutes.
/// (f) Every HTML page of the sample site can be hosted safely: no inline event handlers, no
/// inline scripts, a Content-Security-Policy that allows scripts from the site only, and
/// external links marked so that search engines and opened pages get nothing from them.
@Suite(.timeLimit(.minutes(5)))
struct SafeToHostTests {
    static let sample: BuiltSite = {
        switch build(
            packageRoot + "/content", config: SiteConfig(baseURL: "https://example.com/roost/", viewer: "mina"))
        {
        case .built(let site): return site
        case let other: fatalError("the sample store does not build: \(other.summary)")
        }
    }()

    @Test func noInlineScriptsOrEventHandlers() throws {
        let site = Self.sample
        #expect(site.htmlPaths.count > 50)
        var problems: [String] = []
        for path in site.htmlPaths {
            for tag in tags(site.text(path)!) {
                for (name, value) in tag.attributes where name.hasPrefix("on") {
                    problems.append("\(path): <\(tag.name) \(name)=\"\(value)\">")
                }
                if tag.name == "script", !isFileBaseScript(tag, in: path) {
                    if tag.attribute("src") == nil { problems.append("\(path): inline <script>") }
                    if let text = tag.rawText, !text.allSatisfy(\.isWhitespace) {
                        problems.append("\(path): <script> with content")
                    }
                }
                for (name, value) in tag.attributes where urlAttributes.contains(name) {
                    if let scheme = browserScheme(value), !["http", "https", "mailto"].contains(scheme) {
                        problems.append("\(path): \(name)=\"\(value)\"")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(lines(problems))")
        // The whole checker agrees (paths, links, XML).
        let emails = site.store.documents.compactMap { document -> String? in
            if case .string(let email)? = document.fields["email"] { return email } else { return nil }
        }
        #expect(emails.count >= 10)
        let all = siteProblems(site, forbidden: emails)
        #expect(all.isEmpty, "\(lines(all))")
    }

    @Test func everyPageHasAContentSecurityPolicyAllowingOnlyTheSitesScripts() throws {
        let site = Self.sample
        for path in site.htmlPaths {
            let metas = tags(site.text(path)!).filter {
                $0.name == "meta" && $0.attribute("http-equiv")?.lowercased() == "content-security-policy"
            }
            #expect(metas.count == 1, "\(path): \(metas.count) CSP meta elements")
            guard let policy = metas.first?.attribute("content") else { continue }
            let directives = Dictionary(
                policy.split(separator: ";").map {
                    let parts = $0.split(separator: " ").map(String.init)
                    return (parts.first ?? "", Array(parts.dropFirst()))
                }, uniquingKeysWith: { a, _ in a })
            // 404.html's script by its hash (`FileBaseScript`), and nothing else inline.
            let scripts = path == "404.html" ? ["'self'", "'\(FileBaseScript.hashSource)'"] : ["'self'"]
            #expect(directives["script-src"] == scripts, "\(path): script-src \(directives["script-src"] ?? [])")
            #expect(directives["object-src"] == ["'none'"], "\(path): object-src")
            #expect(directives["base-uri"] != nil, "\(path): no base-uri")
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(path): \(policy)")
            // The CSP must come before anything it governs.
            let html = site.text(path)!
            let csp = html.range(of: "Content-Security-Policy")!.lowerBound
            #expect(html.range(of: "<script")!.lowerBound > csp && html.range(of: "<base")!.lowerBound > csp, "\(path)")
        }
    }

    /// User content links (captions, bios) carry nofollow, ugc and noopener; so must the
    /// theme's own external links made from user data (the map link of a favorite place).
    @Test func externalLinksCarryNofollowUgcNoopener() throws {
        let site = Self.sample
        var fromUsers: [String] = []
        var fromTheme: [String] = []
        var count = 0
        for path in site.htmlPaths {
            for tag in tags(site.text(path)!) where tag.name == "a" {
                guard let href = tag.attribute("href"), href.lowercased().hasPrefix("http") || href.hasPrefix("//")
                else { continue }
                count += 1
                let rel = Set((tag.attribute("rel") ?? "").lowercased().split(separator: " ").map(String.init))
                guard !rel.isSuperset(of: ["nofollow", "ugc", "noopener"]) else { continue }
                let line =
                    "\(path): <a href=\"\(href)\" rel=\"\(tag.attribute("rel") ?? "")\" class=\"\(tag.attribute("class") ?? "")\">"
                if tag.attribute("class") == "place-map" { fromTheme.append(line) } else { fromUsers.append(line) }
            }
        }
        #expect(count > 10)
        #expect(fromUsers.isEmpty, "\(lines(fromUsers))")
        #expect(fromTheme.isEmpty, "\(fromTheme.count) map links, e.g. \(fromTheme.first ?? "")")
    }
}
