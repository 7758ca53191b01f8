import Mustache

/// Why a site cannot be rendered.
package enum SiteError: Error, CustomStringConvertible {
    case unknownViewer(String)
    /// `--viewer NAME` where several users' usernames equal NAME ignoring case: their handles.
    case ambiguousViewer(String, handles: [String])
    case missingTemplate(name: String, folder: String)
    case template(MustacheError)
    case rendering(String)
    /// `language` has no table in the theme (`folder` is its `i18n/`), which has `available`.
    case unknownLanguage(String, available: [String], folder: String)
    /// A translation table that cannot be used: not JSON, not a flat object of texts…
    case translationTable(file: String, problem: String)
    /// A text Roost itself needs is in no table (`file` is the English one).
    case missingText(key: String, file: String)

    /// Any error of rendering, as a SiteError.
    init(_ error: any Error) {
        if let error = error as? SiteError {
            self = error
        } else if let error = error as? MustacheError {
            self = .template(error)
        } else {
            self = .rendering("\(error)")
        }
    }

    /// `--viewer` names no one user: a mistake in the options, not a state of the data.
    package var isAboutTheViewer: Bool {
        switch self {
        case .unknownViewer, .ambiguousViewer: true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .unknownViewer(let handle):
            "viewer '\(handle)': no user has this handle or username"
        case .ambiguousViewer(let name, let handles):
            "viewer '\(name)': the usernames of \(handles.count) users match it, ignoring case; "
                + "give one's handle: \(handles.map { "'\($0)'" }.joined(separator: ", "))"
        case .missingTemplate(let name, let folder):
            "\(folder)/\(name).mustache: template not found (every theme needs it)"
        case .template(let error):
            "\(error)"
        case .rendering(let message):
            message
        case .unknownLanguage(let language, let available, let folder):
            "language '\(language)': the theme has no texts in it (no \(folder)\(language).json); "
                + "it has \(available.joined(separator: ", "))"
        case .translationTable(let file, let problem):
            "\(file): \(problem)"
        case .missingText(let key, let file):
            "\(file): no text '\(key)' (every theme needs it)"
        }
    }
}
