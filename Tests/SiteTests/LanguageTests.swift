import Foundation
import Model
import Mustache
import Site
import Store
import TestSupport
import Testing

// SPEC 10: the theme's words come from a translation table chosen by `language` (en and ko
// ship); text in another script than the site's language carries its `lang`.

/// The sample site in Korean has none of the English table's words, once the store's own
/// text is taken out.
@Suite struct KoreanSample {
    /// Every word (letters only, lowercased) of the English table's texts, tags left out.
    static let englishWords: Set<String> = {
        var words = Set<String>()
        for text in try! table("en").values {
            let plain = text.replacingOccurrences(of: #"\{\{[^}]*\}\}"#, with: " ", options: .regularExpression)
                .replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression)
            words.formUnion(latinWords(plain))
        }
        // Names, not English: Korean writes them so too (`Atom 피드`, `3:05 UTC`).
        return words.subtracting(["atom", "utc"])
    }()

    static func table(_ language: String) throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(packageRoot)/templates/i18n/\(language).json"))
        return try JSONSerialization.jsonObject(with: data) as! [String: String]
    }

    static func latinWords(_ text: String) -> [String] {
        text.split { !($0.isASCII && $0.isLetter) }.map { $0.lowercased() }
    }

    /// What a reader of `html` reads (text and the attributes that are read out), without
    /// the store's own text: captions and bios (their elements), names, usernames, handles,
    /// tags, places, and the caption excerpts of tweet pages' titles and descriptions.
    static func uiText(_ html: String, path: String, storeStrings: [String]) -> String {
        var html = html
        for pattern in [
            #"(?s)<div class="e-content caption"[^>]*>.*?</div>"#,
            #"(?s)<div class="p-note profile-bio"[^>]*>.*?</div>"#, #"(?s)<script[^>]*>.*?</script>"#,
            // What a reader types (the search page's operators) is syntax, not the page's language.
            #"(?s)<code>.*?</code>"#,
        ] {
            html = html.replacingOccurrences(of: pattern, with: " ", options: [.regularExpression])
        }
        if path.hasPrefix("t/") {
            // A tweet page's description is its caption's excerpt, and so is its title's quote.
            html = html.replacingOccurrences(
                of: #"<meta name="description" content="[^"]*">"#, with: " ", options: .regularExpression)
            html = html.replacingOccurrences(of: "“[^”]*”", with: " ", options: .regularExpression)
        }
        var read: [String] = []
        for name in ["aria-label", "alt", "title", "content"] {
            read += attributeValues(name, in: html)
        }
        // `content` of the other <meta>s is not read; keep only the description's.
        read.removeAll {
            $0 == "utf-8" || $0.hasPrefix("width=") || $0.hasPrefix("light") || $0.hasPrefix("default-src")
        }
        let text = html.replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression)
        read.append(decodeReferences(text))
        var all = read.joined(separator: "\n")
        for string in storeStrings { all = all.replacingOccurrences(of: string, with: " ") }
        return all
    }

    static func storeStrings(_ snapshot: Snapshot) -> [String] {
        var strings: [String] = []
        for (u, user) in snapshot.users.enumerated() {
            strings += [user.fullname, user.username, user.handle]
            for place in snapshot.userActivity[u].favorites { strings += [place.name, place.address ?? ""] }
        }
        strings += snapshot.tags.map(\.tag)
        // Longest first, so that a name is not cut by a shorter one inside it.
        return strings.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// The English UI words on each page of the sample rendered in `language`.
    static func englishUIWords(language: String) throws -> (words: [String: Set<String>], pages: Int, text: String) {
        let snapshot = Snapshot(documents: try SampleStore.documents())
        let site = try render(snapshot: snapshot, config: SiteConfig(language: language))
        let strings = storeStrings(snapshot)
        var found: [String: Set<String>] = [:]
        var allText = ""
        for path in site.htmlPaths {
            let text = uiText(site.files[path]!, path: path, storeStrings: strings)
            allText += text
            let words = Set(latinWords(text)).intersection(englishWords)
            if !words.isEmpty { found[path] = words }
        }
        return (found, site.htmlPaths.count, allText)
    }

    @Test func noEnglishUIWordOnAnyPage() throws {
        let (found, pages, text) = try Self.englishUIWords(language: "ko")
        #expect(pages > 100)
        #expect(found.isEmpty, "English words on Korean pages: \(found.sorted { $0.key < $1.key }.prefix(5))")
        // What was checked is the Korean UI: its words are there.
        for word in ["본문으로 건너뛰기", "답글", "좋아요", "즐겨찾기", "최신 트윗", "오후", "Atom 피드"] {
            #expect(text.contains(word), "\(word)")
        }
    }

    /// The same check finds the English UI on the English build: it is not vacuous.
    @Test func theCheckFindsTheEnglishUI() throws {
        let (found, _, _) = try Self.englishUIWords(language: "en")
        let seen = found.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let expected: Set<String> = [
            "skip", "content", "home", "feed", "latest", "tweets", "replies", "likes", "favorites", "page",
            "newer", "older", "replying", "map", "profile", "sections", "made", "with", "found", "jun",
        ]
        #expect(expected.isSubset(of: seen), "not found: \(expected.subtracting(seen).sorted())")
        #expect(found.count > 100, "pages with English words: \(found.count)")
        #expect(
            Double(seen.count) > Double(Self.englishWords.count) * 0.6, "\(seen.count) of \(Self.englishWords.count)")
    }

    /// Every key of the English table has a Korean text (the fallback is for other themes).
    @Test func koreanTableIsComplete() throws {
        #expect(Set(try Self.table("ko").keys) == Set(try Self.table("en").keys))
    }
}

