import Foundation
import Model
import Store
import Testing
@testable import Synthetic

/// A fresh temporary folder path (not created), removed when the value is deinitialised.
final class TempFolder {
    let path = FileManager.default.temporaryDirectory.path + "/roost-synthetic-test-" + UUID().uuidString
    deinit { try? FileManager.default.removeItem(atPath: path) }
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
        let a = TempFolder(), b = TempFolder()
        let first = try SyntheticStore.generate(options, to: a.path, force: false)
        let second = try SyntheticStore.generate(options, to: b.path, force: false)
        let left = contents(a.path), right = contents(b.path)
        #expect(left.count == first.files)
        #expect(left.values.reduce(0) { $0 + $1.count } == first.bytes)
        #expect(left == right)
        #expect(first.files == second.files && first.bytes == second.bytes && first.likes == second.likes)
    }

    @Test func differentSeedsGiveDifferentStores() throws {
        let a = TempFolder(), b = TempFolder()
        _ = try SyntheticStore.generate(options, to: a.path, force: false)
        var other = options
        other.seed = 8
        _ = try SyntheticStore.generate(other, to: b.path, force: false)
        #expect(contents(a.path) != contents(b.path))
    }

    @Test(arguments: [(1, 0), (40, 400), (300, 3000)])
    func storeReadsWithoutErrorsAndHasTheCountsAskedFor(users: Int, tweets: Int) throws {
        let folder = TempFolder()
        let summary = try SyntheticStore.generate(SyntheticStore.Options(users: users, tweets: tweets, seed: 3),
                                                  to: folder.path, force: false)
        let store = try DocumentStore.read(at: folder.path)
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
        let folder = TempFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder.path + "/keep.txt", contents: Data("mine".utf8))
        #expect(throws: GenerateError.self) { try SyntheticStore.generate(options, to: folder.path, force: false) }
        #expect(FileManager.default.contents(atPath: folder.path + "/keep.txt") == Data("mine".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/users"))

        let summary = try SyntheticStore.generate(options, to: folder.path, force: true)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/keep.txt"))
        #expect(contents(folder.path).count == summary.files)
        // An empty folder is fine without --force.
        let empty = TempFolder()
        try FileManager.default.createDirectory(atPath: empty.path, withIntermediateDirectories: true)
        _ = try SyntheticStore.generate(options, to: empty.path, force: false)
    }

    @Test func jsonStringsAreEscaped() {
        var bytes = [UInt8]()
        bytes.appendJSONString("a\"b\\c\nd\u{1}é😀")
        #expect(String(decoding: bytes, as: UTF8.self) == "\"a\\\"b\\\\c\\nd\\u0001é😀\"")
        var n = [UInt8]()
        for v in [0, 7, 10, 99, 100, 1234567890, -42] { n.appendInteger(v); n.append(0x20) }
        #expect(String(decoding: n, as: UTF8.self) == "0 7 10 99 100 1234567890 -42 ")
    }

    @Test func timestampsMatchTheCalendar() {
        var bytes = [UInt8]()
        bytes.appendTimestamp(seconds: 1_640_995_200, nanoseconds: 0, form: .utc, indent: 0)
        bytes.appendTimestamp(seconds: 1_709_251_199, nanoseconds: 123_000_000, form: .utcMillis, indent: 0)
        bytes.appendTimestamp(seconds: 1_704_067_199, nanoseconds: 0, form: .seoul, indent: 0)
        #expect(String(decoding: bytes, as: UTF8.self)
            == "\"2022-01-01T00:00:00Z\"\"2024-02-29T23:59:59.123Z\"\"2024-01-01T08:59:59+09:00\"")
        for (s, n, form) in [(1_651_000_000, 5_000_000, TimestampForm.utcMillis), (1_700_000_123, 0, .seoul)] {
            var b = [UInt8]()
            b.appendTimestamp(seconds: s, nanoseconds: n, form: form, indent: 0)
            let parsed = RFC3339.parse(String(decoding: b.dropFirst().dropLast(), as: UTF8.self))
            #expect(parsed?.seconds == Int64(s))
        }
    }
}
