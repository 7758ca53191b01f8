import FirestoreListen
import Store
import Testing

/// The listener's state machine fed the messages a server sends: as Google's servers send them
/// (changes one by one) and as the emulator does (the whole target again after each change).
@Suite struct ListenStateTests {
    static let likes = ListenTarget.Query.collection(parent: "users/u1", id: "user-likes")
    static let tweets = ListenTarget.Query.fieldEquals(parent: "", id: "tweets", field: "uid", value: "u1")

    func document(_ path: String, _ seconds: Int64, caption: String = "") -> ListenDocument {
        ListenDocument(
            document: Document(
                path: DocumentPath(string: path)!, fields: Fields([("caption", .string(caption))]),
                source: "firestore://demo"),
            updateTime: Timestamp(seconds: seconds))
    }

    func change(_ document: ListenDocument, _ ids: [Int32], removed: [Int32] = []) -> ListenResponse {
        .documentChange(document, targetIDs: ids, removedTargetIDs: removed)
    }

    func target(_ kind: TargetChange.Kind, _ ids: [Int32] = [], token: [UInt8] = [], at seconds: Int64? = nil)
        -> ListenResponse
    {
        .targetChange(
            TargetChange(
                kind: kind, targetIDs: ids, resumeToken: token, readTime: seconds.map { Timestamp(seconds: $0) }))
    }

    /// Feeds `responses`; returns the events they gave.
    func feed(_ state: inout ListenState, _ responses: [ListenResponse]) -> [ListenState.Event] {
        responses.compactMap { state.receive($0) }
    }

    func steps(_ events: [ListenState.Event]) -> [ListenStep] {
        events.compactMap { if case .step(let step) = $0 { step } else { nil } }
    }

    /// A state with target 1 in sync holding a (time 1) and b (time 2).
    func synced() -> ListenState {
        var state = ListenState()
        let added = state.addTarget(Self.likes)
        #expect(added.id == 1)
        _ = feed(
            &state,
            [
                target(.add, [1]), change(document("users/u1/user-likes/a", 1), [1]),
                change(document("users/u1/user-likes/b", 2), [1]), target(.current, [1], token: [9]),
                target(.noChange, at: 10),
            ])
        return state
    }

    @Test func theFirstStepHoldsEveryDocumentOnceInSync() {
        var state = ListenState()
        _ = state.addTarget(Self.likes)
        var events = feed(&state, [target(.add, [1]), change(document("users/u1/user-likes/a", 1), [1])])
        // Not in sync yet: a global NO_CHANGE applies nothing of it.
        events += feed(&state, [target(.noChange, at: 5)])
        #expect(steps(events).allSatisfy { $0.changed.isEmpty })
        #expect(!state.isCurrent)
        let step = steps(feed(&state, [target(.current, [1]), target(.noChange, token: [7], at: 6)]))
        #expect(step.count == 1)
        #expect(step[0].isFirstSync)
        #expect(step[0].changed.map(\.document.path.description) == ["users/u1/user-likes/a"])
        #expect(step[0].readTime == Timestamp(seconds: 6))
        #expect(state.isCurrent)
        #expect(state.listenTargets == [ListenTarget(id: 1, query: Self.likes, resumeToken: [7])])
    }

    @Test func anEmulatorResendHandsOnOnlyWhatMoved() {
        var state = synced()
        // A like added: the emulator resends the target whole, a unchanged.
        let step = steps(
            feed(
                &state,
                [
                    target(.reset, [1]), change(document("users/u1/user-likes/a", 1), [1]),
                    change(document("users/u1/user-likes/b", 2), [1]),
                    change(document("users/u1/user-likes/c", 11), [1]), target(.current, [1]),
                    target(.noChange, at: 11),
                ]))
        #expect(step.count == 1)
        #expect(step[0].changed.map(\.document.path.description) == ["users/u1/user-likes/c"])
        #expect(step[0].removed.isEmpty)
        #expect(!step[0].isFirstSync)
    }

    @Test func aDocumentMissingFromTheResendIsRemoved() {
        var state = synced()
        let step = steps(
            feed(
                &state,
                [
                    target(.reset, [1]), change(document("users/u1/user-likes/b", 2), [1]),
                    target(.current, [1]), target(.noChange, at: 12),
                ]))
        #expect(step[0].changed.isEmpty)
        #expect(step[0].removed == [DocumentPath(string: "users/u1/user-likes/a")!])
        #expect(state.allDocuments.map(\.document.path.description) == ["users/u1/user-likes/b"])
    }

