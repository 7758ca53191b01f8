import Foundation
import Model
import Store
import TestSupport
import Testing

@testable import Synthetic

extension TemporaryFolder {
    /// Where a test generates a store: a folder not made yet, in the temporary folder.
    var store: String { path("store") }

    /// The names in the folder, sorted.
    var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path()).sorted()) ?? [] }
}

/// Every file under `root`, by relative path, with its bytes.
func contents(_ root: String) -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)!
    while let rel = enumerator.nextObject() as? String {
        var isDir: ObjCBool = false
        let full = root + "/" + rel
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue {
            result[rel] = FileManager.default.contents(atPath: full)
        }
    }
    return result
}

@Suite struct SyntheticStoreTests {
    let options = SyntheticStore.Options(users: 40, tweets: 400, seed: 7)

    @Test func sameArgumentsGiveByteIdenticalStores() throws {
        let a = try TemporaryFolder()
        let b = try TemporaryFolder()
        let first = try SyntheticStore.generate(options, to: a.store, force: false)
        let second = try SyntheticStore.generate(options, to: b.store, force: false)
        let left = contents(a.store)
        let right = contents(b.store)
        #expect(left.count == first.files)
        #expect(left.values.reduce(0) { $0 + $1.count } == first.bytes)
        #expect(left == right)
        #expect(first.files == second.files && first.bytes == second.bytes && first.likes == second.likes)
    }

    @Test func differentSeedsGiveDifferentStores() throws {
        let a = try TemporaryFolder()
        let b = try TemporaryFolder()
        _ = try SyntheticStore.generate(options, to: a.store, force: false)
        var other = options
        other.seed = 8
        _ = try SyntheticStore.generate(other, to: b.store, force: false)
        #expect(contents(a.store) != contents(b.store))
    }

    @Test(arguments: [(1, 0), (40, 400), (300, 3000)])
    func storeReadsWithoutErrorsAndHasTheCountsAskedFor(users: Int, tweets: Int) throws {
        let folder = try TemporaryFolder()
        let summary = try SyntheticStore.generate(
            SyntheticStore.Options(users: users, tweets: tweets, seed: 3),
            to: folder.store, force: false)
        let store = try DocumentStore.read(at: folder.store)
        #expect(store.format == .directory)
        #expect(store.documents.count == summary.files)
        let snapshot = Snapshot(documents: store.documents)
        #expect(snapshot.errors.isEmpty, "\(snapshot.errors.prefix(5))")
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings.prefix(5))")
        #expect(snapshot.users.count == users)
        #expect(snapshot.tweets.count == tweets)
        #expect(snapshot.likes.count == summary.likes)
        #expect(snapshot.userActivity.reduce(0) { $0 + $1.favorites.count } == summary.places)
        // Only the drifted counters are reported, as notices.
        #expect(snapshot.diagnostics.count == summary.wrongCounters)
        if tweets >= 3000 {
            #expect(summary.replies > tweets / 5 && summary.replies < tweets * 2 / 5)
            #expect(summary.tagged > tweets / 5 && summary.tagged < tweets * 2 / 5)
            #expect(summary.secondsObjects > 0 && summary.wrongCounters > 0 && summary.timestampedLikes > 0)
            #expect(snapshot.tags.count > 20)
        }
    }

    @Test func refusesANonEmptyFolderUnlessForced() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.store, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.store + "/keep.txt", contents: Data("mine".utf8))
        #expect(throws: GenerateError.self) { try SyntheticStore.generate(options, to: folder.store, force: false) }
        #expect(FileManager.default.contents(atPath: folder.store + "/keep.txt") == Data("mine".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.store + "/users"))

        let summary = try SyntheticStore.generate(options, to: folder.store, force: true)
        #expect(!FileManager.default.fileExists(atPath: folder.store + "/keep.txt"))
        #expect(contents(folder.store).count == summary.files)
        // An empty folder is fine without --force.
        let empty = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: empty.store, withIntermediateDirectories: true)
        _ = try SyntheticStore.generate(options, to: empty.store, force: false)
    }

    @Test func jsonStringsAreEscaped() {
        var bytes = [UInt8]()
        bytes.appendJSONString("a\"b\\c\nd\u{1}é😀")
        #expect(String(decoding: bytes, as: UTF8.self) == "\"a\\\"b\\\\c\\nd\\u0001é😀\"")
        var n = [UInt8]()
        for v in [0, 7, 10, 99, 100, 1_234_567_890, -42] {
            n.appendInteger(v)
            n.append(0x20)
        }
        #expect(String(decoding: n, as: UTF8.self) == "0 7 10 99 100 1234567890 -42 ")
    }

    @Test func timestampsMatchTheCalendar() {
        var bytes = [UInt8]()
        bytes.appendTimestamp(seconds: 1_640_995_200, nanoseconds: 0, form: .utc, indent: 0)
        bytes.appendTimestamp(seconds: 1_709_251_199, nanoseconds: 123_000_000, form: .utcMillis, indent: 0)
        bytes.appendTimestamp(seconds: 1_704_067_199, nanoseconds: 0, form: .seoul, indent: 0)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "\"2022-01-01T00:00:00Z\"\"2024-02-29T23:59:59.123Z\"\"2024-01-01T08:59:59+09:00\"")
        for (s, n, form) in [(1_651_000_000, 5_000_000, TimestampForm.utcMillis), (1_700_000_123, 0, .seoul)] {
            var b = [UInt8]()
            b.appendTimestamp(seconds: s, nanoseconds: n, form: form, indent: 0)
            let parsed = RFC3339.parse(String(decoding: b.dropFirst().dropLast(), as: UTF8.self))
            #expect(parsed?.seconds == Int64(s))
        }
    }
}

