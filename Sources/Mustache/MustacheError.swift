/// Where in a template something is: the file (or template name), 1-based line and column.
package struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    package let file: String
    package let line: Int
    package let column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { "\(file):\(line):\(column)" }
}

package enum MustacheError: Error, Equatable, CustomStringConvertible {
    /// `{{#name}}` (or `^`, `$`, `<`) never closed; the location is the opening tag.
    case unclosedSection(name: String, at: SourceLocation)
    /// `{{/closed}}` while `open` was the innermost open section.
    case mismatchedCloseTag(open: String, closed: String, at: SourceLocation)
    /// `{{/name}}` with no section open.
    case unexpectedCloseTag(name: String, at: SourceLocation)
    /// A tag opened with the open delimiter but without its closing delimiter.
    case unclosedTag(at: SourceLocation)
    /// `{{=…=}}` that does not give two delimiters without whitespace or `=`.
    case badDelimiters(String, at: SourceLocation)
    /// A tag that needs a name but has none, e.g. `{{#}}`.
    case emptyTag(at: SourceLocation)
    /// `{{>name}}` naming no template of the library.
    case unknownPartial(name: String, at: SourceLocation)
    /// `{{<name}}` naming no template of the library.
    case unknownParent(name: String, at: SourceLocation)
    /// A dynamic name (`{{>*name}}`) whose context value is missing or not a string.
    case dynamicNameNotFound(name: String, at: SourceLocation)
    /// Partials nested deeper than the renderer allows (runaway recursion).
    case recursionTooDeep(name: String, at: SourceLocation)
    /// `library.render(name, …)` with no template of that name.
    case unknownTemplate(name: String)
    /// A template file or folder that could not be read.
    case cannotRead(path: String, reason: String)
    /// The template's bytes are not UTF-8 from there.
    case invalidUTF8(at: SourceLocation)

    package var description: String {
        switch self {
        case .unclosedSection(let name, let at): return "\(at): unclosed section '\(name)'"
        case .mismatchedCloseTag(let open, let closed, let at):
            return "\(at): mismatched close tag '\(closed)': section '\(open)' is open"
        case .unexpectedCloseTag(let name, let at): return "\(at): close tag '\(name)' without an open section"
        case .unclosedTag(let at): return "\(at): unclosed tag"
        case .badDelimiters(let text, let at): return "\(at): bad delimiter setting '\(text)'"
        case .emptyTag(let at): return "\(at): tag without a name"
        case .unknownPartial(let name, let at): return "\(at): unknown partial '\(name)'"
        case .unknownParent(let name, let at): return "\(at): unknown parent '\(name)'"
        case .dynamicNameNotFound(let name, let at):
            return "\(at): dynamic name '\(name)' does not name a template"
        case .recursionTooDeep(let name, let at): return "\(at): partials nested too deeply at '\(name)'"
        case .unknownTemplate(let name): return "unknown template '\(name)'"
        case .cannotRead(let path, let reason): return "\(path): cannot read: \(reason)"
        case .invalidUTF8(let at): return "\(at): not UTF-8 from here; save the template as UTF-8"
        }
    }
}