    @Test func aChangeIsNeverHalfApplied() {
        var state = synced()
        // Reset, part of the resend, then a global NO_CHANGE before CURRENT: nothing moves.
        let early = steps(
            feed(
                &state,
                [target(.reset, [1]), change(document("users/u1/user-likes/a", 1), [1]), target(.noChange, at: 12)]
            ))
        #expect(early.allSatisfy { $0.changed.isEmpty && $0.removed.isEmpty })
        #expect(state.allDocuments.count == 2)
        let late = steps(
            feed(
                &state,
                [change(document("users/u1/user-likes/b", 3), [1]), target(.current, [1]), target(.noChange, at: 13)]))
        #expect(late.last?.changed.map(\.updateTime) == [Timestamp(seconds: 3)])
    }

    @Test func changesAsGoogleSendsThem() {
        var state = synced()
        let step = steps(
            feed(
                &state,
                [
                    change(document("users/u1/user-likes/a", 20, caption: "x"), [1]),
                    .documentDelete(DocumentPath(string: "users/u1/user-likes/b")!, removedTargetIDs: []),
                    target(.noChange, token: [3], at: 20),
                ]))
        #expect(step[0].changed.map(\.document.fields) == [Fields([("caption", .string("x"))])])
        #expect(step[0].removed == [DocumentPath(string: "users/u1/user-likes/b")!])
        #expect(state.listenTargets[0].resumeToken == [3])
    }

    @Test func aDocumentStaysWhileAnyTargetHoldsIt() {
        var state = synced()
        _ = state.addTarget(Self.tweets)
        let a = document("users/u1/user-likes/a", 1)
        _ = feed(&state, [change(a, [2]), target(.current, [2]), target(.noChange, at: 21)])
        let step = steps(feed(&state, [change(a, [], removed: [1]), target(.noChange, at: 22)]))
        #expect(step[0].removed.isEmpty)
        #expect(state.allDocuments.count == 2)
        state.removeTarget(2)
        let gone = steps(feed(&state, [target(.noChange, at: 23)]))
        #expect(gone[0].removed == [a.document.path])
    }

    @Test func aDisagreeingCountRelistensKeepingTheDocuments() {
        var state = synced()
        let events = feed(&state, [.filter(targetID: 1, count: 3)])
        #expect(events == [.relisten(1)])
        let new = state.relisten(1)!
        #expect(new.id == 2 && new.query == Self.likes && new.resumeToken.isEmpty)
        #expect(state.allDocuments.count == 2)
        // A count that agrees asks for nothing.
        #expect(feed(&state, [.filter(targetID: 2, count: 2)]).isEmpty)
        let step = steps(
            feed(
                &state,
                [
                    change(document("users/u1/user-likes/a", 1), [2]),
                    change(document("users/u1/user-likes/d", 30), [2]),
                    change(document("users/u1/user-likes/b", 2), [2]), target(.current, [2]), target(.noChange, at: 30),
                ]))
        #expect(step[0].changed.map(\.document.path.description) == ["users/u1/user-likes/d"])
    }

    @Test func aTargetTheServerGaveUpOnFailsTheStream() {
        var state = synced()
        let refused = TargetChange(kind: .remove, targetIDs: [1], cause: ListenStatus(code: 7, message: "denied"))
        #expect(state.receive(.targetChange(refused)) == .removed([1], ListenStatus(code: 7, message: "denied")))
        // The answer to a removal asked for is no failure.
        #expect(state.receive(target(.remove, [1])) == nil)
    }

    @Test func reconnectingDropsWhatWasNotAppliedAndKeepsTheTokens() {
        var state = synced()
        _ = feed(&state, [target(.reset, [1])])
        state.reconnecting()
        #expect(!state.isCurrent)
        #expect(state.listenTargets.map(\.resumeToken) == [[9]])
        let step = steps(
            feed(
                &state,
                [
                    target(.reset, [1]), change(document("users/u1/user-likes/a", 1), [1]),
                    change(document("users/u1/user-likes/b", 2), [1]), target(.current, [1]),
                    target(.noChange, at: 40),
                ]))
        #expect(step[0].changed.isEmpty && step[0].removed.isEmpty)
        state.forgetResumeTokens()
        #expect(state.listenTargets.map(\.resumeToken) == [[]])
    }

    @Test func aTargetAskedForAgainWithoutItsTokenIsComparedWhole() {
        var state = synced()
        state.forgetResumeTokens()
        state.reconnecting()
        // The server (an emulator started again) now holds only b, changed.
        let step = steps(
            feed(
                &state,
                [change(document("users/u1/user-likes/b", 5), [1]), target(.current, [1]), target(.noChange, at: 50)]
            ))
        #expect(step.count == 1)
        #expect(step[0].removed == [DocumentPath(string: "users/u1/user-likes/a")!])
        #expect(step[0].changed.map(\.updateTime) == [Timestamp(seconds: 5)])
        #expect(state.allDocuments.map(\.document.path.description) == ["users/u1/user-likes/b"])
    }
}
