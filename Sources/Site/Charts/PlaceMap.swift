import Foundation

/// A user's favorite places on a static SVG picture (SPEC 7): a Web Mercator projection of
/// their bounding box, each place a numbered point linked to its entry in the list. No tiles,
/// no request: the picture is the points themselves.
struct PlaceMap {
    struct Point {
        /// 1-based: the place's number in the list.
        let number: Int
        let latitude: Double
        let longitude: Double
        /// Where the point links: the list entry.
        let href: String
        /// The link's accessible name.
        let label: String
        /// The label's language when its script is not the page's (`ScriptLanguage`).
        var lang: String? = nil
    }

    /// The texts the picture carries.
    struct Words {
        let title: String
        /// What says how many places are not drawn; nil when all are.
        let notDrawn: String?
    }

    static let width = 640.0
    static let height = 360.0
    static let margin = 28.0
    /// The smallest span drawn, as a fraction of the world's width (about 2 km): one place,
    /// or places a few metres apart, do not fill the picture.
    static let minimumSpan = 0.00005

    let points: [Point]

    /// Web Mercator of a place: x and y in 0…1 across the world (y down), latitude clamped
    /// to the projection's ±85.0511°.
    static func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let lat = max(-85.051_128_78, min(85.051_128_78, latitude)) * .pi / 180
        let x = (longitude + 180) / 360
        let y = (1 - log(tan(.pi / 4 + lat / 2)) / .pi) / 2
        return (x, y)
    }

    /// Each point's position in the picture, in `points` order.
    func positions() -> [(x: Double, y: Double)] {
        let projected = points.map { Self.project(latitude: $0.latitude, longitude: $0.longitude) }
        guard let first = projected.first else { return [] }
        var (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
        for p in projected {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let spanX = max(maxX - minX, Self.minimumSpan)
        let spanY = max(maxY - minY, Self.minimumSpan)
        let innerW = Self.width - 2 * Self.margin
        let innerH = Self.height - 2 * Self.margin - 18  // room for the note at the bottom
        let scale = min(innerW / spanX, innerH / spanY)
        let centerX = (minX + maxX) / 2
        let centerY = (minY + maxY) / 2
        return projected.map { p in
            (Self.width / 2 + (p.x - centerX) * scale, Self.margin + innerH / 2 + (p.y - centerY) * scale)
        }
    }

    /// The SVG element; `id` makes its title's id unique on the page.
    func svg(id: String, words: Words) -> String {
        var out = """
            <svg class="place-map-picture" viewBox="0 0 \(SVGText.number(Self.width)) \(SVGText.number(Self.height))" \
            aria-labelledby="\(id)-title" xmlns="http://www.w3.org/2000/svg">\
            <title id="\(id)-title">\(SVGText.escaped(words.title))</title>
            <rect class="map-ground" x="0" y="0" width="\(SVGText.number(Self.width))" height="\(SVGText.number(Self.height))" rx="12"/>

            """
        // A few grid lines, so the picture reads as a map.
        for i in 1..<4 {
            let x = Self.width * Double(i) / 4
            let y = Self.height * Double(i) / 4
            out += """
                <line class="map-grid" x1="\(SVGText.number(x))" y1="0" x2="\(SVGText.number(x))" y2="\(SVGText.number(Self.height))"/>\
                <line class="map-grid" x1="0" y1="\(SVGText.number(y))" x2="\(SVGText.number(Self.width))" y2="\(SVGText.number(y))"/>

                """
        }
        for (point, position) in zip(points, positions()) {
            let x = SVGText.number(position.x)
            let y = SVGText.number(position.y)
            out += """
                <a class="map-point" href="\(SVGText.escaped(point.href))" aria-label="\(SVGText.escaped(point.label))"\(point.lang.map { " lang=\"\(SVGText.escaped($0))\"" } ?? "") \
                data-place-number="\(point.number)"><circle cx="\(x)" cy="\(y)" r="14"/>\
                <text x="\(x)" y="\(SVGText.number(position.y + 5))" text-anchor="middle" aria-hidden="true">\(point.number)</text></a>

                """
        }
        if let note = words.notDrawn {
            out += """
                <text class="map-note" aria-hidden="true" x="\(SVGText.number(Self.margin))" y="\(SVGText.number(Self.height - 12))">\(SVGText.escaped(note))</text>

                """
        }
        return out + "</svg>"
    }
}
