/// What a build tells whoever runs it while it works: the end of each phase (for
/// `ROOST_TIMINGS`) and each page as it is done (for a progress bar). Called on any thread.
public protocol BuildObserver: Sendable {
    /// A phase ended.
    func phaseEnded(_ phase: BuildPhase)
    /// Rendering starts: this many pages to render or keep.
    func renderingStarted(pages: Int)
    /// One more page is rendered or kept (from many threads at once).
    func pageFinished()
    /// `--media mirror`: `done` of `total` images are settled (from the cache or the network).
    func mediaProgress(done: Int, total: Int)
}

extension BuildObserver {
    public func mediaProgress(done: Int, total: Int) {}
    public func phaseEnded(_ phase: BuildPhase) {}
    public func renderingStarted(pages: Int) {}
    public func pageFinished() {}
}

/// An observer that hears nothing: for tests and callers that only want the result.
public struct SilentBuild: BuildObserver {
    public init() {}
}
