// Fuzz target `template`: bytes → Template(source:name:) and, when it compiles, a render
// against a small fixed context. Then the same source as a template of a TemplateLibrary
// holding two fixed templates (a partial and a parent with blocks), rendered with missing
// partials rendering empty, so partials, parents, blocks and dynamic names are reached too.
// Compiled into the Mustache module (see build.sh).
//
// Mustache output can grow exponentially with template size (n nested sections over a list
// of 2 render 2^n times); that is the language, not a bug, so the harness bounds it: the list
// below stops iterating once a per-input budget of element visits is spent. The fuzzed
// template is not reachable by name (no context string names it), so it cannot include itself.

import Foundation

/// A list of `items.count` elements that reports itself empty once the budget is spent.
private final class BudgetList: MustacheList, @unchecked Sendable {
    let items: [MustacheValue]
    init(_ items: [MustacheValue]) { self.items = items }
    var count: Int {
        if budget <= 0 { return 0 }
        budget -= items.count
        return items.count
    }
    func mustacheElement(at index: Int) -> MustacheValue { items[index] }
}

nonisolated(unsafe) private var budget = 0

private let context: MustacheValue = {
    let tags = BudgetList(["swift", "<b>bold</b>", ""])
    let items = BudgetList([
        [
            "name": "first & <one>", "n": 1, "on": true, "tags": .list(tags),
            "link": ["url": "https://example.com/?a=1&b=2"],
        ],
        ["name": "second", "n": 2, "on": false, "tags": [], "link": nil],
    ])
    let user: MustacheValue = [
        "name": "Ann \"quoted\"",
        "handle": "ann",
        "profile": [
            "bio": "<script>alert(1)</script>", "followers": 12_345, "score": 0.5,
            "deep": ["er": ["est": "bottom"]],
        ],
    ]
    return [
        "title": "Hello, <World> & 'friends'",
        "count": 3, "zero": 0, "pi": 3.25, "yes": true, "no": false, "nothing": nil,
        "empty": [], "emptyString": "",
        "items": .list(items),
        "user": user,
        "partialName": "card", "parentName": "base",
        "upper": .lambda(MustacheLambda { (s: String) in s.uppercased() }),
        "wrap": .lambda(MustacheLambda { (s: String) in "<{{title}}>" + s }),
        "constant": .lambda(MustacheLambda { () in "{{user.name}}" }),
    ]
}()

private let fixedTemplates = [
    "card": "<div class=\"card\">\n  {{name}}{{#tags}} #{{.}}{{/tags}}\n</div>\n",
    "base": "<main>\n  {{$header}}default header{{/header}}\n  {{$body}}\n  default body\n  {{/body}}\n</main>\n",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

    if let template = try? Template(source: source, name: "fuzz") {
        budget = 10_000
        _ = try? template.render(context)
    }

    var templates = fixedTemplates
    templates["fuzz-\u{1}input"] = source
    if let library = try? TemplateLibrary(templates: templates, missingPartials: .renderEmpty) {
        budget = 10_000
        _ = try? library.render("fuzz-\u{1}input", context)
    }
    return 0
}
