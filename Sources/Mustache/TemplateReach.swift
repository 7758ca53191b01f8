import Support

/// Which templates a render can include, read from the compiled templates without rendering:
/// what lets a site builder re-render only the pages an edited template can change.
extension TemplateLibrary {
    /// The names of the templates that rendering `roots` can include, `roots` among them,
    /// sorted: every partial and parent named in them, in the blocks they pass, and so on
    /// transitively. A name no template has is listed too (adding that template changes
    /// what renders). Nil when one of them names a template dynamically (`{{>*name}}`): then
    /// any template may be included.
    ///
    /// A lambda's text is parsed when rendered and may name any template: contexts that hold
    /// lambdas cannot rely on this.
    package func templatesReachable(from roots: [String]) -> [String]? {
        var seen = Set<String>()
        var pending = roots
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            guard let template = template(named: name) else { continue }
            var isOpen = false
            Self.references(in: template.nodes, isOpen: &isOpen) { pending.append($0) }
            if isOpen { return nil }
        }
        return seen.sorted()
    }

    /// A fingerprint of the sources of `templatesReachable(from: roots)` (of every template
    /// when that is nil): equal fingerprints mean rendering `roots` gives the same bytes for
    /// the same context.
    package func fingerprint(ofTemplatesReachableFrom roots: [String]) -> Int {
        var h = StableHasher()
        let names = templatesReachable(from: roots)
        h.combine(names == nil)
        for name in names ?? templateNames {
            h.combine(name)
            if let template = template(named: name) {
                h.combine(true)
                h.combine(bytes: template.source)
            } else {
                h.combine(false)
            }
        }
        return h.finalize()
    }

    /// Calls `found` with each static template name in `nodes`; sets `isOpen` on a dynamic one.
    private static func references(in nodes: [Node], isOpen: inout Bool, found: (String) -> Void) {
        func reference(_ ref: PartialRef) {
            if ref.isDynamic { isOpen = true } else { found(ref.name) }
        }
        for node in nodes {
            switch node {
            case .section(let s), .inverted(let s):
                references(in: s.children, isOpen: &isOpen, found: found)
            case .partial(let ref):
                reference(ref)
            case .parent(let parent):
                reference(parent.target)
                for name in parent.overrides.keys.sorted() {
                    references(in: parent.overrides[name]!.content, isOpen: &isOpen, found: found)
                }
            case .block(let block):
                references(in: block.content, isOpen: &isOpen, found: found)
            case .text, .lineStart, .variable:
                break
            }
        }
    }
}
