/// A place on Earth, in degrees.
package struct Coordinate: Sendable, Equatable {
    package let latitude: Double
    package let longitude: Double

    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
