import Firestore
import FirestoreExport
import Foundation
import Store
import TestSupport
import Testing

/// Damage to an export is an error naming the file and byte (and the document when it is
/// known), never a smaller store: a byte flipped in a record's header, its bytes or its
/// checksum, a file cut inside a record or at a record's end, an empty file, and each missing
/// metadata or output file.
@Suite("Damaged export folders")
struct ExportDamageTests {
    static let output = "kinds/all_namespaces/all_kinds/output-0"

    /// A copy of the `kinds` fixture whose output file `change` rewrote; the error reading it.
    static func reading(_ change: (inout [UInt8]) -> Void) throws -> (String, StoreError?) {
        let work = try TemporaryFolder()
        try work.copy(fixtures + "/kinds", to: "kinds")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: work.path(output))))
        change(&bytes)
        try work.write(output, bytes: bytes)
        let error = storeError { try ExportFolderSource(folder: work.path("kinds")).readStore() }
        return (work.path(output), error)
    }

    /// The second record of the fixture's output (its first is 7 + 57 bytes).
    static let second = 64

    @Test func aByteFlippedInAHeaderItsBytesOrItsChecksumIsAnError() throws {
        for (k, what) in [(Self.second + 1, "checksum"), (Self.second + 6, "type"), (Self.second + 40, "bytes")] {
            let (file, error) = try Self.reading { $0[k] ^= 0x01 }
            guard case .damagedExport(let named, let offset, nil, let detail)? = error else {
                Issue.record("\(what): \(String(describing: error))")
                continue
            }
            #expect(named == file && offset == Self.second, "\(what)")
            #expect(detail.hasPrefix("checksum mismatch: the header says 0x"), "\(what)")
            #expect("\(error!)".hasPrefix("\(file): damaged export at byte 64: checksum mismatch"))
            #expect("\(error!)".hasSuffix("; export the database again"))
        }
        let (file, error) = try Self.reading { $0[Self.second + 5] ^= 0x80 }  // the length's high byte
        #expect(
            error.map { "\($0)" }
                == "\(file): damaged export at byte 64: a record of 32948 bytes runs past the end of its block "
                + "(32697 bytes left); export the database again")
    }

    @Test func aFileCutInsideARecordIsAnErrorAtItsHeader() throws {
        let (file, error) = try Self.reading { $0.removeLast($0.count - 150) }
        #expect(
            error.map { "\($0)" }
                == "\(file): damaged export at byte 64: the file ends inside a record: its header gives 180 bytes, "
                + "79 follow; export the database again")
    }

    @Test func aFileCutAtARecordsEndHoldsFewerDocumentsThanTheMetadataCounts() throws {
        let (_, error) = try Self.reading { $0.removeLast($0.count - Self.second) }
        guard case .incompleteExport(let path, let detail)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("kinds/all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata"))
        #expect(
            detail
                == "the export's metadata counts 40909 bytes of output files, and they hold 64: "
                + "a file is cut or was written again")
        #expect("\(error!)".contains(": incomplete export: the export's metadata counts 40909 bytes"))
    }

    @Test func anEmptyOutputFileIsAnError() throws {
        let (_, error) = try Self.reading { $0 = [] }
        #expect(
            error.map { "\($0)" }?.hasSuffix(
                "all_namespaces_all_kinds.export_metadata: incomplete export: the export's metadata counts 40909 "
                    + "bytes of output files, and they hold 0: a file is cut or was written again; "
                    + "export the database again") == true)
    }

    @Test func eachMissingFileIsAnError() throws {
        let work = try TemporaryFolder()
        try work.copy(fixtures + "/kinds", to: "kinds")
        try work.copy(fixtures + "/firebase", to: "firebase")
        let source = ExportFolderSource(folder: work.path("kinds"))
        try FileManager.default.removeItem(atPath: work.path(Self.output))
        #expect(
            storeError { try source.checkShape() }.map { "\($0)" }
                == "\(work.path(Self.output)): incomplete export: missing (all_namespaces_all_kinds.export_metadata "
                + "lists it as an output file); export the database again")
        #expect(
            storeError { try source.readStore() }.map { "\($0)" }
                == storeError { try source.checkShape() }.map { "\($0)" })

        let kind = "kinds/all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata"
        try FileManager.default.removeItem(atPath: work.path(kind))
        #expect(
            storeError { try source.checkShape() }.map { "\($0)" }
                == "\(work.path(kind)): incomplete export: missing (kinds.overall_export_metadata lists it); "
                + "export the database again")

        // Without its overall metadata the folder is no export, and "not a store" says what one holds.
        try FileManager.default.removeItem(atPath: work.path("kinds/kinds.overall_export_metadata"))
        #expect(!ExportFolderSource.recognises(work.path("kinds")))
        let notAStore = storeError { try StoreAddress.source(for: work.path("kinds")).checkShape() }
        #expect("\(notAStore!)".contains("this folder holds all_namespaces"))
        #expect(
            "\(notAStore!)".contains(
                "an export folder holds NAME.overall_export_metadata or firebase-export-metadata.json"))

        let firebaseOverall = "firebase/firestore_export/firestore_export.overall_export_metadata"
        try FileManager.default.removeItem(atPath: work.path(firebaseOverall))
        #expect(
            storeError { try ExportFolderSource(folder: work.path("firebase")).checkShape() }.map { "\($0)" }
                == "\(work.path(firebaseOverall)): incomplete export: missing (firebase-export-metadata.json lists it); "
                + "export the database again")
        try work.write(
            "firebase/firebase-export-metadata.json", #"{"version": "13.0.0", "auth": {"path": "auth_export"}}"#)
        #expect(
            storeError { try ExportFolderSource(folder: work.path("firebase")).checkShape() }.map { "\($0)" }
                == "\(work.path("firebase/firebase-export-metadata.json")): incomplete export: no \"firestore\" entry: "
                + "the emulators were exported without Firestore's data; export the database again")
    }

    @Test func aPropertyThatDoesNotDecodeNamesTheDocumentAndItsByte() throws {
        let work = try TemporaryFolder()
        let good = Entity.bytes(path: ["tweets", "t1"], properties: [Entity.string("caption", "fine")])
        let bad = Entity.bytes(
            path: ["tweets", "t2"],
            properties: [
                Entity.string("caption", "fine"), Entity.Property(name: "timestamp", meaning: 7) { $0.double(4, 1.5) },
            ])
        let folder = try writeExport([good, bad], in: work, at: "export")
        let error = storeError { try ExportFolderSource(folder: folder).readStore() }
        guard case .damagedExport(let file, let offset, let document, let detail)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(file == folder + "/all_namespaces/all_kinds/output-0")
        #expect(document == "tweets/t2")
        #expect(detail == "property timestamp is marked as a timestamp (meaning 7) but holds a double")
        // The value's field, in the second record (after the first's 7 + its bytes, and its own header).
        let valueField = 7 + good.count + 7 + (bad.count - 9)
        #expect(offset == valueField)
        #expect("\(error!)".contains(": damaged export at byte \(offset) (document tweets/t2): property timestamp"))
    }

    @Test func twoExportsInOneFolderAreNamedNotGuessed() throws {
        let work = try TemporaryFolder()
        try writeExport([], in: work, at: "both", name: "first")
        try work.write("both/second.overall_export_metadata", bytes: [])
        let error = storeError { try ExportFolderSource(folder: work.path("both")).checkShape() }
        #expect(
            error.map { "\($0)" }
                == "\(work.path("both")): export folder: holds the metadata of 2 exports (first.overall_export_metadata, "
                + "second.overall_export_metadata): name the file of the one to read")
        let first = ExportFolderSource(folder: work.path("both/first.overall_export_metadata"))
        #expect(try first.readStore().documents.isEmpty)
    }
}
