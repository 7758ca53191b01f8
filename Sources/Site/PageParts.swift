import Model
import Mustache

/// `pager` (docs/templates.md, "Pagination").
struct PagerView: MustacheObject {
    let number: Int
    let count: Int
    /// The folder of page `n`.
    let folder: @Sendable (Int) -> String

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "isPaged": .bool(count > 1)
        case "number": .int(number)
        case "count": .int(count)
        case "hasPrevious": .bool(number > 1)
        case "previousURL": number > 1 ? .string(SitePaths.href(folder(number - 1))) : nil
        case "hasNext": .bool(number < count)
        case "nextURL": number < count ? .string(SitePaths.href(folder(number + 1))) : nil
        case "pages":
            Self.window(number, count).map { n -> MustacheValue in
                guard let n else { return ["isGap": .bool(true)] }
                return ["number": .int(n), "url": .string(SitePaths.href(folder(n))), "isCurrent": .bool(n == number)]
            }.mustacheValue
        default: nil
        }
    }
}

extension PagerView {
    /// The page numbers a pager links: the first, the last, and two on each side of the
    /// current one; nil marks a gap. Listing all of a 1,000-page feed on each page would
    /// make every page's size grow with the site's.
    static func window(_ number: Int, _ count: Int) -> [Int?] {
        var shown: [Int?] = []
        for n in 1...count where n == 1 || n == count || abs(n - number) <= 2 {
            if let last = shown.last, let previous = last, n > previous + 1 { shown.append(nil) }
            shown.append(n)
        }
        return shown
    }
}

/// One entry of `tabs`.
struct TabView: MustacheObject {
    /// `tweets`, `replies`, `likes`, `favorites`.
    let id: String
    /// The theme's `tab.…` text.
    let name: String
    let url: String
    let count: Int
    let isCurrent: Bool

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "id": .string(id)
        case "name": .string(name)
        case "url": .string(url)
        case "count": .int(count)
        case "isCurrent": .bool(isCurrent)
        default: nil
        }
    }
}

/// One entry of `places` (docs/templates.md, "A favorite place").
struct PlaceView: MustacheObject {
    let place: FavoritePlace
    /// 1-based, in list order: the place's number on the map.
    let number: Int
    let scripts: ScriptLanguage

    /// The `id` of the place's entry, which its point on the map links to.
    static func anchor(_ number: Int) -> String { "place-\(number)" }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "id": .string(place.id)
        case "number": .int(number)
        case "anchor": .string(Self.anchor(number))
        case "name": .string(place.name)
        case "nameLang": scripts.lang(of: place.name).map(MustacheValue.string)
        case "address": place.address.map(MustacheValue.string)
        case "addressLang": place.address.flatMap(scripts.lang).map(MustacheValue.string)
        case "hasAddress": .bool(place.address != nil)
        case "hasCoordinate": .bool(place.coordinate != nil)
        case "latitude": place.coordinate.map { .string(Self.decimal($0.latitude)) }
        case "longitude": place.coordinate.map { .string(Self.decimal($0.longitude)) }
        case "mapURL":
            place.coordinate.map { c in
                let lat = Self.decimal(c.latitude)
                let lon = Self.decimal(c.longitude)
                return .string("https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=17/\(lat)/\(lon)")
            }
        default: nil
        }
    }

    /// Up to 7 decimals (about 1 cm), no trailing zeros, never exponent notation.
    static func decimal(_ value: Double) -> String {
        let scaled = (value * 10_000_000).rounded()
        let negative = scaled < 0
        let units = Int64(abs(scaled))
        var fraction = String(units % 10_000_000)
        fraction = String(repeating: "0", count: 7 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = "\(negative ? "-" : "")\(units / 10_000_000)"
        return fraction.isEmpty ? whole : whole + "." + fraction
    }
}
