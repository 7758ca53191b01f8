/// `favorites/{uid}/favorites/{id}`: a favorite place of uid.
public struct FavoritePlace: Sendable, Equatable {
    public let id: String
    public let uid: String
    public let name: String
    public let address: String?
    public let coordinate: Coordinate?
}
