import Support

/// Builds a tweet's Markdown caption, 20–280 characters: words, **bold**, _italic_, `code`,
/// bare URLs, @mentions of existing users, emoji, Korean, paragraph breaks, and 1–3 #tags
/// (Zipf-popular) for ~30% of tweets. Replies start with @parent half of the time.
/// Reused from tweet to tweet (no allocation once warm).
struct CaptionBuilder {
    private(set) var text: [UInt8] = []
    private var tagPicks: [Int] = []
    /// Body tokens: where each ends in `body`, its characters, whether it starts a paragraph.
    private var body: [UInt8] = []
    private var ends: [Int] = []
    private var characters: [Int] = []
    private var paragraph: [Bool] = []

    static let maximum = 280

    /// Returns true if the caption has #tags.
    mutating func build(plan: StorePlan, replyingTo parentAuthor: Int?, _ random: inout SplitMix64) -> Bool {
        reset()

        let target = min(CaptionBuilder.maximum, max(20, Int(20 + power(random.unit(), 1.6) * 260)))
        var fixed = 0  // characters of the lead mention and the tags, with their spaces
        var lead: [UInt8]?
        if let p = parentAuthor, random.chance(0.5) {
            lead = plan.users[p].username
            fixed += plan.users[p].username.count + 2
        }
        if random.chance(0.30) {
            for _ in 0..<random.between(1, 3) {
                let k = plan.tagZipf.draw(&random)
                if !tagPicks.contains(k) {
                    tagPicks.append(k)
                    fixed += plan.tags[k].characters + 1
                }
            }
        }
        var length = fixed
        repeat {
            length += appendToken(plan: plan, hasLead: lead != nil, &random)
        } while length < target
        // Drop tokens from the end until it fits; keep one.
        while ends.count > 1 && length - 1 > CaptionBuilder.maximum {
            length -= characters.removeLast() + (paragraph.removeLast() ? 0 : 1)
            ends.removeLast()
        }
        appendText(lead: lead, plan: plan)
        return !tagPicks.isEmpty
    }

    private mutating func reset() {
        text.removeAll(keepingCapacity: true)
        body.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        characters.removeAll(keepingCapacity: true)
        paragraph.removeAll(keepingCapacity: true)
        tagPicks.removeAll(keepingCapacity: true)
    }

    /// Appends one body token drawn from `random` (its word capitalized when it opens the caption
    /// and there is no `lead`); returns the characters it adds, with its space.
    private mutating func appendToken(plan: StorePlan, hasLead: Bool, _ random: inout SplitMix64) -> Int {
        let start = body.count
        var chars = 0
        var isParagraph = false
        func add(_ token: Token) {
            body.append(contentsOf: token.bytes)
            chars += token.characters
        }
        func add(_ text: StaticString) {
            body.append(text)
            chars += text.utf8CodeUnitCount
        }
        let x = random.unit()
        if x < 0.68 || (x >= 0.99 && ends.isEmpty) {
            add(random.pick(Vocabulary.words))
            if ends.isEmpty, !hasLead, body[start] >= 0x61, body[start] <= 0x7A { body[start] -= 0x20 }
        } else if x < 0.74 {
            add("**")
            add(random.pick(Vocabulary.words))
            add(" ")
            add(random.pick(Vocabulary.words))
            add("**")
        } else if x < 0.79 {
            add("_")
            add(random.pick(Vocabulary.words))
            add("_")
        } else if x < 0.81 {
            add("`")
            add(random.pick(Vocabulary.code))
            add("`")
        } else if x < 0.83 {
            add("https://")
            add(random.pick(Vocabulary.domains))
            add("/")
            add(random.pick(Vocabulary.words))
            add("/")
            let before = body.count
            body.appendInteger(random.between(1, 99999))
            chars += body.count - before
        } else if x < 0.86 {
            let u = Int(plan.mentionOrder[plan.mentionZipf.draw(&random)])
            add("@")
            body.append(contentsOf: plan.users[u].username)
            chars += plan.users[u].username.count
        } else if x < 0.89 {
            add(random.pick(Vocabulary.emoji))
        } else if x < 0.91 {
            add(random.pick(Vocabulary.koreanPhrases))
        } else if x < 0.99 {
            add(random.pick(Vocabulary.words))
            add(random.pick(Vocabulary.punctuation))
        } else {
            isParagraph = true
            add("\n\n")
            add(random.pick(Vocabulary.words))
            if body[start + 2] >= 0x61, body[start + 2] <= 0x7A { body[start + 2] -= 0x20 }
        }
        ends.append(body.count)
        characters.append(chars)
        paragraph.append(isParagraph)
        return chars + (isParagraph ? 0 : 1)
    }

    /// Writes `text`: the lead mention, the kept tokens, the tags.
    private mutating func appendText(lead: [UInt8]?, plan: StorePlan) {
        if let lead {
            text.append(UInt8(ascii: "@"))
            text.append(contentsOf: lead)
        }
        var start = 0
        for (k, end) in ends.enumerated() {
            if !text.isEmpty && !paragraph[k] { text.append(0x20) }
            text.append(contentsOf: body[start..<end])
            start = end
        }
        for k in tagPicks {
            text.append(0x20)
            text.append(contentsOf: plan.tags[k].bytes)
        }
    }
}
