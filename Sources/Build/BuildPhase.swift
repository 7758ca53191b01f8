import Model

/// The named steps of a build, in the order they run (those that do not apply are skipped):
/// what `BuildObserver.phaseEnded` reports and `ROOST_TIMINGS` prints.
package enum BuildPhase: String, Sendable, CaseIterable {
    case stampInputs = "stamp inputs"
    case checkOutput = "check output"
    case readStore = "read and decode store"
    case writeCache = "write cache"
    case updateSnapshot = "update snapshot"
    case derive
    case mirrorImages = "mirror images"
    case searchIndex = "search index"
    case captions
    case writeCaptionCache = "write caption cache"
    case fingerprints
    case renderAndStage = "render and stage"
    case stageImages = "stage images"
    case commit

    /// The same step of `Snapshot.read`.
    package init(_ step: Snapshot.ReadStep) {
        switch step {
        case .readAndDecode: self = .readStore
        case .derive: self = .derive
        }
    }
}
