#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Listing a folder with `readdir`: the one loop over `d_name` and `d_type` that reading a
/// store, stamping it and writing a site share. It runs over folders of a million files, so
/// names come as bytes (decoded only when asked) and types from the listing itself.
public enum DirectoryListing {
    /// Calls `body` with each entry of the open folder `fd`, from its start, in `readdir`
    /// order; `fd` stays open (the listing reads a duplicate). `.` and `..` are left out, and
    /// other names starting with `.` unless `dotNames`. Returns 0, or the errno when the
    /// folder cannot be listed.
    public static func forEach(in fd: Int32, dotNames: Bool, _ body: (DirectoryEntry) -> Void) -> Int32 {
        let copy = dup(fd)
        guard copy >= 0 else { return errno }
        guard let dir = fdopendir(copy) else {
            let code = errno
            close(copy)
            return code
        }
        defer { closedir(dir) }
        rewinddir(dir)  // the duplicate shares the position of `fd`, which may have been listed before
        while let ent = readdir(dir) {
            let type = ent.pointee.d_type
            withUnsafePointer(to: &ent.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { name in
                    let count = strlen(name)
                    if name[0] == CChar(UInt8(ascii: ".")) {
                        let dotOrDotDot = count == 1 || (count == 2 && name[1] == CChar(UInt8(ascii: ".")))
                        if dotOrDotDot || !dotNames { return }
                    }
                    body(DirectoryEntry(folder: fd, cName: name, count: count, type: type))
                }
            }
        }
        return 0
    }

    /// The names in the open folder `fd` (bytes that are not UTF-8 replaced with U+FFFD), or
    /// nil with the errno when it cannot be listed.
    public static func names(in fd: Int32, dotNames: Bool) -> Result<[String], ErrnoCode> {
        var names: [String] = []
        let code = forEach(in: fd, dotNames: dotNames) { names.append($0.name) }
        return code == 0 ? .success(names) : .failure(ErrnoCode(code))
    }
}

/// One entry of a `DirectoryListing`, valid during the call it is given to.
public struct DirectoryEntry {
    /// The listed folder.
    private let folder: Int32
    // Into readdir's buffer: no copy per name (hence valid during the call only).
    private let cName: UnsafePointer<CChar>
    private let count: Int
    private let type: UInt8

    fileprivate init(folder: Int32, cName: UnsafePointer<CChar>, count: Int, type: UInt8) {
        self.folder = folder
        self.cName = cName
        self.count = count
        self.type = type
    }

    /// The name's bytes, without the terminating NUL.
    public var nameBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: cName, count: count) }

    /// The name, with bytes that are not UTF-8 replaced with U+FFFD.
    public var name: String { String(decoding: nameBytes, as: UTF8.self) }

    /// The name, or nil when it is not valid UTF-8.
    public var validName: String? { String(validating: nameBytes, as: UTF8.self) }

    /// What it is: from the listing, or where the file system does not say, from `fstatat`
    /// (links not followed); `.missing` when it is gone since it was listed.
    public var kind: FileKind {
        switch Int32(type) {
        case Int32(DT_DIR): return .directory
        case Int32(DT_REG): return .regular
        case Int32(DT_LNK): return .symlink
        case Int32(DT_UNKNOWN):
            var st = stat()
            guard fstatat(folder, cName, &st, Int32(AT_SYMLINK_NOFOLLOW)) == 0 else { return .missing }
            return FileKind(mode: st.st_mode)
        default: return .other
        }
    }
}
