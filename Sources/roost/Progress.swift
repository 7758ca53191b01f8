import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on standard error, only on a terminal and only once a build has taken a second.
final class Progress: Sendable {
    /// Nil when not known beforehand (a database's documents): a count alone is shown.
    private let total: Int?
    /// What is counted: "pages", "images".
    private let unit: String
    private let done = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)
    private let shown = Atomic<Bool>(false)

    init(total: Int?, enabled: Bool, unit: String = "pages") {
        self.total = total
        self.unit = unit
        guard enabled, isatty(STDERR_FILENO) == 1, total ?? 1 > 0 else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in tick() }
    }

    func advance(by count: Int) {
        done.add(count, ordering: .relaxed)
    }

    func set(_ count: Int) {
        done.store(count, ordering: .relaxed)
    }

    private func tick() {
        guard !finished.load(ordering: .acquiring) else { return }
        shown.store(true, ordering: .releasing)
        guard let total else {
            Console.error(partial: "\r\(done.load(ordering: .relaxed)) \(unit)")
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { [self] in tick() }
            return
        }
        let count = min(total, done.load(ordering: .relaxed))
        let width = 30
        let filled = count * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        Console.error(partial: "\r\(bar) \(count)/\(total) \(unit)")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { [self] in tick() }
    }

    /// Clears the bar, if it was shown.
    func finish() {
        finished.store(true, ordering: .releasing)
        if shown.load(ordering: .acquiring) { Console.error(partial: "\r\u{1B}[2K") }
    }
}
