import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Watch

/// Collects the watcher's batches.
final class Batches: Sendable {
    private let batches = Mutex<[(Date, Set<FileWatcher.Change>)]>([])

    func add(_ changes: Set<FileWatcher.Change>) {
        batches.withLock { $0.append((Date(), changes)) }
    }

    var count: Int { batches.withLock { $0.count } }

    var all: [Set<FileWatcher.Change>] { batches.withLock { $0.map(\.1) } }

    /// Waits until at least `minimum` batches came and none for `quiet` seconds (or `timeout`).
    func settle(minimum: Int = 1, quiet: Double = 0.4, timeout: Double = 10) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            let (count, last) = batches.withLock { ($0.count, $0.last?.0) }
            if count >= minimum, let last, Date().timeIntervalSince(last) >= quiet { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// The last kind reported for each path.
    var latest: [String: FileWatcher.Change.Kind] {
        var result: [String: FileWatcher.Change.Kind] = [:]
        for batch in all {
            for change in batch { result[change.path] = change.kind }
        }
        return result
    }

    func reset() { batches.withLock { $0.removeAll() } }
}

@Suite(.serialized) struct WatcherTests {
    @Test func burstOfWritesIsDebounced() throws {
        let folder = try TemporaryFolder()
        let batches = Batches()
        let watcher = try FileWatcher(roots: [folder.url]) { batches.add($0) }
        defer { watcher.stop() }
        for i in 0..<500 {
            let fd = open(folder.url.appendingPathComponent("t\(i).json").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let bytes = Array("tweet \(i)".utf8)
            #expect(write(fd, bytes, bytes.count) == bytes.count)
            close(fd)
        }
        batches.settle()
        #expect(batches.count >= 1)
        #expect(batches.count <= 3, "\(batches.count) callbacks")
        let latest = batches.latest
        #expect(latest.count == 500)
        #expect(latest.values.allSatisfy { $0 == .created })
        #expect(batches.all.joined().allSatisfy { $0.root == folder.url.standardizedFileURL })
    }

    @Test func reportsCreatedModifiedDeletedAndNewFolders() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", "a")
        try folder.write("b.json", "b")
        try folder.write("old/deep/c.json", "c")
        let batches = Batches()
        let watcher = try FileWatcher(roots: [folder.url], debounce: .milliseconds(50)) { batches.add($0) }
        defer { watcher.stop() }

        try folder.write("a.json", "a2")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("b.json"))
        try folder.write("new.json", "n")
        try folder.write("old/deep/c.json", "c2")
        // A folder created after the watch started, with a file written right away.
        try folder.write("fresh/deeper/d.json", "d")
        batches.settle()
        var latest = batches.latest
        #expect(latest["a.json"] == .modified)
        #expect(latest["b.json"] == .deleted)
        #expect(latest["new.json"] == .created)
        #expect(latest["old/deep/c.json"] == .modified)
        #expect(latest["fresh/deeper/d.json"] == .created)

        // The new folder is watched now: later writes in it are seen.
        batches.reset()
        try folder.write("fresh/deeper/d.json", "d2")
        try folder.write("fresh/deeper/e.json", "e")
        try folder.write("fresh/f.json", "f")
        batches.settle()
        latest = batches.latest
        #expect(latest["fresh/deeper/d.json"] == .modified)
        #expect(latest["fresh/deeper/e.json"] == .created)
        #expect(latest["fresh/f.json"] == .created)