@Suite struct GeneratedSingleFileTests {
    let options = SyntheticStore.Options(users: 30, tweets: 200, seed: 11)

    @Test func holdsTheSameDocumentsAsTheDirectoryStore() throws {
        let folder = try TemporaryFolder()
        let dir = try TemporaryFolder()
        let file = dir.path("store.json")
        let fromFolder = try SyntheticStore.generate(options, to: folder.store, force: false)
        let fromFile = try SyntheticStore.generate(options, to: file, force: false)
        #expect(fromFile.singleFile && !fromFolder.singleFile)
        #expect(fromFile.files == 1 && fromFile.folders == 0)
        #expect(fromFile.bytes == (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
        #expect(fromFile.documents == fromFolder.files && fromFolder.documents == fromFolder.files)
        #expect(
            (
                fromFile.tagged, fromFile.secondsObjects, fromFile.wrongCounters, fromFile.timestampedLikes,
                fromFile.places
            )
                == (
                    fromFolder.tagged, fromFolder.secondsObjects, fromFolder.wrongCounters, fromFolder.timestampedLikes,
                    fromFolder.places
                ))

        let directory = try DocumentStore.read(at: folder.store)
        let single = try DocumentStore.read(at: file)
        #expect(directory.format == .directory)
        #expect(single.format == .nodeFirestoreImportExport)
        // favorites/{uid}: a "missing" parent in the folder (a folder without its file); in the
        // file an object holding only `__collections__`, which the reader takes for the same.
        #expect(single.missingParents == directory.missingParents)
        #expect(!directory.missingParents.isEmpty)
        #expect(directory.missingParents.allSatisfy { $0.segments.count == 2 && $0.segments[0] == "favorites" })
        let documents = single.documents
        #expect(documents.count == directory.documents.count)
        #expect(documents.map(\.path) == directory.documents.map(\.path))
        for (a, b) in zip(documents, directory.documents) where a.fields != b.fields {
            Issue.record("\(a.path): \(a.fields) != \(b.fields)")
            break
        }

