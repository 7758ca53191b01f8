import Foundation

/// Wall time of each phase of a command, printed to standard error when `ROOST_TIMINGS` is set
/// (for profiling and the benchmark; silent otherwise).
struct PhaseTimer {
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant
    private var phases: [(String, Duration)] = []
    private let enabled = ProcessInfo.processInfo.environment["ROOST_TIMINGS"] != nil

    init() { last = clock.now }

    mutating func end(_ phase: String) {
        let now = clock.now
        phases.append((phase, now - last))
        last = now
    }

    func report() {
        guard enabled else { return }
        for (phase, duration) in phases {
            Console.error("timing: \(phase.padding(20)) \(String(format3: duration / .seconds(1))) s")
        }
    }
}
