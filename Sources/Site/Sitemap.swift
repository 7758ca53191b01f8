/// `sitemap.xml` (and, past 50,000 URLs, an index of `sitemap-N.xml` parts), written in
/// code: it has no look to theme.
struct Sitemap {
    let site: SiteContext
    let plan: SitePlan

    /// `part` nil: `sitemap.xml`; else that part of a split sitemap (1-based).
    func render(part: Int?) -> [UInt8] {
        let pages = plan.sitemapIndices
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let parts = (pages.count + SitePlan.sitemapLimit - 1) / SitePlan.sitemapLimit
        if part == nil, parts > 1 {
            xml += "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            for part in 1...parts {
                xml += "  <sitemap><loc>\(escape(site.config.baseURL + "sitemap-\(part).xml"))</loc></sitemap>\n"
            }
            xml += "</sitemapindex>\n"
            return Array(xml.utf8)
        }
        var slice = pages[...]
        if let part {
            let start = (part - 1) * SitePlan.sitemapLimit
            slice = pages[start..<min(pages.count, start + SitePlan.sitemapLimit)]
        }
        xml += "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for index in slice {
            let page = plan.pages[Int(index)]
            let folder = String(page.path.dropLast(SitePaths.index.count))
            xml += "  <url><loc>\(escape(site.absoluteURL(folder)))</loc>"
            if case .tweet(let tweet) = page.kind {
                xml += "<lastmod>\(DateText.iso(site.snapshot.tweets[tweet.value].timestamp))</lastmod>"
            }
            xml += "</url>\n"
        }
        xml += "</urlset>\n"
        return Array(xml.utf8)
    }

    /// URLs here are percent-encoded already; `&` is the one character left to escape.
    private func escape(_ text: String) -> String {
        text.contains("&")
            ? text.split(separator: "&", omittingEmptySubsequences: false).joined(separator: "&amp;") : text
    }
}

/// `sitemap.xml` (`part` nil: the only one, or the index of parts past 50,000 URLs), or a
/// part of a split sitemap (1-based).
struct SitemapPage: PageDeclaration {
    static var templateName: String? { nil }
    static var usesWords: Bool { false }
    let part: Int?

    func render(_ r: SiteRenderer, path: String) throws -> [UInt8] {
        Sitemap(site: r.site, plan: r.plan).render(part: part)
    }

    func fingerprint(_ f: inout PageFingerprint) {
        f.combine(f.inputs.shared.sitemap)  // every path and time
    }
}
