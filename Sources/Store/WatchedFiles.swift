import Foundation
import Watch

/// A folder's or a file's changes followed with the file watcher (inotify), each turned into a
/// `SourceChange` by the source that watches (`meaning`); changes that mean nothing to the
/// store (an editor's temporary file) are left out, and an empty batch is not reported.
package final class WatchedFiles: ChangeFollowing {
    private let watcher: FileWatcher

    package init(
        location: String, debounce: Duration, meaning: @escaping @Sendable (FileWatcher.Change) -> SourceChange?,
        onChange: @escaping @Sendable ([SourceChange]) -> Void
    ) throws(StoreError) {
        let root = URL(fileURLWithPath: location).standardizedFileURL
        do {
            watcher = try FileWatcher(roots: [root], debounce: debounce) { changes in
                let batch = changes.sorted { $0.path < $1.path }.compactMap(meaning)
                if !batch.isEmpty { onChange(batch) }
            }
        } catch let error as FileWatcher.WatchError {
            switch error {
            case .cannotWatch(_, let reason): throw .cannotFollow(path: location, reason: reason)
            }
        } catch {
            throw .cannotFollow(path: location, reason: "\(error)")
        }
    }

    package func stop() { watcher.stop() }
}
