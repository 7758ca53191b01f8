import FirestoreExport
import Protobuf
import Store
import Testing

/// Entities as the export writes them, decoded: each kind of value as the other stores give
/// it, the key as the document's path, arrays from repeated properties, and each way an
/// entity can be wrong an error at its byte, naming the document once its key is read.
@Suite("Datastore entities")
struct EntityDecoderTests {
    static func document(_ bytes: [UInt8]) throws(ExportDamage) -> Document {
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(ExportDamage) in try EntityDecoder.document(raw, source: "output-0") }
        }
        return try outcome.get()
    }

    static func damage(_ bytes: [UInt8]) -> ExportDamage? {
        do {
            _ = try document(bytes)
            return nil
        } catch {
            return error
        }
    }

    static func fields(_ properties: [Entity.Property]) throws -> Fields {
        try document(Entity.bytes(path: ["kinds", "k1"], properties: properties)).fields
    }

    @Test func everyKindOfValue() throws {
        let fields = try Self.fields([
            Entity.string("string", "héllo"),
            Entity.integer("integer", -42),
            Entity.Property(name: "double") { $0.double(4, 1.5) },
            Entity.Property(name: "true") { $0.bool(2, true) },
            Entity.Property(name: "null"),
            Entity.Property(name: "timestamp", meaning: 7) { $0.int64(1, 1_636_104_600_123_456) },
            Entity.Property(name: "geopoint", meaning: 9) { value in
                value.group(5) { point in
                    point.double(6, 37.5)
                    point.double(7, 127.25)
                }
            },
            Entity.Property(name: "reference") { value in
                value.group(12) { reference in
                    reference.string(13, "dev~roost-test")
                    reference.group(14) { element in
                        element.string(15, "users")
                        element.string(17, "u1")
                    }
                    reference.group(14) { element in
                        element.string(15, "user-likes")
                        element.int64(16, 9)
                    }
                }
            },
            Entity.Property(name: "bytes", meaning: 14) { $0.lengthDelimited(3, [0, 1, 2, 0xFF]) },
            Entity.Property(name: "map", meaning: 19) { value in
                value.lengthDelimited(3, Entity.map([Entity.integer("x", 1), Entity.string("y", "z")]))
            },
            Entity.Property(name: "emptyMap", meaning: 19) { $0.lengthDelimited(3, Entity.map([])) },
        ])
        #expect(
            fields
                == Fields([
                    ("string", .string("héllo")), ("integer", .integer(-42)), ("double", .double(1.5)),
                    ("true", .bool(true)), ("null", .null),
                    ("timestamp", .timestamp(Timestamp(seconds: 1_636_104_600, nanoseconds: 123_456_000))),
                    ("geopoint", .geoPoint(latitude: 37.5, longitude: 127.25)),
                    ("reference", .reference("users/u1/user-likes/__id9__")), ("bytes", .bytes("AAEC/w==")),
                    ("map", .map(Fields([("x", .integer(1)), ("y", .string("z"))]))), ("emptyMap", .map(Fields())),
                ]))
    }

    @Test func timestampsBeforeNineteenSeventyRoundDown() throws {
        let fields = try Self.fields([
            Entity.Property(name: "t", meaning: 7) { $0.int64(1, -1) },
            Entity.Property(name: "u", meaning: 7) { $0.int64(1, -62_135_596_800_000_000) },
        ])
        #expect(fields["t"] == .timestamp(Timestamp(seconds: -1, nanoseconds: 999_999_000)))
        #expect(fields["u"] == .timestamp(Timestamp(seconds: -62_135_596_800)))
    }

    @Test func repeatedPropertiesAreOneArrayAndTheEmptyListMarkAnEmptyOne() throws {
        let element = { (value: Int64) in Entity.Property(name: "list", multiple: true) { $0.int64(1, value) } }
        let fields = try Self.fields([
            Entity.Property(name: "empty", meaning: 24),
            element(1), Entity.string("between", "b"), element(2),
            Entity.Property(name: "list", multiple: true),  // a null element
            Entity.Property(name: "maps", meaning: 19, multiple: true) { $0.lengthDelimited(3, Entity.map([])) },
        ])
        #expect(
            fields
                == Fields([
                    ("empty", .array([])), ("list", .array([.integer(1), .integer(2), .null])),
                    ("between", .string("b")), ("maps", .array([.map(Fields())])),
                ]))
    }

    @Test func theKeyGivesThePathAndANumericIDItsFirestoreName() throws {
        var writer = ProtobufWriter()
        writer.message(13) { key in
            key.message(14) { path in
                path.group(1) { element in
                    element.string(2, "users")
                    element.string(4, "u1")
                }
                path.group(1) { element in
                    element.string(2, "user-likes")
                    element.int64(3, 42)
                }
            }
        }
        writer.message(16) { $0.string(1, "the entity group: skipped") }
        let document = try Self.document(writer.bytes)
        #expect(document.path == DocumentPath(["users", "u1", "user-likes", "__id42__"]))
        #expect(document.fields.isEmpty && document.source == "output-0")
        let indexed = try Self.document(
            Entity.bytes(path: ["tweets", "t1"], properties: [Entity.string("caption", "c")], rawField: 14))
        #expect(indexed.fields == Fields([("caption", .string("c"))]))
    }

    @Test func eachWayAnEntityIsWrongIsAnErrorAtItsByte() {
        let path = ["kinds", "k1"]
        let withKey = Entity.bytes(path: path, properties: [])
        let cases: [(Entity.Property, String)] = [
            (
                Entity.Property(name: "p", meaning: 21) { $0.int64(1, 1) },
                "property p has the meaning 21, which is no Firestore value"
            ),
            (
                Entity.Property(name: "p", meaning: 7) { $0.string(3, "now") },
                "property p is marked as a timestamp (meaning 7) but holds a string"
            ),
            (
                Entity.Property(name: "p") { value in
                    value.int64(1, 1)
                    value.string(3, "x")
                }, "property p holds both an integer and a string"
            ),
            (
                Entity.Property(name: "p") { $0.lengthDelimited(3, [0xC3, 0x28]) },
                "property p holds a string that is not UTF-8"
            ),
            (
                Entity.Property(name: "p") { $0.group(8) { $0.string(9, "user@example.com") } },
                "property p holds an App Engine user, which is no Firestore value"
            ),
            (
                Entity.Property(name: "p", meaning: 19) { $0.lengthDelimited(3, [0x08]) },
                "a map: the data ends inside a varint"
            ),
        ]
        for (property, detail) in cases {
            let damage = Self.damage(Entity.bytes(path: path, properties: [property]))
            #expect(damage?.detail == detail)
            #expect(damage?.document == "kinds/k1")
            #expect((damage?.offset ?? 0) > withKey.count, "\(detail)")
        }
        #expect(
            Self.damage(Entity.bytes(path: path, properties: [Entity.string("p", "a"), Entity.string("p", "b")]))?
                .detail
                == "property p appears twice, and not as the values of one array")
        #expect(Self.damage([]) == ExportDamage(at: 0, "the entity has no key"))
        #expect(
            Self.damage(Array(withKey.dropLast()))
                == ExportDamage(
                    at: 1,
                    "the entity: a length-delimited field of \(withKey.count - 2) bytes, with \(withKey.count - 3) bytes left"
                ))
        var unnamed = ProtobufWriter()
        unnamed.message(13) { key in key.message(14) { $0.group(1) { $0.string(2, "users") } } }
        #expect(Self.damage(unnamed.bytes)?.detail == "the path element of users has neither a name nor an id")
        var namespaced = ProtobufWriter()
        namespaced.message(13) { key in
            key.string(20, "tenant")
            key.message(14) { path in
                path.group(1) {
                    $0.string(2, "users")
                    $0.string(4, "u1")
                }
            }
        }
        #expect(
            Self.damage(namespaced.bytes)?.detail
                == "the namespace \"tenant\": a Firestore database has the default namespace only")
    }

    @Test func mapsNestedTooDeepAreRefusedNotACrash() {
        var map = Entity.map([Entity.integer("leaf", 1)])
        for _ in 0..<150 {
            let inner = map
            map = Entity.map([Entity.Property(name: "m", meaning: 19) { $0.lengthDelimited(3, inner) }])
        }
        let outer = map
        let damage = Self.damage(
            Entity.bytes(
                path: ["kinds", "deep"],
                properties: [Entity.Property(name: "m", meaning: 19) { $0.lengthDelimited(3, outer) }]))
        #expect(damage?.detail == "property m: maps nested deeper than 100 levels")
        #expect(damage?.document == "kinds/deep")
    }
}