        batches.reset()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("fresh/deeper/e.json"))
        try FileManager.default.moveItem(
            at: folder.url.appendingPathComponent("old"), to: folder.url.appendingPathComponent("moved"))
        batches.settle()
        latest = batches.latest
        #expect(latest["fresh/deeper/e.json"] == .deleted)
        #expect(latest["old"] == .deleted)
        #expect(latest["moved/deep/c.json"] == .created)
    }

    /// A folder root deleted and made again (a store regenerated, a theme copied in anew), or
    /// moved away and another put in its place, is watched again: its files are reported, and
    /// so are later edits in it. (The watch went with the old folder, and nothing more was
    /// ever seen.) Nothing of the folder moved away is reported after.
    @Test func aRootDeletedAndMadeAgainIsWatchedAgain() throws {
        let parent = try TemporaryFolder()
        try parent.write("store/tweets/a.json", "a")
        let root = parent.url.appendingPathComponent("store")
        let batches = Batches()
        let watcher = try FileWatcher(roots: [root], debounce: .milliseconds(30)) { batches.add($0) }
        defer { watcher.stop() }

        try FileManager.default.removeItem(at: root)
        batches.settle()
        #expect(batches.latest[""] == .deleted)
        batches.reset()
        try parent.write("store/tweets/b.json", "b")
        batches.settle()
        #expect(batches.latest[""] == .created)
        #expect(batches.latest["tweets/b.json"] == .created)
        batches.reset()
        try parent.write("store/tweets/b.json", "b2")
        try parent.write("store/users/u.json", "u")
        batches.settle()
        #expect(batches.latest["tweets/b.json"] == .modified)
        #expect(batches.latest["users/u.json"] == .created)

        // Replaced at once by another folder, moved in.
        batches.reset()
        try parent.write("next/tweets/c.json", "c")
        try FileManager.default.moveItem(at: root, to: parent.url.appendingPathComponent("away"))
        try FileManager.default.moveItem(at: parent.url.appendingPathComponent("next"), to: root)
        batches.settle()
        #expect(batches.latest["tweets/c.json"] == .created)
        batches.reset()
        try parent.write("away/tweets/z.json", "z")
        try parent.write("store/tweets/c.json", "c2")
        batches.settle()
        #expect(batches.latest == ["tweets/c.json": .modified])
    }

    /// Two files whose names differ only in their Unicode form are two changes.
    @Test func namesInTwoUnicodeFormsAreTwoFiles() throws {
        let folder = try TemporaryFolder()
        let batches = Batches()
        let watcher = try FileWatcher(roots: [folder.url], debounce: .milliseconds(30)) { batches.add($0) }
        defer { watcher.stop() }
        try folder.write("caf\u{E9}.json", "a")
        try folder.write("cafe\u{301}.json", "b")
        batches.settle()
        let paths = batches.all.joined().map { Array($0.path.utf8) }
        #expect(Set(paths) == [Array("caf\u{E9}.json".utf8), Array("cafe\u{301}.json".utf8)])
    }

    @Test func singleFileRootsIgnoreTheirNeighbours() throws {
        let folder = try TemporaryFolder()
        try folder.write("store.json", "{}")
        try folder.write("other.json", "{}")
        try folder.write("templates/layout.mustache", "x")
        let store = folder.url.appendingPathComponent("store.json")
        let templates = folder.url.appendingPathComponent("templates")
        let batches = Batches()
        let watcher = try FileWatcher(roots: [store, templates]) { batches.add($0) }
        defer { watcher.stop() }

        try folder.write("other.json", "{\"a\":1}")
        try Data("{\"b\":1}".utf8).write(to: store, options: .atomic)  // a rename over it, as editors do
        try folder.write("templates/feed.mustache", "y")
        batches.settle()
        let changes = Set(batches.all.joined())
        #expect(changes.contains { $0.root == store.standardizedFileURL && $0.path == "" && $0.kind != .deleted })
        #expect(changes.contains(.init(root: templates.standardizedFileURL, path: "feed.mustache", kind: .created)))
        #expect(!changes.contains { $0.path.contains("other") })
        #expect(changes.count == 2, "\(changes)")
    }

    @Test func noCallbacksAfterStop() throws {
        let folder = try TemporaryFolder()
        let batches = Batches()
        let watcher = try FileWatcher(roots: [folder.url]) { batches.add($0) }
        watcher.stop()
        try folder.write("late.json", "x")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(batches.count == 0)
        #expect(throws: FileWatcher.WatchError.self) {
            try FileWatcher(roots: [folder.url.appendingPathComponent("missing")]) { _ in }
        }
    }
}
