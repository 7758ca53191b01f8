import Foundation

/// Wall time of each phase of a command, printed to standard error when `ROOST_TIMINGS` is set
/// (for profiling and the benchmark; silent otherwise), with the CPU time the process spent in
/// it (less than twice the wall time on two cores: part of the phase ran on one).
struct PhaseTimer {
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant
    private var lastCPU: Double
    private var phases: [(String, Duration, Double, String)] = []
    private let enabled = ProcessInfo.processInfo.environment[Self.variable] != nil

    /// The environment variable that turns the timings on (set to anything).
    static let variable = "ROOST_TIMINGS"

    init() {
        last = clock.now
        lastCPU = Self.cpuSeconds()
    }

    mutating func end(_ phase: String) {
        let now = clock.now
        let cpu = enabled ? Self.cpuSeconds() : 0
        phases.append((phase, now - last, cpu - lastCPU, enabled ? Self.memory() : ""))
        last = now
        lastCPU = cpu
    }

    func report() {
        guard enabled, !phases.isEmpty else { return }
        for (phase, duration, cpu, memory) in phases {
            Console.error(
                "timing: \(phase.padding(20)) \(String(format3: duration / .seconds(1))) s  cpu \(String(format3: cpu)) s  \(memory)"
            )
        }
    }

    /// User and system time of the process so far.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
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
