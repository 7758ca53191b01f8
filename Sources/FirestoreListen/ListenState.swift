import Store

/// What a listen stream's targets hold, kept as the official clients keep it (Node's
/// `watch.ts`, the SDKs' watch change aggregator): changes are gathered per target; `RESET`
/// empties a target; `CURRENT` marks it in sync; a global `NO_CHANGE` with a read time applies
/// what every target in sync gathered as one consistent step. The emulator answers each change
/// by resending the touched target whole, so a step holds only the documents whose
/// `updateTime` moved (or that came or went), not the resend.
///
/// Targets may overlap: a document is there while any target holds it.
package struct ListenState: Sendable {
    private struct Target: Sendable {
        var query: ListenTarget.Query
        var resumeToken: [UInt8] = []
        /// As of the last step applied.
        var applied: [DocumentPath: ListenDocument] = [:]
        /// As gathered since: `applied` with the changes since (a RESET starts it empty).
        var working: [DocumentPath: ListenDocument] = [:]
        /// Paths that may differ between `working` and `applied` (all of them after a RESET).
        var touched: Set<DocumentPath> = []
        var wasReset = false
        /// In sync (CURRENT) since it was added or reset.
        var current = false
        /// Has been in sync once: its documents have been part of a step.
        var everCurrent = false
    }

    private var targets: [Int32: Target] = [:]
    /// Every document as of the last step, with how many targets hold it.
    private var documents: [DocumentPath: (document: ListenDocument, holders: Int)] = [:]
    /// Documents of removed targets that no other target holds, to leave with the next step.
    private var dropped: Set<DocumentPath> = []
    private var nextID: Int32 = 1

    package init() {}

    // MARK: Targets

    /// The targets to ask for, with their resume tokens: all of them when (re)connecting.
    package var listenTargets: [ListenTarget] {
        targets.keys.sorted().map {
            ListenTarget(id: $0, query: targets[$0]!.query, resumeToken: targets[$0]!.resumeToken)
        }
    }

    /// Adds a target and returns it, to send.
    package mutating func addTarget(_ query: ListenTarget.Query) -> ListenTarget {
        let id = nextID
        nextID += 1
        targets[id] = Target(query: query)
        return ListenTarget(id: id, query: query)
    }

    /// Removes a target (its documents leave with the next step, unless another holds them).
    package mutating func removeTarget(_ id: Int32) {
        guard let target = targets.removeValue(forKey: id) else { return }
        for path in target.applied.keys {
            release(path)
            if documents[path] == nil { dropped.insert(path) }
        }
    }

    /// Target `id` listened to again from scratch under a new ID (its count disagreed with
    /// the server's): its documents stay as they are until the new target is in sync, and
    /// the next step then holds only what differs.
    package mutating func relisten(_ id: Int32) -> ListenTarget? {
        guard var target = targets.removeValue(forKey: id) else { return nil }
        let new = nextID
        nextID += 1
        target.working = [:]
        target.wasReset = true
        target.current = false
        target.resumeToken = []
        target.touched = []
        targets[new] = target
        return ListenTarget(id: new, query: target.query)
    }

    /// Forgets every resume token: the next stream asks for each target from scratch (the
    /// server refused them, or is another server: an emulator started again).
    package mutating func forgetResumeTokens() {
        for id in targets.keys { targets[id]!.resumeToken = [] }
    }

    /// Every document as of the last step, sorted by path.
    package var allDocuments: [ListenDocument] {
        documents.keys.sorted().map { documents[$0]!.document }
    }

    /// The query of target `id`, if it is one of this state's.
    package func query(of id: Int32) -> ListenTarget.Query? { targets[id]?.query }

    /// The documents of target `id` as of the last step.
    package func documents(of id: Int32) -> [DocumentPath: ListenDocument] { targets[id]?.applied ?? [:] }

    /// True when every target has been in sync since it was added or last reset.
    package var isCurrent: Bool { targets.values.allSatisfy(\.current) }

    /// A new stream: what was gathered and not applied is asked for again. A target with a
    /// resume token is sent from there (only what changed since); one without is sent whole,
    /// so what the server leaves out of it is gone (an emulator started again, empty).
    package mutating func reconnecting() {
        for id in targets.keys {
            let resumes = !targets[id]!.resumeToken.isEmpty
            targets[id]!.working = resumes ? targets[id]!.applied : [:]
            targets[id]!.touched = []
            targets[id]!.wasReset = !resumes
            targets[id]!.current = false
        }
    }

    // MARK: Responses

    /// What a response asks of the listener besides gathering.
    package enum Event: Sendable, Equatable {
        /// A consistent step: apply it.
        case step(ListenStep)
        /// The target's count disagrees with the server's (`ExistenceFilter`): listen to it
        /// again from scratch (remove it and add it with no resume token).
        case relisten(Int32)
        /// The server stopped following the targets, and why (permission denied, an invalid
        /// query): the stream is to be opened again.
        case removed([Int32], ListenStatus)
    }

    /// Gathers one response; returns what the listener must do.
    package mutating func receive(_ response: ListenResponse) -> Event? {
        switch response {
        case .targetChange(let change):
            return receive(change)
        case .documentChange(let document, let ids, let removed):
            for id in ids where targets[id] != nil { put(document, in: id) }
            for id in removed where targets[id] != nil { take(document.document.path, from: id) }
        case .documentDelete(let path, let removed), .documentRemove(let path, let removed):
            // A delete with no targets named leaves every target that holds the document.
            let ids = removed.isEmpty ? targets.keys.filter { targets[$0]!.working[path] != nil } : removed
            for id in ids where targets[id] != nil { take(path, from: id) }
        case .filter(let id, let count):
            if let target = targets[id], target.current, target.working.count != Int(count) {
                targets[id]!.resumeToken = []
                return .relisten(id)
            }
        case .other:
            break
        }
        return nil
    }

    private mutating func receive(_ change: TargetChange) -> Event? {
        let ids = change.targetIDs.isEmpty ? Array(targets.keys) : change.targetIDs.filter { targets[$0] != nil }
        switch change.kind {
        case .add:
            break
        case .remove:
            // Without a cause, the answer to a removal asked for; with one, the server gave up
            // on the targets (permission denied, a token it no longer takes).
            if let cause = change.cause, cause.code != 0, !ids.isEmpty { return .removed(ids, cause) }
        case .current:
            for id in ids { targets[id]!.current = true }
        case .reset:
            for id in ids {
                targets[id]!.working = [:]
                targets[id]!.wasReset = true
                targets[id]!.current = false
            }
        case .noChange:
            if change.targetIDs.isEmpty, change.readTime != nil {
                return .step(applyCurrent(readTime: change.readTime!, resumeToken: change.resumeToken))
            }
        }
        if !change.resumeToken.isEmpty {
            for id in ids where targets[id]!.current { targets[id]!.resumeToken = change.resumeToken }
        }
        return nil
    }

    private mutating func put(_ document: ListenDocument, in id: Int32) {
        targets[id]!.working[document.document.path] = document
        targets[id]!.touched.insert(document.document.path)
    }

    private mutating func take(_ path: DocumentPath, from id: Int32) {
        if targets[id]!.working.removeValue(forKey: path) != nil { targets[id]!.touched.insert(path) }
    }

    /// Applies what every target in sync gathered (the step may be empty: the server resent
    /// what was there, or only said it is still in sync).
    private mutating func applyCurrent(readTime: Timestamp, resumeToken: [UInt8]) -> ListenStep {
        // Each moved document as it was before this step (removed targets' already went).
        var before: [DocumentPath: Timestamp?] = [:]
        for path in dropped { before[path] = Timestamp?.some(Timestamp(seconds: .min)) }
        dropped = []
        var firstSync = false
        for id in targets.keys where targets[id]!.current {
            var target = targets[id]!
            targets[id] = nil  // uniquely referenced while changed: no copy of its maps
            if !resumeToken.isEmpty { target.resumeToken = resumeToken }
            if !target.everCurrent { firstSync = true }
            target.everCurrent = true
            let paths: Set<DocumentPath> =
                target.wasReset ? Set(target.applied.keys).union(target.working.keys) : target.touched
            for path in paths {
                let old = target.applied[path]
                let new = target.working[path]
                if old?.updateTime == new?.updateTime, (old == nil) == (new == nil) { continue }
                if before[path] == nil { before[path] = .some(documents[path]?.document.updateTime) }
                switch (old, new) {
                case (nil, let new?):
                    target.applied[path] = new
                    hold(new, change: +1)
                case (_?, nil):
                    target.applied[path] = nil
                    release(path)
                case (_?, let new?):
                    target.applied[path] = new
                    hold(new, change: 0)
                case (nil, nil):
                    break
                }
            }
            target.touched = []
            target.wasReset = false
            target.working = target.applied
            targets[id] = target
        }
        var step = ListenStep(readTime: readTime, isFirstSync: firstSync)
        for (path, was) in before.sorted(by: { $0.key < $1.key }) {
            let now = documents[path]?.document
            if now?.updateTime == was { continue }
            if let now { step.changed.append(now) } else { step.removed.append(path) }
        }
        return step
    }

    /// One more (or, `change: 0`, the same number of) targets hold `document`, as it is now.
    private mutating func hold(_ document: ListenDocument, change: Int) {
        let path = document.document.path
        let holders = (documents[path]?.holders ?? 0) + change
        documents[path] = (document, max(holders, 1))
    }

    private mutating func release(_ path: DocumentPath) {
        guard let held = documents[path] else { return }
        if held.holders <= 1 { documents[path] = nil } else { documents[path] = (held.document, held.holders - 1) }
    }
}

/// One consistent step of a listen stream: the documents that came or changed, and those
/// that went, as of `readTime`.
package struct ListenStep: Sendable, Equatable {
    package var readTime: Timestamp
    /// Some target came in sync for the first time (its documents are in `changed`).
    package var isFirstSync: Bool
    package var changed: [ListenDocument] = []
    package var removed: [DocumentPath] = []

    package init(readTime: Timestamp, isFirstSync: Bool = false) {
        self.readTime = readTime
        self.isFirstSync = isFirstSync
    }
}
