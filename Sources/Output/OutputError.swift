import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything that can go wrong while writing the site, with messages a user can act on.
package enum OutputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A path given to `write` is not a safe relative path inside the output folder.
    case unsafePath(path: String, reason: String)
    /// The same path was written twice in one build (a bug in the caller).
    case duplicatePath(String)
    /// Another build holds the lock on the output folder.
    case locked(directory: String, pid: Int32?)
    /// A system call failed. `path` is the full path (output folder included).
    case fileSystem(operation: String, path: String, errno: Int32)
    /// `write`/`commit` called after `commit()` or `abandon()`.
    case finished(directory: String)

    package var description: String {
        switch self {
        case .unsafePath(let path, let reason):
            return "refusing to write \(quoted(path)): \(reason)"
        case .duplicatePath(let path):
            return "\(quoted(path)) was produced twice in one build; each output path must be written once"
        case .locked(let directory, let pid):
            let who = pid.map { "another roost build (pid \($0))" } ?? "another roost build"
            return "\(directory) is being written by \(who); wait for it to finish"
        case .fileSystem(let operation, let path, let code):
            return "could not \(operation) \(path): \(errnoText(code))\(hint(code))"
        case .finished(let directory):
            return "the writer for \(directory) was already committed or abandoned"
        }
    }

    /// The errno of a `.fileSystem` error, else nil.
    package var errnoCode: Int32? {
        if case .fileSystem(_, _, let code) = self { return code }
        return nil
    }
}

func quoted(_ path: String) -> String {
    var out = "\""
    for scalar in path.unicodeScalars {
        switch scalar {
        case "\0": out += "\\0"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\"": out += "\\\""
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

private func hint(_ code: Int32) -> String {
    switch code {
    case ENOSPC, EDQUOT: return " (the disk is full; free some space and build again)"
    case EROFS: return " (the file system is mounted read-only; choose another output folder)"
    case EACCES, EPERM: return " (permission denied; check the owner and permissions of the output folder)"
    case ENOTDIR: return " (a file is in the way where a folder is needed; move or remove it)"
    case EISDIR: return " (a folder is in the way where a file is needed; move or remove it)"
    case ENAMETOOLONG: return " (the path is too long)"
    case EMFILE, ENFILE: return " (too many open files)"
    default: return ""
    }
}
