import JSON
import Mustache
import Support

/// A theme's templates with its words: every text of a language's translation table
/// (`i18n/<language>.json`, a flat JSON object of key → text) is compiled into the templates
/// as a partial `t/<key>`, so `{{>t/latestTweets}}` renders the text in the current context.
/// One template library per language the theme has (docs/templates.md, "Words").
///
/// A key a language's table leaves out falls back to the English table's text, which every
/// theme has. A language is found by its tag as given (`ko`), then ignoring case, then by its
/// first subtag (`ko-KR` → `ko`).
package struct LocalizedTemplates: Sendable {
    /// The language every theme has a table for and every other falls back to.
    package static let fallbackLanguage = "en"
    /// Where a theme keeps its tables.
    package static let tableFolder = "i18n/"
    /// The name of a text's partial: `t/` and its key.
    package static let textPrefix = "t/"

    /// The languages the theme has a table for, sorted.
    package let languages: [String]
    /// Where the theme came from, for messages.
    package let origin: String
    private let libraries: [String: TemplateLibrary]

    /// The theme of `files` (paths relative to its root, `/`-separated): its templates
    /// (`*.mustache`, named by their path without the extension) and its tables
    /// (`i18n/<language>.json`); other files are not looked at. A template that does not parse
    /// is a `MustacheError` naming `origin/path`; a table that is not a flat object of texts, a
    /// text that does not parse, or a theme with no `i18n/en.json` is a `SiteError`.
    package init(files: [(path: String, bytes: [UInt8])], origin: String) throws {
        let files = files.sorted { codePointOrder($0.path, $1.path) }
        var templates: [(name: String, file: String, bytes: [UInt8])] = []
        var tables: [String: [String: String]] = [:]
        for file in files {
            if file.path.hasSuffix(Self.templateSuffix) {
                templates.append(
                    (String(file.path.dropLast(Self.templateSuffix.count)), origin + "/" + file.path, file.bytes))
            } else if file.path.hasPrefix(Self.tableFolder), file.path.hasSuffix(Self.tableSuffix) {
                let name = file.path.dropFirst(Self.tableFolder.count).dropLast(Self.tableSuffix.count)
                guard !name.contains("/") else { continue }
                let path = origin + "/" + file.path
                guard Self.isLanguageTag(name) else {
                    throw SiteError.translationTable(
                        file: path, problem: "'\(name)' is not a language tag (en, ko, pt-BR)")
                }
                tables[String(name)] = try Self.table(file.bytes, file: path)
            }
        }
        guard let fallback = tables[Self.fallbackLanguage] else {
            throw SiteError.translationTable(
                file: "\(origin)/\(Self.tableFolder)\(Self.fallbackLanguage)\(Self.tableSuffix)",
                problem: "not found (every theme needs its English texts: the other languages fall back to them)")
        }
        // The templates parsed once; each language's library adds its texts and links them.
        let parsed = try TemplateLibrary.parse(templates)
        var libraries: [String: TemplateLibrary] = [:]
        for (language, table) in tables {
            var sources: [(name: String, file: String, bytes: [UInt8])] = []
            for key in Set(fallback.keys).union(table.keys).sorted() {
                let (text, from) = table[key].map { ($0, language) } ?? (fallback[key]!, Self.fallbackLanguage)
                sources.append(
                    (
                        Self.textPrefix + key, "\(origin)/\(Self.tableFolder)\(from)\(Self.tableSuffix) (\(key))",
                        Array(text.utf8)
                    ))
            }
            libraries[language] = try TemplateLibrary(parsed: parsed + TemplateLibrary.parse(sources))
        }
        self.languages = tables.keys.sorted()
        self.origin = origin
        self.libraries = libraries
    }

    /// The templates and texts of `language`; a language the theme has no table for is an
    /// error naming the ones it has.
    package func templates(for language: String) throws(SiteError) -> TemplateLibrary {
        guard let found = self.language(matching: language), let library = libraries[found] else {
            throw .unknownLanguage(language, available: languages, folder: origin + "/" + Self.tableFolder)
        }
        return library
    }

    /// The table `language` uses: its own, else one of the same tag ignoring case, else its
    /// first subtag's (`ko-KR` → `ko`); nil when the theme has none, or `language` is not a
    /// language tag (`ko`, `pt-BR`).
    package func language(matching language: String) -> String? {
        guard Self.isLanguageTag(language[...]) else { return nil }  // it goes into `lang` attributes as it is
        if libraries[language] != nil { return language }
        let lowered = language.lowercased()
        if let match = languages.first(where: { $0.lowercased() == lowered }) { return match }
        let primary = ScriptLanguage.primarySubtag(language)
        return languages.first { $0.lowercased() == primary }
    }

    static let templateSuffix = ".mustache"
    static let tableSuffix = ".json"

    /// A table's texts; its keys are partial names, so they are kept simple.
    private static func table(_ bytes: [UInt8], file: String) throws(SiteError) -> [String: String] {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw .translationTable(file: file, problem: "\(error)")
        }
        guard let pairs = value.objectPairs else {
            throw .translationTable(file: file, problem: "not a JSON object of texts (\"key\": \"text\")")
        }
        var table: [String: String] = [:]
        for (key, value) in pairs {
            guard !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.isASCII && Self.keyCharacters.contains($0) }) else {
                throw .translationTable(file: file, problem: "key '\(key)': use letters, digits, '.', '-' and '_'")
            }
            guard let text = value.stringValue else {
                throw .translationTable(
                    file: file, problem: "key '\(key)': a text is a string, not \(value.kindDescription)")
            }
            guard table.updateValue(text, forKey: key) == nil else {
                throw .translationTable(file: file, problem: "key '\(key)' is there twice")
            }
        }
        return table
    }

    private static let keyCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".unicodeScalars)

    /// `ko`, `pt-BR`, `zh-Hant`: letters first, then subtags of letters and digits.
    static func isLanguageTag(_ name: Substring) -> Bool {
        let subtags = name.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count),
            first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count)
                && subtag.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
                }
        }
    }
}