        let left = Snapshot(documents: directory.documents)
        let right = Snapshot(documents: single.documents)
        #expect(right.errors.isEmpty && right.warnings.isEmpty)
        #expect(left.users == right.users && left.tweets == right.tweets && left.likes == right.likes)
        #expect(left.tweetRelations == right.tweetRelations && left.userActivity == right.userActivity)
        #expect(left.tags == right.tags)
        #expect(left.diagnostics.map(\.description) == right.diagnostics.map(\.description))
        #expect(dir.names == ["store.json"])
    }

    @Test func isByteIdenticalAcrossRunsAndRecognised() throws {
        let dir = try TemporaryFolder()
        let a = dir.path("a.json")
        let b = dir.path("b.json")
        _ = try SyntheticStore.generate(options, to: a, force: false)
        _ = try SyntheticStore.generate(options, to: b, force: false)
        let bytes = try #require(FileManager.default.contents(atPath: a))
        #expect(bytes == FileManager.default.contents(atPath: b))
        #expect(bytes.starts(with: Data("{\"__collections__\":{\"users\":{\n\"".utf8)))
        #expect(bytes.last == 0x0A)
        #expect(try DocumentStore.read(at: a).format == .nodeFirestoreImportExport)
        var other = options
        other.seed = 12
        _ = try SyntheticStore.generate(other, to: b, force: true)
        #expect(FileManager.default.contents(atPath: b) != bytes)
    }

    @Test func emptyCollectionsAreEmptyObjects() throws {
        let dir = try TemporaryFolder()
        let file = dir.path("tiny.json")
        let summary = try SyntheticStore.generate(
            SyntheticStore.Options(users: 1, tweets: 0, seed: 2), to: file, force: false)
        let store = try DocumentStore.read(at: file)
        #expect(store.format == .nodeFirestoreImportExport)
        #expect(
            store.documents.filter { $0.path.segments[0] != "favorites" }.map(\.path.description)
                == ["users/" + store.documents.first { $0.path.segments[0] == "users" }!.path.id])
        #expect(summary.tweets == 0 && summary.likes == 0)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self)
        #expect(text.contains("},\"tweets\":{},\"favorites\":{"))
    }

    @Test func refusesAnExistingFileUnlessForced() throws {
        let dir = try TemporaryFolder()
        let file = dir.path("store.json")
        _ = FileManager.default.createFile(atPath: file, contents: Data("mine".utf8))
        #expect {
            try SyntheticStore.generate(options, to: file, force: false)
        } throws: { error in
            guard case GenerateError.fileExists(let path) = error else { return false }
            return path == file && "\(error)" == "\(file) exists"
        }
        #expect(FileManager.default.contents(atPath: file) == Data("mine".utf8))
        #expect(dir.names == ["store.json"])

        let summary = try SyntheticStore.generate(options, to: file, force: true)
        // favorites/{uid} are missing parents.
        #expect(try DocumentStore.read(at: file).documents.count == summary.documents)
        #expect(dir.names == ["store.json"])

        // A folder named like the file is never replaced.
        try FileManager.default.createDirectory(atPath: dir.path("folder.json"), withIntermediateDirectories: false)
        #expect(throws: GenerateError.self) {
            try SyntheticStore.generate(options, to: dir.path("folder.json"), force: true)
        }
        #expect(dir.names == ["folder.json", "store.json"])
    }

    @Test func leavesNothingWhenTheFolderIsMissing() throws {
        let dir = try TemporaryFolder()
        let file = dir.path("missing/store.json")
        #expect {
            try SyntheticStore.generate(options, to: file, force: true)
        } throws: { error in
            guard case GenerateError.noParentFolder(_, let folder) = error else { return false }
            return folder == dir.path("missing") && "\(error)".contains("does not exist")
        }
        #expect(dir.names.isEmpty)
        // A file where the folder should be.
        _ = FileManager.default.createFile(atPath: dir.path("plain"), contents: Data())
        #expect(throws: GenerateError.self) {
            try SyntheticStore.generate(options, to: dir.path("plain/x.json"), force: false)
        }
        #expect(dir.names == ["plain"])
    }

    @Test func aTemporaryFileIsDeletedUnlessCommitted() throws {
        let dir = try TemporaryFolder()
        let target = dir.path("t.json")
        do {
            let temporary = try TemporaryFile(beside: target)
            #expect(temporary.path == dir.path(".t.json.roost-tmp-\(getpid())"))
            var output = OutputFile(fd: temporary.fd, name: target)
            try output.write(Array(repeating: 0x20, count: 3 << 20)[...])
            try output.flush()
            #expect(dir.names == [".t.json.roost-tmp-\(getpid())"])
            temporary.discard()
            #expect(dir.names.isEmpty)
        }
        _ = FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        do {
            let temporary = try TemporaryFile(beside: target)
            #expect(throws: GenerateError.self) { try temporary.commit(replacing: false) }
        }  // dropped: deleted
        #expect(dir.names == ["t.json"] && FileManager.default.contents(atPath: target) == Data("old".utf8))
        do {
            let temporary = try TemporaryFile(beside: target)
            var output = OutputFile(fd: temporary.fd, name: target)
            output.append("new")
            try output.flush()
            try temporary.commit(replacing: true)
        }
        #expect(dir.names == ["t.json"] && FileManager.default.contents(atPath: target) == Data("new".utf8))
    }

    @Test func bodiesAreEmbeddedWithoutWhitespaceBetweenTokens() {
        var out = [UInt8]()
        out.appendEntry(key: Array("k".utf8), first: true)
        out.appendDocument(
            Array("{\n  \"a b\": \"x \\\" y\\\\\",\n  \"n\": [1, 2],\n  \"o\": {\n    \"t\": \"\\n \"\n  }\n}\n".utf8))
        #expect(
            String(decoding: out, as: UTF8.self)
                == "\n\"k\":{\"a b\":\"x \\\" y\\\\\",\"n\":[1,2],\"o\":{\"t\":\"\\n \"}}")
        var parent = [UInt8]()
        parent.appendEntry(key: Array("u".utf8), first: false)
        parent.openSubcollection(Array("{\n  \"f\": 1\n}\n".utf8), "likes")
        parent.appendEntry(key: Array("t".utf8), first: true)
        parent.appendDocument(Array("{}\n".utf8))
        parent.closeSubcollection()
        parent.appendEntry(key: Array("v".utf8), first: false)
        parent.openSubcollection(SingleFileWriter.noFields, "places")
        parent.closeSubcollection()
        #expect(
            String(decoding: parent, as: UTF8.self)
                == ",\n\"u\":{\"f\":1,\"__collections__\":{\"likes\":{\n\"t\":{}}}},\n\"v\":{\"__collections__\":{\"places\":{}}}"
        )
    }
}

