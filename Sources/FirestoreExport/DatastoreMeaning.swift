/// The `meaning` of a Datastore property (`Property.Meaning` in App Engine's `entity.proto`):
/// which kind of value its plain protobuf value stands for. These are the ones an export of
/// Firestore writes (and the text and byte forms of Datastore itself); any other is an error.
enum DatastoreMeaning: UInt64 {
    /// The value is what its protobuf field says: a string, an integer, a double, a boolean, a
    /// point, a reference; none at all is null.
    case none = 0
    /// A timestamp: an integer of microseconds since 1970.
    case timestamp = 7
    /// A geopoint: a point (latitude x, longitude y).
    case geoPoint = 9
    /// Bytes, in the string field.
    case blob = 14
    /// Datastore's long text, in the string field.
    case text = 15
    /// Datastore's short bytes, in the string field.
    case byteString = 16
    /// A map: a nested entity, serialized in the string field.
    case entity = 19
    /// An empty array (a repeated property cannot say it has no values).
    case emptyList = 24
}
