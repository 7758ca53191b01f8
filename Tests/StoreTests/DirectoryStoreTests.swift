import Foundation
import JSON
import TestSupport
import Testing

@testable import Store

@Suite struct DirectoryStoreTests {
    func sampleStore() throws -> TemporaryFolder {
        let t = try TemporaryFolder()
        try t.write(
            "users/u1.json",
            #"{"username": "alice", "fullname": "Alice", "n": 3, "x": 1.5, "ok": true, "none": null, "tags": ["a", 2], "m": {"k": "v"}}"#
        )
        try t.write("users/u10.json", #"{"username": "bob"}"#)
        try t.write("users/u1/user-likes/t1.json", "{}")
        try t.write("users/u1/user-likes/t2.json", #"{"timestamp": "2021-11-05T09:30:00Z"}"#)
        try t.write(
            "tweets/t1.json",
            #"{"caption": "hi", "timestamp": {"__datatype__": "timestamp", "value": {"_seconds": 1, "_nanoseconds": 0}}, "uid": "u1"}"#
        )
        try t.write("favorites/u1/favorites/p1.json", #"{"placeName": "Cafe"}"#)
        // Ignored.
        try t.write("README.md", "# store")
        try t.write("users/.DS_Store", "junk")
        try t.write(".hidden/users/u9.json", "{}")
        try t.write("users/.u8.json", "{}")
        try t.write("users/u1/notes.txt", "x")
        try t.write("stray.json", "{}")
        try t.write("users/u1/user-likes.json", "{}")
        try t.write("users/.json", "{}")
        return t
    }

    @Test func readsDocumentsSortedWithFields() throws {
        let t = try sampleStore()
        let store = try DocumentStore.read(at: t.path())
        #expect(store.format == .directory)
        #expect(
            store.documents.map(\.path.description) == [
                "favorites/u1/favorites/p1",
                "tweets/t1",
                "users/u1",
                "users/u1/user-likes/t1",
                "users/u1/user-likes/t2",
                "users/u10",
            ])
        let u1 = store.documents.first { $0.path == path("users/u1") }!
        #expect(u1.source == "users/u1.json")
        #expect(u1.fields.pairs.map(\.key) == ["username", "fullname", "n", "x", "ok", "none", "tags", "m"])
        #expect(u1.fields["username"] == .string("alice"))
        #expect(u1.fields["n"] == .integer(3))
        #expect(u1.fields["x"] == .double(1.5))
        #expect(u1.fields["ok"] == .bool(true))
        #expect(u1.fields["none"] == .null)
        #expect(u1.fields["tags"] == .array([.string("a"), .integer(2)]))
        #expect(u1.fields["m"] == .map(Fields([("k", .string("v"))])))
        // Tags are not interpreted in a directory store.
        let t1 = store.documents.first { $0.path == path("tweets/t1") }!
        guard case .map(let ts)? = t1.fields["timestamp"] else {
            Issue.record("timestamp should stay a map")
            return
        }
        #expect(ts["__datatype__"] == .string("timestamp"))
        #expect(store.documents.first { $0.path == path("users/u1/user-likes/t1") }?.fields.isEmpty == true)
    }

    @Test func missingParentsAndIgnoredEntries() throws {
        let t = try sampleStore()
        let store = try DocumentStore.read(at: t.path())
        #expect(store.missingParents == [path("favorites/u1")])
        let ignored = store.ignored.map(\.path)
        #expect(ignored.contains("stray.json"))
        #expect(ignored.contains("users/u1/user-likes.json"))
        #expect(!ignored.contains("README.md"))  // silently ignored
        #expect(!store.documents.contains { $0.path.segments.contains { $0.hasPrefix(".") } })
    }

    @Test func symlinksAreNotFollowed() throws {
        let t = try TemporaryFolder()
        let outside = try TemporaryFolder()
        try outside.write("secret.json", #"{"username": "secret"}"#)
        try outside.write("tweets/t9.json", #"{"caption": "outside"}"#)
        try t.write("users/u1.json", #"{"username": "a"}"#)
        try FileManager.default.createSymbolicLink(
            atPath: t.path("users/u2.json"), withDestinationPath: outside.path("secret.json"))
        try FileManager.default.createSymbolicLink(
            atPath: t.path("tweets"), withDestinationPath: outside.path("tweets"))
        let store = try DocumentStore.read(at: t.path())
        #expect(store.documents.map(\.path.description) == ["users/u1"])
        #expect(Set(store.ignored.map(\.path)) == ["tweets", "users/u2.json"])
        #expect(store.ignored.allSatisfy { $0.reason.contains("symbolic link") })
        // readDocument refuses them too.
        #expect(try DirectoryStore.readDocument(file: "users/u2.json", root: t.path()) == nil)
        #expect(try DirectoryStore.readDocument(file: "tweets/t9.json", root: t.path()) == nil)
    }

    @Test func readsOneDocument() throws {
        let t = try sampleStore()
        let d = try DirectoryStore.readDocument(file: t.path("users/u1/user-likes/t2.json"), root: t.path())
        #expect(d?.path == path("users/u1/user-likes/t2"))
        #expect(d?.source == "users/u1/user-likes/t2.json")
        #expect(d?.fields["timestamp"] == .string("2021-11-05T09:30:00Z"))
        #expect(
            try DirectoryStore.readDocument(file: "users/u10.json", root: t.path())?.fields["username"]
                == .string("bob"))
        #expect(try DirectoryStore.readDocument(file: "README.md", root: t.path()) == nil)
        #expect(try DirectoryStore.readDocument(file: "stray.json", root: t.path()) == nil)
        #expect(try DirectoryStore.readDocument(file: "users/.u8.json", root: t.path()) == nil)
        mkfifo(t.path("users/fifo.json"), 0o644)
        #expect(try DirectoryStore.readDocument(file: "users/fifo.json", root: t.path()) == nil)
        #expect(try DocumentStore.read(at: t.path()).documents.count == 6)
        try t.mkdir("users/dir.json")
        #expect(try DirectoryStore.readDocument(file: "users/dir.json", root: t.path()) == nil)
        let gone = storeError { try DirectoryStore.readDocument(file: "users/zz.json", root: t.path()) }
        guard case .notFound? = gone else {
            Issue.record("expected notFound, got \(String(describing: gone))")
            return
        }
    }

    @Test func emptyStore() throws {
        let t = try TemporaryFolder()
        let store = try DocumentStore.read(at: t.path())
        #expect(store.documents.isEmpty)
        #expect(store.missingParents.isEmpty)
    }

    @Test func manyDocumentsInParallelKeepOrder() throws {
        let t = try TemporaryFolder()
        for i in 0..<500 {
            try t.write("tweets/t\(i).json", #"{"i": \#(i)}"#)
        }
        let store = try DocumentStore.read(at: t.path())
        #expect(store.documents.count == 500)
        #expect(store.documents == store.documents.sorted { $0.path < $1.path })
        #expect(store.documents.map(\.path) == store.documents.map(\.path).sorted())
        for d in store.documents {
            #expect(d.fields["i"].map { "t\($0)" } != nil)
            if case .integer(let i)? = d.fields["i"] { #expect(d.path.id == "t\(i)") }
        }
    }

    @Test func nonASCIIIdsSortLikeDocumentPaths() throws {
        let t = try TemporaryFolder()
        for id in ["é", "e\u{301}x", "z", "가", "a", "a-b", "a b"] {
            try t.write("tweets/\(id).json", "{}")
        }
        try t.write("tweets/a/replies/r.json", "{}")
        let store = try DocumentStore.read(at: t.path())
        #expect(store.documents.map(\.path) == store.documents.map(\.path).sorted())
        #expect(store.documents.count == 8)
    }

    @Test func deeplyNestedFoldersAreSkipped() throws {
        let t = try TemporaryFolder()
        let deep = Array(repeating: "a", count: 300).joined(separator: "/")
        try t.write(deep + "/x.json", "{}")
        try t.write("a/b.json", "{}")
        let store = try DocumentStore.read(at: t.path())
        #expect(store.documents.map(\.path.description) == ["a/b"])
        #expect(store.ignored.count == 1)
        #expect(store.ignored.first?.reason.contains("nested deeper than 200") == true)
    }

    @Test func maximallyNestedDocumentsOnWorkerThreads() throws {
        let t = try TemporaryFolder()
        let body =
            "{\"a\":" + String(repeating: "[{\"b\":", count: 255) + "1" + String(repeating: "}]", count: 255) + "}"
        for i in 0..<40 {
            try t.write("tweets/t\(i).json", body)
            try t.write("users/u\(i)/user-likes/t\(i).json", body)
        }
        let store = try DocumentStore.read(at: t.path())
        #expect(store.documents.count == 80)
        let writer = try TemporaryFolder()
        try DirectoryStoreWriter.write(store.documents, to: writer.path("out"), force: false)
        #expect(
            try DocumentStore.read(at: writer.path("out")).documents
                == store.documents.map {
                    Document(path: $0.path, fields: $0.fields, source: $0.path.description + ".json")
                })
    }

    // MARK: errors

    @Test func invalidJSONNamesFileLineAndColumn() throws {
        let t = try TemporaryFolder()
        try t.write("users/u1.json", "{}")
        try t.write("tweets/t1.json", "{\n  \"caption\": \"hi\",\n  \"uid\": x\n}")
        let e = storeError { try DocumentStore.read(at: t.path()) }
        #expect(e?.description == "\(t.path())/tweets/t1.json:3:10: invalid JSON: unexpected character 'x'")
    }

    @Test func firstErrorInPathOrderIsReported() throws {
        let t = try TemporaryFolder()
        for i in 0..<200 { try t.write("tweets/t\(1000 + i).json", "{}") }
        try t.write("tweets/t1100.json", "[")
        try t.write("tweets/t1150.json", "{")
        let e = storeError { try DocumentStore.read(at: t.path()) }
        #expect(e?.description.contains("tweets/t1100.json:1:2:") == true)
    }

    /// Without the sort, the same documents come (in no particular order), and the error
    /// reported is still the first in path order.
    @Test func anUnorderedReadFindsTheSameDocumentsAndTheFirstError() throws {
        let t = try sampleStore()
        for i in 0..<600 { try t.write("tweets/t\(1000 + i).json", #"{"i": \#(i)}"#) }
        let ordered = try DirectoryStore.read(root: t.path(), transform: { $0 })
        let unordered = try DirectoryStore.read(root: t.path(), ordered: false, transform: { $0 })
        #expect(unordered.values.count == ordered.values.count)
        #expect(unordered.values.sorted { $0.path < $1.path } == ordered.values)
        #expect(unordered.missingParents == ordered.missingParents)
        #expect(unordered.ignored.map(\.path) == ordered.ignored.map(\.path))
        try t.write("tweets/t1500.json", "[")
        try t.write("tweets/t1100.json", "{")
        try t.write("users/u1/user-likes/t3.json", "[")
        for ordered in [true, false] {
            let e = storeError { try DirectoryStore.read(root: t.path(), ordered: ordered, transform: { $0 }) }
            #expect(e?.description.contains("tweets/t1100.json:1:2:") == true, "ordered: \(ordered)")
        }
    }

    @Test func invalidUTF8NamesTheFile() throws {
        let t = try TemporaryFolder()
        try t.write("users/u1.json", bytes: Array("{\"username\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8))
        let e = storeError { try DocumentStore.read(at: t.path()) }
        #expect(
            e?.description
                == "\(t.path())/users/u1.json:1:15: invalid UTF-8: the file must be UTF-8 text (invalid UTF-8 (byte 0xC3))"
        )
    }

    @Test func deepNestingIsAnError() throws {
        let t = try TemporaryFolder()
        try t.write("users/u1.json", "{\"a\":" + String(repeating: "[", count: 100_000))
        let e = storeError { try DocumentStore.read(at: t.path()) }
        #expect(e?.description == "\(t.path())/users/u1.json:1:517: invalid JSON: nesting deeper than 512 levels")
    }

    @Test func documentThatIsNotAnObject() throws {
        let t = try TemporaryFolder()
        try t.write("tweets/t1.json", "[1, 2]")
        let e = storeError { try DocumentStore.read(at: t.path()) }
        #expect(e?.description == "\(t.path())/tweets/t1.json: document tweets/t1 is an array, not a JSON object")
    }

    @Test func storeNotFound() {
        let e = storeError { try DocumentStore.read(at: "/nonexistent/roost-store") }
        #expect(
            e?.description
                == "/nonexistent/roost-store: store not found (expected a folder or a single-file store .json)")
    }

    /// Reads the directory store at `root` as a build does (files stamped, then read), calling
    /// `meanwhile` with each document file's relative path between the listing of its folder
    /// and its read: what it changes there, the read finds only when it gets there. (Permission
    /// bits cannot make a file or folder unreadable to root, who runs the tests in CI.)
    func read(_ root: String, meanwhile: @escaping @Sendable (String) -> Void) throws {
        _ = try DirectoryStore.read(
            root: root,
            reusing: { file, _ -> Document? in
                meanwhile(file)
                return nil
            },
            transform: { document, _ in document })
    }

    @Test func unreadableFile() throws {
        let t = try TemporaryFolder()
        let f = try t.write("users/u1.json", "{}")
        let e = storeError {
            try read(t.path()) { file in
                guard file == "users/u1.json" else { return }
                try? FileManager.default.removeItem(atPath: f)
                try? FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: false)
            }
        }
        #expect(e?.description == "\(f): cannot read: Is a directory")
    }

    @Test func unreadableFolder() throws {
        let t = try TemporaryFolder()
        try t.write("users/u1.json", "{}")
        try t.write("users/u1/posts/p1.json", "{}")
        try t.write("users/u1/posts/p1/likes/l1.json", "{}")
        let folder = t.path("users/u1/posts/p1")
        let e = storeError {
            // A folder's files are read before the folders in it are opened.
            try read(t.path()) { file in
                guard file == "users/u1/posts/p1.json" else { return }
                try? FileManager.default.removeItem(atPath: folder)
                _ = FileManager.default.createFile(atPath: folder, contents: Data("not a folder".utf8))
            }
        }
        #expect(e?.description == "\(folder): cannot read: Not a directory")
    }
}