@Suite struct PictureBaseTests {
    /// `--picture-base`: user n's picture is `{base}/n.png`; every other byte is the same.
    @Test func onlyProfilePicturesChange() throws {
        let plain = try TemporaryFolder()
        let pictured = try TemporaryFolder()
        let options = SyntheticStore.Options(users: 25, tweets: 100, seed: 4)
        var withBase = options
        withBase.pictureBase = "http://127.0.0.1:9/png/"
        _ = try SyntheticStore.generate(options, to: plain.store, force: false)
        _ = try SyntheticStore.generate(withBase, to: pictured.store, force: false)
        let before = contents(plain.store)
        let after = contents(pictured.store)
        #expect(before.keys == after.keys)
        var urls: [String] = []
        for (path, bytes) in before where bytes != after[path] {
            #expect(path.hasPrefix("users/") && path.split(separator: "/").count == 2, "\(path)")
            let old = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            let new = String(decoding: after[path]!, as: UTF8.self).split(separator: "\n")
            let changed = zip(old, new).filter { $0 != $1 }
            #expect(old.count == new.count && changed.count == 1)
            #expect(changed.first?.0.contains("firebasestorage.googleapis.com") == true)
            urls.append(String(changed.first?.1 ?? ""))
        }
        #expect(urls.count == 25)
        let expected = (0..<25).map { "  \"profileImageUrl\": \"http://127.0.0.1:9/png/\($0).png\"," }
        #expect(urls.sorted() == expected.sorted())

        let store = try DocumentStore.read(at: pictured.store)
        let snapshot = Snapshot(documents: store.documents)
        #expect(snapshot.errors.isEmpty && snapshot.warnings.isEmpty)
        #expect(
            Set(snapshot.users.compactMap(\.profileImageURL))
                == Set((0..<25).map { "http://127.0.0.1:9/png/\($0).png" }))
    }

    @Test func singleFileGetsTheSamePictures() throws {
        let folder = try TemporaryFolder()
        var options = SyntheticStore.Options(users: 5, tweets: 10, seed: 2)
        options.pictureBase = "https://pictures.example/a"
        _ = try SyntheticStore.generate(options, to: folder.path("one.json"), force: false)
        let text = try String(contentsOfFile: folder.path("one.json"), encoding: .utf8)
        for n in 0..<5 { #expect(text.contains("\"https://pictures.example/a/\(n).png\"")) }
        #expect(!text.contains("firebasestorage"))
    }
}
