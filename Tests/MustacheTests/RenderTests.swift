import Foundation
import Mustache
import TestSupport
import Testing

struct User: MustacheObject {
    let name: String
    let handle: String
    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "name": .string(name)
        case "handle": .string(handle)
        default: nil
        }
    }
}

struct Tweet: MustacheObject {
    let text: String
    let likes: Int
    let author: User
    let tags: [String]
    let score: Double
    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "text": .string(text)
        case "likes": .int(likes)
        case "author": author.mustacheValue
        case "tags": tags.mustacheValue
        case "score": .double(score)
        default: nil
        }
    }
}

struct Page: MustacheObject {
    let title: String
    let tweets: [Tweet]
    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "title": .string(title)
        case "tweets": tweets.mustacheValue
        case "bold": .lambda(MustacheLambda { (text: String) in "<b>" + text + "</b>" })
        default: nil
        }
    }
}

let sampleUser = User(name: "Ada <Lovelace>", handle: "ada")
let samplePage = Page(
    title: "Home",
    tweets: [
        Tweet(text: "Hello & welcome", likes: 3, author: sampleUser, tags: ["a", "b"], score: 1.210),
        Tweet(text: "Second", likes: 0, author: sampleUser, tags: [], score: 2),
    ])

@Suite struct RenderTests {
    @Test func structsAdoptingTheProtocol() throws {
        let template = try Template(
            source: """
                <h1>{{title}}</h1>
                {{#tweets}}
                <p>{{text}} by {{author.name}} (@{{author.handle}}) {{likes}} {{score}}{{#tags}} #{{.}}{{/tags}}</p>
                {{^likes}}
                no likes
                {{/likes}}
                {{/tweets}}
                {{#bold}}{{title}}{{/bold}}
                """)
        #expect(
            try template.renderString(samplePage) == """
                <h1>Home</h1>
                <p>Hello &amp; welcome by Ada &lt;Lovelace&gt; (@ada) 3 1.21 #a #b</p>
                <p>Second by Ada &lt;Lovelace&gt; (@ada) 0 2</p>
                no likes
                <b>Home</b>
                """)
    }

    @Test func htmlEscaping() throws {
        let template = try Template(source: "{{v}}|{{{v}}}|{{&v}}")
        let value: MustacheValue = ["v": "<a href=\"x\">Tom & Jerry's</a> é"]
        #expect(
            try template.renderString(value)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt; é|<a href=\"x\">Tom & Jerry's</a> é|<a href=\"x\">Tom & Jerry's</a> é"
        )
    }

    @Test func numbersAndBooleans() throws {
        let template = try Template(source: "{{a}} {{b}} {{c}} {{d}} {{e}} {{f}}")
        let value: MustacheValue = ["a": 1.210, "b": 42, "c": -7, "d": 3.0, "e": true, "f": nil]
        #expect(try template.renderString(value) == "1.21 42 -7 3 true ")
    }

    @Test func renderAppendsIntoBuffer() throws {
        let template = try Template(source: "[{{.}}]")
        var buffer = Array("start".utf8)
        try template.render("x", into: &buffer)
        try template.render(5, into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "start[x][5]")
    }

    @Test func looselyTypedDictionaries() throws {
        let any: [String: Any] = ["name": "Bo", "items": [["n": 1], ["n": 2.5]], "ok": true, "none": NSNull()]
        let template = try Template(source: "{{name}}{{#items}} {{n}}{{/items}}{{#ok}}!{{/ok}}{{^none}}?{{/none}}")
        #expect(try template.renderString(MustacheValue(any: any)) == "Bo 1 2.5!?")
    }

    @Test func partialsFromAFolder() throws {
        let root = try TemporaryFolder()
        let templates = root.path("templates")
        func write(_ path: String, _ text: String) throws { try root.write("templates/" + path, text) }
        try write(
            "layout.mustache", "<title>{{$title}}Roost{{/title}}</title>\n<body>\n  {{$body}}\n  {{/body}}\n</body>\n")
        try write(
            "page.mustache",
            """
            {{<layout}}
            {{$title}}{{title}}{{/title}}
            {{$body}}
            {{#tweets}}
            {{> partials/card}}
            {{/tweets}}
            {{/body}}
            {{/layout}}
            """)
        try write("partials/card.mustache", "<div>\n  {{text}}\n  {{>partials/deep/by}}\n</div>\n")
        try write("partials/deep/by.mustache", "<i>{{author.handle}}</i>\n")
        try write("notes.txt", "not a template {{")

        let library = try TemplateLibrary(directory: templates)
        #expect(library.templateNames == ["layout", "page", "partials/card", "partials/deep/by"])
        #expect(
            try library.renderString("page", samplePage) == """
                <title>Home</title>
                <body>
                  <div>
                    Hello &amp; welcome
                    <i>ada</i>
                  </div>
                  <div>
                    Second
                    <i>ada</i>
                  </div>
                </body>

                """)
        // An inline block site: the argument's first line continues the line.
        try write("inline.mustache", "<body>\n  {{$body}}{{/body}}\n</body>\n")
        try write(
            "page2.mustache",
            "{{<inline}}\n{{$body}}\n{{#tweets}}\n{{>partials/card}}\n{{/tweets}}\n{{/body}}\n{{/inline}}\n")
        #expect(
            try TemplateLibrary(directory: templates).renderString("page2", samplePage) == """
                <body>
                  <div>
                    Hello &amp; welcome
                    <i>ada</i>
                  </div>
                  <div>
                    Second
                    <i>ada</i>
                  </div>

                </body>

                """)

        try write("broken.mustache", "ok\n{{#open}}\n")
        #expect(
            throws: MustacheError.unclosedSection(
                name: "open", at: SourceLocation(file: templates + "/broken.mustache", line: 2, column: 1))
        ) {
            try TemplateLibrary(directory: templates)
        }
        do {
            _ = try TemplateLibrary(directory: templates)
        } catch {
            #expect("\(error)" == "\(templates)/broken.mustache:2:1: unclosed section 'open'")
        }
    }

    @Test func dynamicParentsAndPartials() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{<*layout}}{{$body}}Hi {{name}}{{/body}}{{/*layout}}|{{>*card}}",
            "wide": "[{{$body}}{{/body}}]",
            "narrow": "({{$body}}{{/body}})",
            "small": "<{{name}}>",
        ])
        #expect(
            try library.renderString("page", ["layout": "wide", "card": "small", "name": "Bo"] as MustacheValue)
                == "[Hi Bo]|<Bo>")
        #expect(
            try library.renderString("page", ["layout": "narrow", "card": "small", "name": "Bo"] as MustacheValue)
                == "(Hi Bo)|<Bo>")
    }

    @Test func missingFolderIsAnError() {
        #expect(throws: MustacheError.self) { try TemplateLibrary(directory: "/nonexistent/templates") }
    }

    @Test func compiledOnceRenderedConcurrently() async throws {
        let library = try TemplateLibrary(templates: ["t": "{{#tweets}}{{text}};{{/tweets}}"])
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try library.renderString("t", samplePage) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(outputs) == ["Hello &amp; welcome;Second;"])
    }
}
