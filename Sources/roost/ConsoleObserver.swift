import Build
import Synchronization

/// How a command shows a build's progress: a progress bar on a terminal, and the time and
/// memory of each phase on standard error when `ROOST_TIMINGS` is set.
final class ConsoleObserver: BuildObserver {
    private let timer = Mutex(PhaseTimer())
    private let progress = Mutex<Progress?>(nil)
    private let mediaProgress = Mutex<Progress?>(nil)
    private let readProgress = Mutex<Progress?>(nil)
    private let progressBar: Bool

    init(progressBar: Bool) {
        self.progressBar = progressBar
    }

    func phaseEnded(_ phase: BuildPhase) {
        timer.withLock { $0.end(phase.rawValue) }
    }

    /// Called on the mirroring thread as images are settled.
    func mediaProgress(done: Int, total: Int) {
        mediaProgress.withLock { progress in
            if progress == nil { progress = Progress(total: total, enabled: progressBar, unit: "images") }
            progress?.set(done)
            if done >= total {
                progress?.finish()
                progress = nil
            }
        }
    }

    /// Called after each page of a database read.
    func documentsRead(_ count: Int) {
        readProgress.withLock { progress in
            if progress == nil { progress = Progress(total: nil, enabled: progressBar, unit: "documents read") }
            progress?.set(count)
        }
    }

    func renderingStarted(pages: Int) {
        readProgress.withLock {
            $0?.finish()
            $0 = nil
        }
        progress.withLock { $0 = Progress(total: pages, enabled: progressBar) }
    }

    func pagesFinished(_ count: Int) {
        progress.withLock { $0?.advance(by: count) }
    }

    /// Clears the progress bar and prints the timings (once).
    func finish() {
        readProgress.withLock {
            $0?.finish()
            $0 = nil
        }
        mediaProgress.withLock {
            $0?.finish()
            $0 = nil
        }
        progress.withLock {
            $0?.finish()
            $0 = nil
        }
        timer.withLock {
            $0.report()
            $0 = PhaseTimer()
        }
    }
}
