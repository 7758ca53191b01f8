import Foundation
import JSON
import Store
import Support

/// `roost.json` (SPEC 10): the options of a site, written once. Each key sets what an option
/// sets; options on the command line win. Paths are relative to the file's folder.
///
///     {"title": "Mina's archive", "language": "ko", "baseURL": "https://example.com/", "pageSize": 30}
package struct ProjectFile: Sendable {
    package static let fileName = "roost.json"

    /// What a key holds.
    package enum Kind: Sendable {
        case text
        case wholeNumber
        /// A file or folder: resolved against the file's folder.
        case path
        /// An array of strings: what a repeatable option gives (`["127.0.0.1/32"]`).
        case textList
    }

    /// A key a file may hold, and what it holds. The keys are not listed here: the program that
    /// reads the file passes them (`roost` derives them from its options, SPEC 10).
    package struct Key: Sendable, Equatable {
        package let name: String
        package let kind: Kind

        package init(_ name: String, _ kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    /// The file as read.
    package let path: String
    /// Each key the file sets, as option text (numbers in decimal, paths resolved): one
    /// value, or a list's values in order.
    package let values: [String: [String]]

    /// Reads the file at `path`, which may hold `keys`. A file that is not a JSON object, an
    /// unknown key (named with the nearest valid one), or a value of the wrong type is an error
    /// naming the file.
    package init(path: String, keys: [Key]) throws(ProjectFileError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse([UInt8](data))
        } catch {
            throw .invalidJSON(path: path, error: error)
        }
        guard case .object(let pairs) = json else {
            throw .notAnObject(path: path, found: json.kindDescription)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        // Where each key is (the file parsed, its top-level keys in order, as `pairs` has them).
        let places = Self.keyPlaces(in: [UInt8](data))
        var values: [String: [String]] = [:]
        var seen: [String: Int] = [:]
        for (k, (key, value)) in pairs.enumerated() {
            let place = k < places.count ? places[k] : nil
            let at = place.map { "\(path):\($0.line):\($0.column)" } ?? path
            guard let kind = keys.first(where: { $0.name == key })?.kind else {
                let names = keys.map(\.name)
                throw .unknownKey(
                    path: at, key: key, hint: Suggestion.hint(for: key, among: names), keys: names)
            }
            if let first = seen[key] {
                throw .duplicateKey(path: at, key: key, firstLine: first)
            }
            seen[key] = place?.line ?? 0
            switch (kind, value) {
            case (.text, .string(let text)):
                values[key] = [text]
            case (.wholeNumber, .integer(let n)):
                values[key] = [String(n)]
            case (.path, .string(let relative)) where !relative.isEmpty:
                values[key] = [
                    Self.isRooted(relative) ? relative : folder.appendingPathComponent(relative).path
                ]
            case (.textList, .array(let items)):
                var texts: [String] = []
                for item in items {
                    guard case .string(let text) = item else {
                        throw .wrongType(
                            path: at, key: key, expected: "an array of strings",
                            found: "an array holding \(item.kindDescription)")
                    }
                    texts.append(text)
                }
                values[key] = texts
            case (.textList, _):
                throw .wrongType(path: at, key: key, expected: "an array of strings", found: value.kindDescription)
            case (.text, _), (.path, _):
                throw .wrongType(path: at, key: key, expected: "a string", found: value.kindDescription)
            case (.wholeNumber, _):
                throw .wrongType(path: at, key: key, expected: "a whole number", found: value.kindDescription)
            }
        }
        self.path = path
        self.values = values
    }

    /// The line and column (from 1, in bytes) of each key of the top-level object of `bytes`,
    /// valid JSON, in order.
    static func keyPlaces(in bytes: [UInt8]) -> [(line: Int, column: Int)] {
        var places: [(line: Int, column: Int)] = []
        var (depth, line, lineStart) = (0, 1, 0)
        var k = 0
        var expectingKey = false
        while k < bytes.count {
            let byte = bytes[k]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = k + 1
            case UInt8(ascii: "{"):
                depth += 1
                expectingKey = depth == 1
            case UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            case UInt8(ascii: "\""):
                if expectingKey && depth == 1 {
                    places.append((line, k - lineStart + 1))
                    expectingKey = false
                }
                k += 1
                while k < bytes.count, bytes[k] != UInt8(ascii: "\"") {
                    k += bytes[k] == UInt8(ascii: "\\") ? 2 : 1
                }
            default:
                break
            }
            k += 1
        }
        return places
    }

    /// The project file `roost.json` in the current folder, if there is one.
    package static func inCurrentFolder(keys: [Key]) throws(ProjectFileError) -> ProjectFile? {
        FileManager.default.fileExists(atPath: fileName) ? try ProjectFile(path: fileName, keys: keys) : nil
    }

    /// The folder of the file at `path`, as written (`other` for `other/roost.json`); empty for
    /// a file in the current folder. The project's folder: what the file's paths, and the
    /// defaults of those it does not set, are relative to.
    package static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder == "." ? "" : folder
    }

    /// `relative` in the project's folder `folder` (`folder(of:)`), as written: `other/content`;
    /// `relative` itself when `folder` is empty or `relative` is absolute.
    package static func path(_ relative: String, in folder: String) -> String {
        isRooted(relative) ? relative : joinPath(folder, relative)
    }

    /// True for an absolute path, and for an address such as `firestore://app` (a store that
    /// is a database), which no folder is put before.
    static func isRooted(_ value: String) -> Bool { value.hasPrefix("/") || value.contains("://") }
}

/// Why `roost.json` cannot be used.
package enum ProjectFileError: Error, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case invalidJSON(path: String, error: JSONError)
    case notAnObject(path: String, found: String)
    /// `keys`: every key the file may hold.
    case unknownKey(path: String, key: String, hint: String, keys: [String])
    case wrongType(path: String, key: String, expected: String, found: String)
    /// A key given twice (JSON keeps the last; which one was meant is not known).
    case duplicateKey(path: String, key: String, firstLine: Int)

    package var description: String {
        switch self {
        case .unreadable(let path):
            "\(path): cannot read this file"
        case .invalidJSON(let path, let error):
            "\(path):\(error.line):\(error.column): invalid JSON: \(error.message)"
        case .notAnObject(let path, let found):
            "\(path): expected a JSON object of settings, found \(found)"
        case .unknownKey(let path, let key, let hint, let keys):
            "\(path): unknown key '\(key)'\(hint) (keys: \(keys.joined(separator: ", ")))"
        case .wrongType(let path, let key, let expected, let found):
            "\(path): '\(key)' must be \(expected), not \(found)"
        case .duplicateKey(let path, let key, let firstLine):
            "\(path): '\(key)' is set twice (first on line \(firstLine)); keep one"
        }
    }
}
