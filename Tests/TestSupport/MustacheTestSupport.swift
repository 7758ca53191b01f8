import Foundation
import Mustache

// What only the Mustache tests need of the engine, kept out of its production surface:
// templates read from a folder, and values made from loosely typed data (the specification's
// JSON through `JSONSerialization`).

extension TemplateLibrary {
    /// Loads every `*.mustache` file below `directory`, named by its path
    /// relative to `directory` without the extension (`partials/card`).
    package init(directory: String, missingPartials: MissingPartials = .fail) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MustacheError.cannotRead(path: directory, reason: "no such directory")
        }
        guard let enumerator = fm.enumerator(atPath: directory) else {
            throw MustacheError.cannotRead(path: directory, reason: "cannot list directory")
        }
        let suffix = ".mustache"
        var sources: [(name: String, file: String, bytes: [UInt8])] = []
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(suffix) else { continue }
            let file = base + "/" + relative
            guard let data = fm.contents(atPath: file) else {
                var isDir: ObjCBool = false
                if fm.fileExists(atPath: file, isDirectory: &isDir), isDir.boolValue { continue }
                throw MustacheError.cannotRead(path: file, reason: "unreadable file")
            }
            sources.append((String(relative.dropLast(suffix.count)), file, [UInt8](data)))
        }
        sources.sort { $0.name < $1.name }
        try self.init(sources: sources, missingPartials: missingPartials)
    }
}

extension MustacheValue {
    /// Converts loosely typed data (e.g. the output of `JSONSerialization`,
    /// `[String: Any]`, `[Any]`, `NSNumber`, `NSNull`) into a value.
    /// Values that are already `MustacheBoxable` are used as they are;
    /// anything else unknown becomes `.null`.
    package init(any value: Any?) {
        guard let value else {
            self = .null
            return
        }
        switch value {
        case let v as MustacheBoxable where !(value is NSNumber):
            self = v.mustacheValue
        case let n as NSNumber:
            switch String(cString: n.objCType) {
            case "c", "B": self = .bool(n.boolValue)
            case "d", "f": self = .double(n.doubleValue)
            default: self = .int(n.intValue)
            }
        case let s as String: self = .string(s)
        case let a as [Any?]: self = .list(a.map { MustacheValue(any: $0) })
        case let d as [String: Any?]:
            self = .object(d.mapValues { MustacheValue(any: $0) })
        case is NSNull: self = .null
        default: self = .null
        }
    }
}
