/// `favorites/{uid}/favorites/{id}`: a favorite place of uid.
package struct FavoritePlace: Sendable, Equatable {
    package let id: String
    package let uid: String
    package let name: String
    package let address: String?
    package let coordinate: Coordinate?
}
