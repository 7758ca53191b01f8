import Foundation

/// Wall time of each phase of a command, printed to standard error when `ROOST_TIMINGS` is set
/// (for profiling and the benchmark; silent otherwise).
struct PhaseTimer {
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant
    private var phases: [(String, Duration, String)] = []
    private let enabled = ProcessInfo.processInfo.environment["ROOST_TIMINGS"] != nil

    init() { last = clock.now }

    mutating func end(_ phase: String) {
        let now = clock.now
        phases.append((phase, now - last, enabled ? Self.memory() : ""))
        last = now
    }

    func report() {
        guard enabled, !phases.isEmpty else { return }
        for (phase, duration, memory) in phases {
            Console.error("timing: \(phase.padding(20)) \(String(format3: duration / .seconds(1))) s  \(memory)")
        }
    }

    /// Resident and peak memory so far, from /proc (Linux).
    private static func memory() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return "" }
        func field(_ name: String) -> String {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
            return "\(kilobytes / 1024) MiB"
        }
        return "rss \(field("VmRSS")), peak \(field("VmHWM"))"
    }
}
