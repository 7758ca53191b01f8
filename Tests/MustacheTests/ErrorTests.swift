import Mustache
import Testing

@Suite struct ErrorTests {
    func loadError(_ source: String, partials: [String: String] = [:]) -> String {
        var templates = partials
        templates["page"] = source
        do {
            _ = try TemplateLibrary(templates: templates)
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    /// A template's bytes go into pages as they are: one that is not UTF-8 is refused where
    /// its bytes stop being UTF-8 (it made pages with a lone 0xFF byte).
    @Test func bytesThatAreNotUTF8() throws {
        let bytes = Array("<p>é ok\nZ".utf8) + [0xFF, 0xFE] + Array("{{x}}".utf8)
        #expect(throws: MustacheError.invalidUTF8(at: SourceLocation(file: "tag.mustache", line: 2, column: 2))) {
            try TemplateLibrary(sources: [(name: "tag", file: "tag.mustache", bytes: bytes)])
        }
        let message = String(describing: MustacheError.invalidUTF8(at: SourceLocation(file: "t", line: 2, column: 2)))
        #expect(message == "t:2:2: not UTF-8 from here; save the template as UTF-8")
        #expect(loadError("<p>é 한국어 ✓</p>") == "no error")
    }

    @Test func unclosedSection() {
        #expect(loadError("a\n  {{#tweets}}\n{{text}}\n") == "page:2:3: unclosed section 'tweets'")
    }

    @Test func mismatchedCloseTagNamesTheOpenSection() {
        #expect(loadError("{{#a}}\n{{#b}}x{{/a}}") == "page:2:8: mismatched close tag 'a': section 'b' is open")
    }

    @Test func closeTagWithoutSection() {
        #expect(loadError("x {{/a}}") == "page:1:3: close tag 'a' without an open section")
    }

    @Test func unclosedTag() {
        #expect(loadError("ok\nhello {{name\n") == "page:2:7: unclosed tag")
        #expect(loadError("{{{name}}") == "page:1:1: unclosed tag")
    }

    @Test func badDelimiters() {
        #expect(loadError("one\n {{=<% =}}") == "page:2:2: bad delimiter setting '<%'")
        #expect(loadError("{{=a= b=}}") == "page:1:1: bad delimiter setting 'a= b'")
    }

    @Test func unknownPartialAndParentFailAtLoad() {
        #expect(loadError("line\n\t{{> partials/nope}}") == "page:2:2: unknown partial 'partials/nope'")
        #expect(loadError("{{<layout}}{{/layout}}") == "page:1:1: unknown parent 'layout'")
        #expect(throws: MustacheError.self) { try Template(source: "{{>x}}") }
    }

    @Test func unknownDynamicNameFailsAtRender() throws {
        let library = try TemplateLibrary(templates: ["page": "x\n {{>*which}}"])
        #expect(
            throws: MustacheError.dynamicNameNotFound(
                name: "which", at: SourceLocation(file: "page", line: 2, column: 2))
        ) {
            try library.render("page", ["which": "nothing"] as MustacheValue)
        }
        #expect(throws: MustacheError.self) { try library.render("page", MustacheValue.null) }
        let lenient = try TemplateLibrary(templates: ["page": "[{{>*which}}{{>nope}}]"], missingPartials: .renderEmpty)
        #expect(try lenient.renderString("page", ["which": "nothing"] as MustacheValue) == "[]")
    }

    @Test func unknownTemplate() throws {
        let library = try TemplateLibrary(templates: [:])
        #expect(throws: MustacheError.unknownTemplate(name: "page")) { try library.render("page", MustacheValue.null) }
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(loadError("héllo {{#x}}") == "page:1:7: unclosed section 'x'")
    }

    @Test func runawayRecursionIsAnError() throws {
        let library = try TemplateLibrary(templates: ["page": "{{>page}}"])
        #expect(throws: MustacheError.self) { try library.render("page", MustacheValue.null) }
    }

    /// Found by fuzzing (Fuzz/README.md): an argument holding a block of its own name
    /// overflowed the stack. The inner block renders its own content.
    @Test func anArgumentDoesNotSubstituteItself() throws {
        let library = try TemplateLibrary(templates: [
            "base": "{{$b}}default{{/b}}",
            "page": "{{<base}}{{$b}}[{{$b}}x{{/b}}]{{/b}}{{/base}}",
        ])
        #expect(try library.renderString("page", MustacheValue.null) == "[x]")
    }
}
