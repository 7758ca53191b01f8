#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names, as far as reading a store or writing a site cares.
public enum FileKind: Sendable {
    case directory, regular, symlink, other
    /// Not there (or not inspectable): `errno` or the caller's code says why.
    case missing

    /// The kind that a `stat`'s mode gives.
    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFDIR: self = .directory
        case S_IFREG: self = .regular
        case S_IFLNK: self = .symlink
        default: self = .other
        }
    }
}