/// How pages show times: English as before, Korean as Korean readers write them.
@Suite struct LanguageDates {
    static func published(_ time: String, language: String) throws -> String {
        let site = try render(
            [user("u1", "mina"), tweet("t1", by: "u1", at: time)], config: SiteConfig(language: language))
        let card = try #require(card("t1", in: try site.page("t/t1/index.html")))
        let time = try #require(section(card, from: "<time ", to: "</time>"))
        return String(time[time.index(after: time.firstIndex(of: ">")!)...].dropLast("</time>".count))
    }

    @Test(arguments: [
        ("2023-06-10T15:05:00Z", "Jun 10, 2023, 15:05 UTC", "2023년 6월 10일 오후 3:05 UTC"),
        ("2023-06-10T03:00:00Z", "Jun 10, 2023, 03:00 UTC", "2023년 6월 10일 오전 3:00 UTC"),
        ("2024-01-01T00:30:00Z", "Jan 1, 2024, 00:30 UTC", "2024년 1월 1일 오전 12:30 UTC"),
        ("2024-12-31T12:00:59Z", "Dec 31, 2024, 12:00 UTC", "2024년 12월 31일 오후 12:00 UTC"),
        ("2024-02-29T23:59:00.5Z", "Feb 29, 2024, 23:59 UTC", "2024년 2월 29일 오후 11:59 UTC"),
    ])
    func datesInEachLanguage(time: String, english: String, korean: String) throws {
        #expect(try Self.published(time, language: "en") == english)
        #expect(try Self.published(time, language: "ko") == korean)
    }
}

/// `<html lang>`, the table a language tag picks, and the errors.
@Suite struct LanguageChoice {
    let store = [user("u1", "mina", fullname: "Mina"), tweet("t1", by: "u1", at: at(minute: 1), "Hello")]

    @Test(arguments: [("en", "en", "Latest tweets"), ("ko", "ko", "최신 트윗"), ("ko-KR", "ko-KR", "최신 트윗")])
    func htmlLangIsTheSiteLanguage(language: String, lang: String, heading: String) throws {
        let site = try render(store, config: SiteConfig(language: language))
        for path in site.htmlPaths {
            #expect(site.files[path]!.contains("<html lang=\"\(lang)\">"), "\(path)")
        }
        #expect(try site.page("index.html").contains("<h1 class=\"page-title\">\(heading)</h1>"))
        #expect(try site.page("feed.xml").contains("xml:lang=\"\(lang)\""))
    }

    @Test func tagsMatchIgnoringCaseAndRegion() throws {
        #expect(defaultTheme.language(matching: "ko") == "ko")
        #expect(defaultTheme.language(matching: "KO") == "ko")
        #expect(defaultTheme.language(matching: "ko-KR") == "ko")
        #expect(defaultTheme.language(matching: "en-GB") == "en")
        #expect(defaultTheme.language(matching: "fr") == nil)
        #expect(defaultTheme.language(matching: "ko-\"><x>") == nil)
        #expect(defaultTheme.language(matching: "") == nil)
        #expect(defaultTheme.languages == ["en", "ko"])
    }

