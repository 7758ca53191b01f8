/// A set of named templates that refer to each other as partials and parents.
///
///     struct Tweet: MustacheObject {
///         let text: String
///         let likes: Int
///         func value(forKey key: String) -> MustacheValue? {
///             switch key {
///             case "text": .string(text)
///             case "likes": .int(likes)
///             default: nil
///             }
///         }
///     }
///     let library = try TemplateLibrary(templates: ["page": "{{#tweets}}{{> partials/card}}{{/tweets}}", "partials/card": "{{text}}"])
///     var page: [UInt8] = []
///     try library.render("page", ["title": "Home", "tweets": tweets.mustacheValue] as MustacheValue, into: &page)
///
/// Templates are compiled once when the library loads; static partial and
/// parent names are checked then. Rendering appends UTF-8 bytes and is safe
/// from many threads at once.
package struct TemplateLibrary: Sendable {
    /// What a partial or parent that names no template does.
    package enum MissingPartials: Sendable {
        /// Static names fail when the library loads, dynamic ones when rendering.
        case fail
        /// Render nothing, as the Mustache specification asks.
        case renderEmpty
    }

    let storage: LibraryStorage

    /// Templates from memory, `[name: source]`; errors name the template.
    package init(templates: [String: String], missingPartials: MissingPartials = .fail) throws {
        let sources = templates.sorted { $0.key < $1.key }.map {
            (name: $0.key, file: $0.key, bytes: Array($0.value.utf8))
        }
        try self.init(sources: sources, missingPartials: missingPartials)
    }

    /// Templates already read: `name` is how partials refer to each one (`partials/card`),
    /// `file` what error messages call it.
    package init(sources: [(name: String, file: String, bytes: [UInt8])], missingPartials: MissingPartials = .fail)
        throws
    {
        try self.init(parsed: try Self.parse(sources), missingPartials: missingPartials)
    }

    /// Templates parsed (`parse(_:)`), their partials linked now: what some templates shared by
    /// several libraries (a theme's, with each language's texts) are parsed into once.
    package init(parsed: [Template], missingPartials: MissingPartials = .fail) throws {
        var index: [String: Int] = [:]
        for (i, t) in parsed.enumerated() { index[t.name] = i }
        let templates = try parsed.map {
            Template(
                name: $0.name, file: $0.file, nodes: try Linker.link($0.nodes, index: index, missing: missingPartials),
                source: $0.source)
        }
        storage = LibraryStorage(templates: templates, missingPartials: missingPartials)
    }

    /// `sources` parsed, in order, their partials not linked yet (see `init(parsed:)`).
    package static func parse(_ sources: [(name: String, file: String, bytes: [UInt8])]) throws -> [Template] {
        try sources.map {
            try checkUTF8($0.bytes, file: $0.file)
            return Template(
                name: $0.name, file: $0.file, nodes: try Parser.parse($0.bytes, file: $0.file), source: $0.bytes)
        }
    }

    /// Bytes read from a file go into pages as they are: a template that is not UTF-8 would
    /// make pages that are not either. (Templates made from a `String` are UTF-8 already.)
    private static func checkUTF8(_ bytes: [UInt8], file: String) throws(MustacheError) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error:
                let lineStart = bytes[..<offset].lastIndex(of: 10).map { $0 + 1 } ?? 0
                throw .invalidUTF8(
                    at: SourceLocation(
                        file: file, line: bytes[..<offset].count { $0 == 10 } + 1,
                        column: String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1))
            }
        }
    }

    /// The names of all templates, sorted.
    package var templateNames: [String] { storage.templates.map(\.name) }

    package func template(named name: String) -> Template? {
        storage.index[name].map { storage.templates[$0] }
    }

    /// Renders template `name` against `context`, appending to `buffer`.
    package func render(_ name: String, _ context: some MustacheBoxable, into buffer: inout [UInt8]) throws {
        guard let slot = storage.index[name] else { throw MustacheError.unknownTemplate(name: name) }
        var renderer = Renderer(library: storage, context: context.mustacheValue)
        try renderer.render(storage.templates[slot].nodes, into: &buffer, indent: [], overrides: [:])
    }

    /// Renders template `name` against `context` into UTF-8 bytes.
    package func render(_ name: String, _ context: some MustacheBoxable) throws -> [UInt8] {
        var buffer: [UInt8] = []
        try render(name, context, into: &buffer)
        return buffer
    }

    /// Renders template `name` against `context` into a String.
    package func renderString(_ name: String, _ context: some MustacheBoxable) throws -> String {
        String(decoding: try render(name, context), as: UTF8.self)
    }
}
