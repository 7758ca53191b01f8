import Foundation
import TestSupport
import Testing

@testable import Output

#if canImport(Glibc)
import Glibc
#endif

/// A build's output folder in a temporary folder: `public/`, not made yet (the writer makes it).
extension TemporaryFolder {
    var output: String { path("public") }
    /// `relative` inside the output folder.
    func outputPath(_ relative: String) -> String { output + "/" + relative }
}

/// Every entry below `folder`: "d" for folders, "l:<target>" for symlinks, "f:<content>" for files.
func listing(_ folder: String) -> [String: String] {
    var result = [String: String]()
    let fm = FileManager.default
    guard let enumerator = fm.enumerator(atPath: folder) else { return result }
    while let relative = enumerator.nextObject() as? String {
        let full = folder + "/" + relative
        var st = stat()
        guard lstat(full, &st) == 0 else { continue }
        switch st.st_mode & 0o170000 {
        case 0o040000: result[relative] = "d"
        case 0o120000: result[relative] = "l:" + ((try? fm.destinationOfSymbolicLink(atPath: full)) ?? "?")
        default:
            let data = fm.contents(atPath: full) ?? Data()
            result[relative] = "f:" + String(decoding: data, as: UTF8.self)
        }
    }
    return result
}

func read(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

func put(_ path: String, _ content: String) {
    let url = URL(fileURLWithPath: path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: path, contents: Data(content.utf8))
}

func exists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
}

struct FileIdentity: Equatable {
    var inode: UInt64, seconds: Int, nanoseconds: Int
    init?(_ path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        inode = UInt64(st.st_ino)
        seconds = st.st_mtim.tv_sec
        nanoseconds = st.st_mtim.tv_nsec
    }
}

/// One whole build: writes `files`, commits.
@discardableResult
func build(_ output: String, _ files: [String: String]) throws -> WriteSummary {
    let writer = try SiteWriter(outputDirectory: output)
    for (path, content) in files { _ = try writer.write(path, Array(content.utf8)) }
    return try writer.commit()
}

var runningAsRoot: Bool { geteuid() == 0 }
