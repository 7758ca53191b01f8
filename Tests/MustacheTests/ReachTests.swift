import Mustache
import Testing

/// `templatesReachable(from:)`: which templates a render can include, read without rendering.
@Suite struct ReachTests {
    static let library = try! TemplateLibrary(templates: [
        "page": "{{<layout}}{{$main}}{{#items}}{{>item}}{{/items}}{{/main}}{{/layout}}",
        "layout": "<main>{{$main}}{{/main}}</main>{{>footer}}",
        "item": "{{^done}}{{>badge}}{{/done}}",
        "badge": "!",
        "footer": "{{>footer-links}}",
        "footer-links": "{{#more}}{{>footer}}{{/more}}",  // a cycle
        "other": "unrelated",
        "picker": "{{>*which}}",
        "uses-picker": "{{>picker}}",
    ])

    @Test func followsParentsBlocksSectionsAndCycles() {
        #expect(
            Self.library.templatesReachable(from: ["page"])
                == ["badge", "footer", "footer-links", "item", "layout", "page"])
        #expect(Self.library.templatesReachable(from: ["other"]) == ["other"])
        #expect(Self.library.templatesReachable(from: ["badge", "other"]) == ["badge", "other"])
    }

    @Test func aDynamicNameMayIncludeAnyTemplate() {
        #expect(Self.library.templatesReachable(from: ["uses-picker"]) == nil)
        let all = Self.library.fingerprint(ofTemplatesReachableFrom: ["uses-picker"])
        #expect(Self.library.fingerprint(ofTemplatesReachableFrom: ["picker"]) == all)
    }

    @Test func theFingerprintChangesWithAReachableTemplateOnly() throws {
        func fingerprint(_ changes: [String: String]) throws -> Int {
            var templates: [String: String] = ["page": "{{>card}}", "card": "c", "tag": "t"]
            templates.merge(changes) { $1 }
            return try TemplateLibrary(templates: templates).fingerprint(ofTemplatesReachableFrom: ["page"])
        }
        let base = try fingerprint([:])
        #expect(try fingerprint(["tag": "t2"]) == base)
        #expect(try fingerprint(["card": "c2"]) != base)
        #expect(try fingerprint(["page": "{{>card}} "]) != base)
        #expect(try fingerprint(["page": "{{>tag}}"]) != base)
    }
}
