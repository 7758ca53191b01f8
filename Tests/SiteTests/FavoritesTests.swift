import Site
import Store
import TestSupport
import Testing

/// `/u/{handle}/favorites/` (SPEC 3): by name in code point order (ties by ID), each
/// with its address, coordinates and a map link.
@Suite struct Favorites {
    let site: RenderedSite

    init() throws { site = try render(richStore) }

    var page: String { get throws { try site.page("u/mina/favorites/index.html") } }

    @Test func orderByNameInCodePointOrderThenID() throws {
        // `Bar` twice (p4 < p5); `Ölmühle` after `Zoo` (U+00D6 > `Z`).
        #expect(attributeValues("data-place-id", in: try page) == ["p3", "p4", "p5", "p2", "p1", "p0"])
        let names = try page.components(separatedBy: "<h3 class=\"p-name place-name\">").dropFirst()
            .map { String($0.prefix { $0 != "<" }) }
        #expect(names == ["Apple Store", "Bar", "Bar", "Café Onion", "Zoo", "Ölmühle"])
    }

    /// The place's `<li>`.
    func place(_ id: String) throws -> String {
        try #require(section(try page, from: "data-place-id=\"\(id)\"", to: "</li>"), "place \(id)")
    }

    @Test(arguments: [
        ("p1", "37.5", "127"),  // numbers (an integer longitude)
        ("p2", "37.5446", "127.0559"),  // numeric strings
        ("p3", "-33.8688", "151.2093"),  // the `longtitude` misspelling
        ("p4", "48.8584", "2.2945"),  // a Firestore geopoint
        ("p5", "51.5", "-0.125"),  // {"__datatype__": "geopoint", "value": {…}}
        ("p0", "52.52", "13.405"),  // {"_latitude", "_longitude"}
    ])
    func coordinatesFromEveryForm(id: String, latitude: String, longitude: String) throws {
        let li = try place(id)
        #expect(li.contains("<data class=\"p-latitude\" value=\"\(latitude)\">\(latitude)</data>"), "\(li)")
        #expect(li.contains("<data class=\"p-longitude\" value=\"\(longitude)\">\(longitude)</data>"), "\(li)")
        let map = try #require(section(li, from: "<a class=\"place-map\"", to: ">"))
        #expect(
            attributeValues("href", in: map)
                == ["https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=17/\(latitude)/\(longitude)"]
        )
    }

    @Test func addresses() throws {
        #expect(try place("p1").contains("<p class=\"p-adr place-address\">1 Zoo Road</p>"))
        #expect(try place("p2").contains("<p class=\"p-adr place-address\">8 Achasan-ro</p>"))
        #expect(try !place("p3").contains("p-adr"))
    }

    @Test func favoritesTabIsCurrent() throws {
        #expect(
            try page.contains(
                "<a href=\"u/mina/favorites/index.html\" aria-current=\"page\">Favorites <span class=\"tab-count\">6</span></a>"
            ))
    }

    @Test func favoritesOfUnknownUsersAreNotShown() throws {
        let site = try render([user("uMina", "mina"), favorite("uGhost", "p1", "Ghost Town")])
        #expect(site.paths(containing: "Ghost Town").isEmpty)
    }

    /// A place without a coordinate cannot have a map link; an empty `href` points at the
    /// site's home page (through `<base>`) instead.
    @Test func placeWithoutCoordinateHasNoEmptyMapLink() throws {
        let site = try render([user("uMina", "mina"), favorite("uMina", "p1", "Nowhere", address: "Unknown road")])
        let html = try site.page("u/mina/favorites/index.html")
        #expect(html.contains("<h3 class=\"p-name place-name\">Nowhere</h3>"))
        #expect(!html.contains("p-latitude"))
        #expect(!html.contains("href=\"\""))
        #expect(brokenLinks(in: site.files, baseURL: "/").isEmpty)
    }
}
