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
        ["name": "first & <one>", "n": 1, "on": true, "tags": .list(tags), "link": ["url": "https://example.com/?a=1&b=2"]],
        ["name": "second", "n": 2, "on": false, "tags": [], "link": nil],
    ])
    let user: MustacheValue = [
        "name": "Ann \"quoted\"",
        "handle": "ann",
        "profile": ["bio": "<script>alert(1)</script>", "followers": 12_345, "score": 0.5,
                    "deep": ["er": ["est": "bottom"]]],
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
    if let library = try? TemplateLibrary(templates: templates, missingPartials: .renderEmpty),
       !overridesReachThemselves(library.template(named: "fuzz-\u{1}input")?.nodes ?? []) {
        budget = 10_000
        _ = try? library.render("fuzz-\u{1}input", context)
    }
    return 0
}

// KNOWN BUG (Fuzz/README.md, found by this target): a parent's block argument that contains a
// block of an overridden name, e.g. `{{<base}}{{$b}}{{$b}}x{{/b}}{{/b}}{{/base}}` with base
// `{{$b}}{{/b}}`, recurses without bound in Renderer.render (Renderer.swift:80, the `.block`
// case re-renders the argument with the same overrides) and overflows the stack. Such inputs
// are skipped in the library render so the fuzzer can look past it; delete this filter (and
// its call) once the renderer is fixed.
private func overridesReachThemselves(_ nodes: [Node]) -> Bool {
    var overridden: Set<String> = []
    var inArguments: Set<String> = []
    func blockNames(_ nodes: [Node], into names: inout Set<String>) {
        for node in nodes {
            switch node {
            case .block(let b):
                names.insert(b.name)
                blockNames(b.content, into: &names)
                blockNames(b.stripped, into: &names)
            case .section(let s), .inverted(let s):
                blockNames(s.children, into: &names)
            case .parent(let p):
                for b in p.overrides.values { blockNames(b.stripped, into: &names); blockNames(b.content, into: &names) }
            default:
                break
            }
        }
    }
    func walk(_ nodes: [Node]) {
        for node in nodes {
            switch node {
            case .section(let s), .inverted(let s):
                walk(s.children)
            case .block(let b):
                walk(b.content)
            case .parent(let p):
                for (name, b) in p.overrides {
                    overridden.insert(name)
                    blockNames(b.stripped, into: &inArguments)
                    blockNames(b.content, into: &inArguments)
                    walk(b.content)
                }
            default:
                break
            }
        }
    }
    walk(nodes)
    return !overridden.isDisjoint(with: inArguments)
}
