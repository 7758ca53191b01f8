import FirestoreListen
import JSON
import Protobuf
import Store
import Testing

/// The document of `EveryValue` as the REST API gives it: both ways in must make one document.
@Test func aDocumentDecodesAsRESTDecodesItsJSON() throws {
    let json = """
        {"name": "projects/p/databases/d/documents/users/u1",
         "fields": {
           "n": {"nullValue": null},
           "b": {"booleanValue": true},
           "i": {"integerValue": "-5"},
           "d": {"doubleValue": 1.5},
           "t": {"timestampValue": "2023-11-14T22:13:20.000000005Z"},
           "s": {"stringValue": "hé"},
           "y": {"bytesValue": "/wABAg=="},
           "y1": {"bytesValue": "+w=="},
           "y3": {"bytesValue": "YWJj"},
           "r": {"referenceValue": "projects/p/databases/d/documents/users/u2"},
           "g": {"geoPointValue": {"latitude": 1.5}},
           "a": {"arrayValue": {"values": [{"integerValue": "1"}, {"stringValue": "x"}]}},
           "m": {"mapValue": {"fields": {"z": {"booleanValue": false}, "a": {"nullValue": null}}}},
           "ea": {"arrayValue": {}},
           "em": {"mapValue": {}}
         },
         "createTime": "1970-01-01T00:00:01Z",
         "updateTime": "2023-11-14T22:13:21.000000007Z"}
        """
    let rest = try RESTDocument.decode(JSONParser.parse(json), source: Messages.source, location: "test")
    let bytes = Messages.bytes { r in r.message(3) { $0.message(1, EveryValue.write) } }
    guard case .documentChange(let listened, _, _) = try Messages.decode(bytes) else {
        Issue.record("not a document change")
        return
    }
    #expect(listened.document == rest)
}
