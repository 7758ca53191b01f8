/// What a build tells whoever runs it while it works: the end of each phase (for
/// `ROOST_TIMINGS`) and each page as it is done (for a progress bar). Called on any thread.
package protocol BuildObserver: Sendable {
    /// A phase ended.
    func phaseEnded(_ phase: BuildPhase)
    /// Rendering starts: this many pages to render or keep.
    func renderingStarted(pages: Int)
    /// `count` more pages are rendered or kept (from many threads at once).
    func pagesFinished(_ count: Int)
    /// `--media mirror`: `done` of `total` images are settled (from the cache or the network).
    func mediaProgress(done: Int, total: Int)
    /// A database is being read: `count` documents so far.
    func documentsRead(_ count: Int)
}

extension BuildObserver {
    package func mediaProgress(done: Int, total: Int) {}
    package func documentsRead(_ count: Int) {}
    package func phaseEnded(_ phase: BuildPhase) {}
    package func renderingStarted(pages: Int) {}
    package func pagesFinished(_ count: Int) {}
}

/// An observer that hears nothing: for tests and callers that only want the result.
package struct SilentBuild: BuildObserver {
    package init() {}
}
