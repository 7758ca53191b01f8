import Mustache

/// Why a site cannot be rendered.
public enum SiteError: Error, CustomStringConvertible {
    case unknownViewer(String)
    case missingTemplate(name: String, folder: String)
    case template(MustacheError)
    case rendering(String)

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

    public var description: String {
        switch self {
        case .unknownViewer(let handle):
            "--viewer '\(handle)': no user has this handle or username"
        case .missingTemplate(let name, let folder):
            "\(folder)/\(name).mustache: template not found (every theme needs it)"
        case .template(let error):
            "\(error)"
        case .rendering(let message):
            message
        }
    }
}