    @Test func unknownLanguageNamesTheOnesTheThemeHas() throws {
        do {
            _ = try defaultTheme.templates(for: "fr")
            Issue.record("no error")
        } catch {
            guard case .unknownLanguage("fr", let available, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(available == ["en", "ko"])
            #expect("\(error)".contains("'fr'") && "\(error)".contains("en, ko") && "\(error)".contains("i18n/fr.json"))
        }
    }

    /// The default theme's files, with `changes` (path → text, nil to remove).
    static func theme(_ changes: [String: String?]) throws -> LocalizedTemplates {
        let root = packageRoot + "/templates"
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".mustache") || relative.hasSuffix(".json"),
                let data = FileManager.default.contents(atPath: root + "/" + relative)
            else { continue }
            files[relative] = [UInt8](data)
        }
        for (path, text) in changes { files[path] = text.map { Array($0.utf8) } }
        return try LocalizedTemplates(files: files.map { ($0.key, $0.value) }, origin: "theme")
    }

    /// A key the language's table leaves out is the English text, in templates and in what
    /// Roost renders itself (a tab's name, its page title).
    @Test func missingKeyFallsBackToEnglish() throws {
        var korean = try KoreanSample.table("ko")
        korean["tab.likes"] = nil
        korean["feed.heading"] = nil
        let json = String(decoding: try JSONSerialization.data(withJSONObject: korean), as: UTF8.self)
        let theme = try Self.theme(["i18n/ko.json": json])
        let renderer = try SiteRenderer(
            snapshot: Snapshot(documents: store), config: SiteConfig(language: "ko"),
            templates: try theme.templates(for: "ko"))
        let pages = Dictionary(
            uniqueKeysWithValues: try renderer.plan.pages.map {
                ($0.path, String(decoding: try renderer.render($0), as: UTF8.self))
            })
        let feed = try #require(pages["index.html"])
        #expect(feed.contains("<h1 class=\"page-title\">Latest tweets</h1>"))
        #expect(feed.contains("본문으로 건너뛰기"))
        let likes = try #require(pages["u/mina/likes/index.html"])
        #expect(likes.contains("<title>Mina(@mina) · Likes · Roost</title>"))
        #expect(likes.contains(">Likes <span class=\"tab-count\">0</span></a>"))
        #expect(likes.contains(">답글 <span class=\"tab-count\">0</span></a>"))
        #expect(likes.contains("<p class=\"empty\">@mina 님이 좋아한 트윗이 아직 없습니다.</p>"))
    }

    @Test func textsRenderInTheirContextEscapedOnce() throws {
        let theme = try LocalizedTemplates(
            files: [
                ("page.mustache", Array("[{{>t/hello}}] [{{>t/bye}}]".utf8)),
                ("i18n/en.json", Array(#"{"hello": "Hello, {{name}}!", "bye": "Bye"}"#.utf8)),
                ("i18n/ko.json", Array(#"{"hello": "{{name}} 님, 안녕하세요!"}"#.utf8)),
            ], origin: "theme")
        let context: MustacheValue = ["name": "<Mina & Bob>"]
        #expect(
            try theme.templates(for: "en").renderString("page", context) == "[Hello, &lt;Mina &amp; Bob&gt;!] [Bye]")
        #expect(
            try theme.templates(for: "ko").renderString("page", context) == "[&lt;Mina &amp; Bob&gt; 님, 안녕하세요!] [Bye]")
    }

    /// Titles and other words Roost renders are plain text: a name is escaped once, by the layout.
    @Test func titlesAreEscapedOnce() throws {
        let site = try render(
            [user("u1", "mina", fullname: "Tom & <Jerry> &amp;"), tweet("t1", by: "u1", at: at(minute: 1))],
            config: SiteConfig(title: "A \"B\" & C"))
        let profile = try site.page("u/mina/index.html")
        #expect(profile.contains("<title>Tom &amp; &lt;Jerry&gt; &amp;amp; (@mina) · A &quot;B&quot; &amp; C</title>"))
        #expect(
            profile.contains(
                "<meta name=\"description\" content=\"Tweets of Tom &amp; &lt;Jerry&gt; &amp;amp; (@mina) on A &quot;B&quot; &amp; C.\">"
            ))
    }

    @Test func configuredDescriptionIsTheFeedsDescription() throws {
        let site = try render(store, config: SiteConfig(description: "Our team's tweets", language: "ko"))
        #expect(try site.page("index.html").contains("<meta name=\"description\" content=\"Our team&#39;s tweets\">"))
    }

    @Test func brokenTablesAreErrorsNamingTheFile() throws {
        func problem(_ changes: [String: String?]) -> String {
            do {
                _ = try Self.theme(changes)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(problem(["i18n/en.json": nil]).contains("theme/i18n/en.json: not found"))
        #expect(problem(["i18n/ko.json": "[1]"]).contains("theme/i18n/ko.json: not a JSON object"))
        #expect(problem(["i18n/ko.json": "{\"a\": 1}"]).contains("key 'a': a text is a string, not a number"))
        #expect(problem(["i18n/ko.json": "{\"a b\": \"x\"}"]).contains("key 'a b'"))
        #expect(problem(["i18n/ko.json": "{\"a\": \"x\", \"a\": \"y\"}"]).contains("key 'a' is there twice"))
        #expect(problem(["i18n/ko.json": "{\"a\": "]).contains("theme/i18n/ko.json: 1:"))
        #expect(problem(["i18n/k o.json": "{}"]).contains("'k o' is not a language tag"))
        // A text is a template: a syntax error names the table and the key.
        #expect(problem(["i18n/ko.json": "{\"nav.home\": \"{{#x}}\"}"]).contains("theme/i18n/ko.json (nav.home)"))
        // A template that uses a key no table has does not load.
        #expect(problem(["404.mustache": "{{>t/nowhere}}"]).contains("t/nowhere"))
    }

    @Test func aTextRoostNeedsIsRequired() throws {
        var english = try KoreanSample.table("en")
        english["date"] = nil
        var korean = try KoreanSample.table("ko")
        korean["date"] = nil
        func json(_ table: [String: String]) -> String {
            String(decoding: try! JSONSerialization.data(withJSONObject: table), as: UTF8.self)
        }
        let theme = try Self.theme(["i18n/en.json": json(english), "i18n/ko.json": json(korean)])
        do {
            _ = try SiteRenderer(
                snapshot: Snapshot(documents: store), config: SiteConfig(), templates: try theme.templates(for: "en"),
                templateFolder: "theme")
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "theme/i18n/en.json: no text 'date' (every theme needs it)")
        }
    }
}

/// The `lang` of text in another script than the site language's.
@Suite struct ScriptLanguages {
    @Test(
        arguments: [
            // (site, text, lang)
            ("en", "Hot take: #swift is fun", nil),
            ("en", "오늘 #서울 날씨 좋다", "ko"),
            ("ko", "오늘 #서울 날씨 좋다", nil),
            ("ko", "Hot take: #swift is fun", "en"),
            ("en", "🎉🎉 🙃", nil),  // no letters
            ("ko", "12:30 — 100%!", nil),
            ("en", "新しいMacBook Proを買った", "ja"),  // kana: Han counts for Japanese
            ("en", "東京", "zh"),  // Han alone
            ("ja", "東京", nil),  // …is a Japanese site's own script
            ("ko", "北京烤鸭", "zh"),
            ("en", "Привет, мир", "ru"),
            ("ko", "Γειά σου", "el"),
            ("en", "مرحبا بالعالم", "ar"),
            ("en", "สวัสดีครับ", "th"),
            // Mixed: the larger part wins (a Hangul syllable counts three letters).
            ("en", "새 맥북 MacBook Pro 샀다", "ko"),
            ("en", "Love this little 카페", nil),
            ("ko", "Love this little 카페", "en"),
            ("ko", "iOS 개발자입니다 SwiftUI", nil),
            ("ko", "iOS 개발자 SwiftUI", "en"),
            // URLs and @mentions are not words of the text.
            ("en", "좋다 https://example.com/a/very/long/english/path @someone_with_a_long_name", "ko"),
            ("en", "[카페](https://example.com/the-best-coffee-in-seoul-guide)", "ko"),
            // A tie is the site's.
            ("en", "abc 가", nil),
            ("ko", "abc 가", nil),
            // Languages by their script, region and script subtags.
            ("fr", "Bonjour", nil),
            ("ko-KR", "안녕", nil),
            ("en-US", "안녕", "ko"),
            ("sr-Cyrl", "Здраво", nil),
            ("sr-Latn", "Здраво", "ru"),
            ("tlh", "Hello", "en"),  // a language Roost knows no script for
        ] as [(String, String, String?)])
    func rule(site: String, text: String, lang: String?) {
        #expect(ScriptLanguage(siteLanguage: site).lang(of: text) == lang)
    }

    static let store = [
        user("uKo", "jiwoo", fullname: "김지우", bio: "iOS 개발자. 커피 없으면 빌드 안 됨"),
        user("uEn", "dan", fullname: "Daniel Kim", bio: "Swift, coffee, bad puns."),
        tweet("ko", by: "uKo", at: at(minute: 1), "오늘 #서울 날씨 좋다"),
        tweet("en", by: "uEn", at: at(minute: 2), "Hot take: #swift is fun"),
        tweet("mixed", by: "uEn", at: at(minute: 3), "Hello 안녕하세요 반갑습니다"),
        tweet("emoji", by: "uEn", at: at(minute: 4), "🎉🎉🎉"),
        favorite("uKo", "p1", "남산서울타워", address: "서울 용산구 남산공원길 105"),
        favorite("uKo", "p2", "Blue Bottle", address: "Seongsu-dong"),
    ]

    static func caption(_ id: String, _ site: RenderedSite) throws -> String {
        let card = try #require(card(id, in: try site.page("t/\(id)/index.html")))
        return try #require(section(card, from: "<div class=\"e-content caption\"", to: ">"))
    }

    @Test func captionsOnAnEnglishSite() throws {
        let site = try render(Self.store)
        #expect(try Self.caption("ko", site) == "<div class=\"e-content caption\" lang=\"ko\">")
        #expect(try Self.caption("en", site) == "<div class=\"e-content caption\">")
        #expect(try Self.caption("mixed", site) == "<div class=\"e-content caption\" lang=\"ko\">")
        #expect(try Self.caption("emoji", site) == "<div class=\"e-content caption\">")
        // Every card of a tweet says so, on every page.
        for (path, card) in everyCard(of: "ko", in: site) {
            #expect(card.contains("<div class=\"e-content caption\" lang=\"ko\">"), "\(path)")
        }
        let feed = try site.page("feed.xml")
        #expect(feed.contains("<content type=\"html\" xml:lang=\"ko\">"))
        #expect(feed.components(separatedBy: "<content type=\"html\" xml:lang=\"ko\">").count == 3)
        #expect(feed.components(separatedBy: "<content type=\"html\">").count == 3)
    }

    @Test func captionsOnAKoreanSite() throws {
        let site = try render(Self.store, config: SiteConfig(language: "ko"))
        #expect(try Self.caption("ko", site) == "<div class=\"e-content caption\">")
        #expect(try Self.caption("en", site) == "<div class=\"e-content caption\" lang=\"en\">")
        #expect(try Self.caption("mixed", site) == "<div class=\"e-content caption\">")
        #expect(try Self.caption("emoji", site) == "<div class=\"e-content caption\">")
    }

    @Test func namesBiosPlacesAndTags() throws {
        let site = try render(Self.store)
        let profile = try site.page("u/jiwoo/index.html")
        #expect(profile.contains("<h1 class=\"p-name profile-name\" lang=\"ko\">김지우</h1>"))
        #expect(profile.contains("<div class=\"p-note profile-bio\" lang=\"ko\">"))
        #expect(profile.contains("<span class=\"p-name name\" lang=\"ko\">김지우</span>"))
        #expect(profile.contains("<a class=\"u-url p-nickname\" href=\"u/jiwoo/index.html\">@jiwoo</a>"))
        let english = try site.page("u/dan/index.html")
        #expect(english.contains("<h1 class=\"p-name profile-name\">Daniel Kim</h1>"))
        #expect(english.contains("<div class=\"p-note profile-bio\">"))
        let places = try site.page("u/jiwoo/favorites/index.html")
        #expect(places.contains("<h3 class=\"p-name place-name\" lang=\"ko\">남산서울타워</h3>"))
        #expect(places.contains("<p class=\"p-adr place-address\" lang=\"ko\">서울 용산구 남산공원길 105</p>"))
        #expect(places.contains("<h3 class=\"p-name place-name\">Blue Bottle</h3>"))
        #expect(places.contains("<p class=\"p-adr place-address\">Seongsu-dong</p>"))
        let tag = try site.page("tags/서울/index.html")
        #expect(tag.contains("<h1 class=\"page-title has-subtitle\"><span lang=\"ko\">#서울</span>"))
        #expect(try site.page("tags/swift/index.html").contains("<h1 class=\"page-title has-subtitle\">#swift"))

        let korean = try render(Self.store, config: SiteConfig(language: "ko"))
        #expect(
            try korean.page("u/dan/index.html").contains(
                "<h1 class=\"p-name profile-name\" lang=\"en\">Daniel Kim</h1>"))
        #expect(try korean.page("u/jiwoo/index.html").contains("<h1 class=\"p-name profile-name\">김지우</h1>"))
        #expect(
            try korean.page("u/jiwoo/index.html").contains(
                "<a class=\"u-url p-nickname\" href=\"u/jiwoo/index.html\" lang=\"en\">@jiwoo</a>"))
    }
}
