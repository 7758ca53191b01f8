import Support

/// The bytes of each kind of document, pretty-printed with two-space indents.
extension StorePlan {
    func userDocument(_ u: Int, into out: inout [UInt8]) {
        let user = users[u]
        out.append("{\n  \"username\": ")
        out.appendJSONString(user.username)
        out.append(",\n  \"fullname\": ")
        out.appendJSONString(user.fullname)
        if let pictureBase {
            // Drawn all the same (the token), so the rest of the store is the same.
            out.append(",\n  \"profileImageUrl\": ")
            out.appendJSONString(pictureBase + "/" + String(u) + ".png")
            out.append(",\n  \"email\": \"")
        } else {
            out.append(
                ",\n  \"profileImageUrl\": \"https://firebasestorage.googleapis.com/v0/b/roost-synthetic.appspot.com/o/avatars%2F"
            )
            out.append(contentsOf: user.uid)
            out.append(".jpg?alt=media&token=")
            out.append(contentsOf: user.avatarToken)
            out.append("\",\n  \"email\": \"")
        }
        for b in user.username { out.append(b == UInt8(ascii: "_") ? UInt8(ascii: ".") : b) }
        out.append(UInt8(ascii: "@"))
        out.append(contentsOf: user.emailDomain.utf8)
        out.append(0x22)
        if let bio = user.bio {
            out.append(",\n  \"bio\": ")
            out.appendJSONString(bio)
        }
        out.append("\n}\n")
    }

    /// What writing a tweet found out, for the summary.
    struct TweetFacts {
        var tagged = false
        var secondsObject = false
        var counterWrong = false
    }

    /// A tweet: caption, timestamp, author, a stored `likes` counter (drifted for ~5%), `replyTo`.
    func tweetDocument(_ t: Int, into out: inout [UInt8], caption: inout CaptionBuilder) -> TweetFacts {
        var random = SplitMix64(seed: seed, stream: .tweet, index: t)
        var facts = TweetFacts()
        let parentAuthor = parent[t] >= 0 ? Int(author[Int(parent[t])]) : nil
        facts.tagged = caption.build(plan: self, replyingTo: parentAuthor, &random)
        out.append("{\n  \"caption\": ")
        out.appendJSONString(caption.text)
        out.append(",\n  \"timestamp\": ")
        let form = TimestampForm.draw(&random)
        facts.secondsObject = form == .secondsObject
        out.appendTimestamp(seconds: seconds[t], nanoseconds: Int(nanoseconds[t]), form: form, indent: 2)
        out.append(",\n  \"uid\": \"")
        out.append(contentsOf: users[Int(author[t])].uid)
        out.append("\",\n  \"likes\": ")
        var stored = Int(likeCount[t])
        if random.chance(0.05) {
            var d = random.pick([-3, -2, -1, -1, 1, 1, 2, 3])
            if stored + d < 0 { d = -d }
            stored += d
            facts.counterWrong = true
        }
        out.appendInteger(stored)
        if parent[t] >= 0 {
            out.append(",\n  \"replyTo\": \"")
            out.append(contentsOf: tweetID(Int(parent[t])))
            out.append(0x22)
        }
        out.append("\n}\n")
        return facts
    }

    /// A like of tweet `t` by user `u`: `{}` for half, else `{"timestamp": …}` after the tweet's. True if timestamped.
    func likeDocument(tweet t: Int, user u: Int, into out: inout [UInt8]) -> Bool {
        var random = SplitMix64(seed: seed, stream: .likeDocument, index: t &* userCount &+ u)
        guard random.chance(0.5) else {
            out.append("{}\n")
            return false
        }
        let at = seconds[t] + 1 + Int(random.exponential(mean: 2 * 86400))
        let nanos = random.below(1_000_000) * 1000
        out.append("{\n  \"timestamp\": ")
        out.appendTimestamp(seconds: at, nanoseconds: nanos, form: TimestampForm.draw(&random), indent: 2)
        out.append("\n}\n")
        return true
    }
}

/// The favorite places of one user, drawn in order from the user's own generator: none for
/// 30% of the users, else 1–20 draws, of which a draw whose id the user already has is skipped.
struct FavoritePlaces {
    private var random: SplitMix64
    private var left: Int
    private var ids: [Int] = []

    init(plan: StorePlan, user u: Int) {
        random = SplitMix64(seed: plan.seed, stream: .favorites, index: u)
        left = random.chance(0.3) ? 0 : random.between(1, 20)
    }

    /// True when the user has no favorites (then there is no `favorites/{uid}/favorites` collection).
    var isEmpty: Bool { left == 0 && ids.isEmpty }

    /// Draws the next place with a new id into `place`; false when all are drawn.
    mutating func next(into place: inout Place) -> Bool {
        while left > 0 {
            left -= 1
            place.draw(&random)
            if !ids.contains(place.id) {
                ids.append(place.id)
                return true
            }
        }
        return false
    }
}

/// A favorite place: Korean name and road address, a coordinate near a city's centre with the
/// `longtitude` misspelling, as numbers for half of the places and numeric strings for the others.
struct Place {
    var id = 0
    var name: [UInt8] = []
    var address: [UInt8] = []
    var latitude = 0, longitude = 0
    var asStrings = false

    static let cityZipf = Zipf(count: Vocabulary.cities.count, exponent: 1.2)

    mutating func draw(_ random: inout SplitMix64) {
        let city = Vocabulary.cities[Place.cityZipf.draw(&random)]
        name.removeAll(keepingCapacity: true)
        name.append(contentsOf: random.pick(Vocabulary.placeNames).utf8)
        name.append(0x20)
        name.append(contentsOf: random.pick(Vocabulary.placeKinds).utf8)
        if random.chance(0.3) {
            name.append(0x20)
            name.append(contentsOf: random.pick(Vocabulary.branchNames).utf8)
            name.append(contentsOf: "점".utf8)
        }
        address.removeAll(keepingCapacity: true)
        address.append(contentsOf: city.city.utf8)
        address.append(0x20)
        address.append(contentsOf: random.pick(city.districts).utf8)
        address.append(0x20)
        address.append(contentsOf: random.pick(Vocabulary.roads).utf8)
        address.append(0x20)
        address.appendInteger(random.between(1, 400))
        if random.chance(0.3) {
            address.append(UInt8(ascii: "-"))
            address.appendInteger(random.between(1, 30))
        }
        latitude = city.latitude + Int((random.unit() - 0.5) * 120_000)
        longitude = city.longitude + Int((random.unit() - 0.5) * 120_000)
        id = random.between(10_000_000, 2_099_999_999)
        asStrings = random.chance(0.5)
    }

    func document(into out: inout [UInt8]) {
        out.append("{\n  \"placeName\": ")
        out.appendJSONString(name)
        out.append(",\n  \"placeID\": \"")
        out.appendInteger(id)
        out.append("\",\n  \"address\": ")
        out.appendJSONString(address)
        out.append(",\n  \"coordinate\": {\n    \"latitude\": ")
        coordinate(latitude, into: &out)
        out.append(",\n    \"longtitude\": ")
        coordinate(longitude, into: &out)
        out.append("\n  }\n}\n")
    }

    private func coordinate(_ micros: Int, into out: inout [UInt8]) {
        if asStrings { out.append(0x22) }
        out.appendMicros(micros, trim: !asStrings)
        if asStrings { out.append(0x22) }
    }
}
