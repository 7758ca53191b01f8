import Store
import Support

/// A document's path as a dictionary key, compared by its bytes: IDs in two Unicode forms
/// (`café` composed and decomposed) are two documents, as they are two files and two Firestore
/// documents, and as the build keeps them. (`DocumentPath` compares as Swift strings do.)
struct DocumentKey: Hashable, Sendable {
    let path: DocumentPath

    init(_ path: DocumentPath) { self.path = path }

    static func == (a: DocumentKey, b: DocumentKey) -> Bool {
        a.path.segments.count == b.path.segments.count
            && zip(a.path.segments, b.path.segments).allSatisfy { sameBytes($0, $1) }
    }

    func hash(into hasher: inout Hasher) {
        for segment in path.segments { hasher.combine(ExactText(segment)) }
    }
}
