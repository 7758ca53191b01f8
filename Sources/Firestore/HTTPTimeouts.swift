/// How long a connection may take to open, and how long an answer may send nothing before
/// it counts as broken; with how often, and after what pauses, a failed call is tried again.
package struct HTTPTimeouts: Sendable {
    package var connect: Duration
    package var stall: Duration
    /// Tries of one call in all, the first included, when it fails in a way worth retrying
    /// (`FirestoreError.isTransient`).
    package var attempts: Int
    /// The pause before the second try; each next one doubles, up to `longestPause`.
    package var firstPause: Duration
    package var longestPause: Duration

    package init(
        connect: Duration, stall: Duration, attempts: Int, firstPause: Duration, longestPause: Duration
    ) {
        self.connect = connect
        self.stall = stall
        self.attempts = attempts
        self.firstPause = firstPause
        self.longestPause = longestPause
    }

    package static let standard = HTTPTimeouts(
        connect: .seconds(10), stall: .seconds(60), attempts: 5, firstPause: .milliseconds(250),
        longestPause: .seconds(8))

    /// The pause before try `attempt` (2 for the first retry), or the server's `Retry-After`.
    func pause(before attempt: Int, retryAfter: Int?) -> Duration {
        if let retryAfter { return min(.seconds(max(0, retryAfter)), longestPause) }
        var pause = firstPause
        for _ in 2..<max(2, attempt) { pause = min(pause * 2, longestPause) }
        return pause
    }
}
