import Model
import Search
import Support

/// The search files that hold what result cards and the user list show (the term shards are
/// `SearchIndex`'s): `search/d/{b}.js` (tweets numbered `b * docBucket …`, see `SearchIndex`
/// for the numbering) and `search/u/{b}.js` (users). Field names are short: they repeat per
/// tweet. A tweet: `i` ID, `u` permalink, `p` ISO time, `d` the date as pages show it,
/// `c` the caption (`CaptionTree`), `g` its lang, `l` likes, `r` replies, `k` liked by the
/// viewer, `a` the author (absent: no user document), `t` what it replies to (`m`: the parent
/// is gone, `n`: its author is; else `u` username and `h` profile). A user: `n` name, `nl` its
/// lang, `u` username, `ul` its lang, `h` profile, `a` picture.
extension SiteRenderer {
    func searchFile(_ file: SearchFile) -> [UInt8] {
        switch file {
        case .manifest: return search.manifest
        case .days: return search.days
        case .terms(let i):
            precondition(!search.shards[i].bytes.isEmpty, "a term shard rendered after droppingSearchTermShards()")
            return search.shards[i].bytes
        case .docs(let bucket):
            var out = Array("roostSearch.docs(\(bucket),[".utf8)
            for n in docNumbers(bucket) {
                if n > bucket * SearchIndex.docBucket { out.append(UInt8(ascii: ",")) }
                appendTweet(search.tweet(number: n), to: &out)
            }
            out += Array("]);\n".utf8)
            return out
        case .users(let bucket):
            var out = Array("roostSearch.users(\(bucket),[".utf8)
            for u in userNumbers(bucket) {
                if u > bucket * SearchIndex.userBucket { out.append(UInt8(ascii: ",")) }
                appendUser(u, to: &out)
            }
            out += Array("]);\n".utf8)
            return out
        }
    }

    func docNumbers(_ bucket: Int) -> Range<Int> {
        bucket * SearchIndex.docBucket..<min(search.tweetCount, (bucket + 1) * SearchIndex.docBucket)
    }

    func userNumbers(_ bucket: Int) -> Range<Int> {
        bucket * SearchIndex.userBucket..<min(search.userCount, (bucket + 1) * SearchIndex.userBucket)
    }

    private func appendTweet(_ t: Int, to out: inout [UInt8]) {
        let tweet = site.snapshot.tweets[t]
        let relations = site.snapshot.tweetRelations[t]
        var fields = JSONFields(out: out)
        fields.string("i", tweet.id)
        fields.string("u", SitePaths.href(site.paths.tweet(t)))
        fields.string("p", DateText.iso(tweet.timestamp))
        fields.string("d", site.dates[t])
        fields.key("c")
        CaptionTree.append(html: site.caption(t).html, to: &fields.out)
        if let lang = site.captionLangs[t] { fields.string("g", lang) }
        fields.number("l", relations.likers.count)
        fields.number("r", relations.replies.count)
        if site.viewerLiked[t] { fields.number("k", 1) }
        if let author = relations.author {
            fields.key("a")
            appendUser(author, to: &fields.out)
        }
        if tweet.isReply {
            fields.key("t")
            var reply = JSONFields(out: fields.out)
            if let parent = relations.parent {
                if let author = site.snapshot.tweetRelations[parent].author {
                    reply.string("u", site.snapshot.users[author].username)
                    reply.string("h", SitePaths.href(site.paths.profile(author, .tweets, page: 1)))
                } else {
                    reply.number("n", 1)
                }
            } else {
                reply.number("m", 1)
            }
            fields.out = reply.close()
        }
        out = fields.close()
    }

    private func appendUser(_ u: Int, to out: inout [UInt8]) {
        let user = site.snapshot.users[u]
        var fields = JSONFields(out: out)
        fields.string("n", user.fullname)
        if let lang = site.userLangs[u].name { fields.string("nl", lang) }
        fields.string("u", user.username)
        if let lang = site.userLangs[u].username { fields.string("ul", lang) }
        fields.string("h", SitePaths.href(site.paths.profile(u, .tweets, page: 1)))
        fields.string("a", site.avatars[u] ?? UserView.placeholderAvatar)
        out = fields.close()
    }
}

/// An object written field by field.
private struct JSONFields {
    var out: [UInt8]
    private var count = 0

    init(out: [UInt8]) {
        self.out = out
        self.out.append(UInt8(ascii: "{"))
    }

    mutating func key(_ name: String) {
        if count > 0 { out.append(UInt8(ascii: ",")) }
        count += 1
        JSONText.append(name, to: &out)
        out.append(UInt8(ascii: ":"))
    }

    mutating func string(_ name: String, _ value: String) {
        key(name)
        JSONText.append(value, to: &out)
    }

    mutating func number(_ name: String, _ value: Int) {
        key(name)
        out += Array(String(value).utf8)
    }

    mutating func close() -> [UInt8] {
        out.append(UInt8(ascii: "}"))
        return out
    }
}

/// `search/d/{bucket}.js`: what result cards show of a bucket of tweet numbers.
struct SearchDocsFile: PageDeclaration {
    static var templateName: String? { nil }
    static var usesWords: Bool { true }  // each tweet's date as pages show it
    let bucket: Int

    func render(_ r: SiteRenderer, path: String) throws -> [UInt8] {
        r.searchFile(.docs(bucket))
    }

    /// Its tweets' cards: `cardFingerprint` covers every field `appendTweet` writes.
    func fingerprint(_ f: inout PageFingerprint) {
        let search = f.inputs.renderer.search
        f.cards(f.inputs.renderer.docNumbers(bucket).map { search.tweet(number: $0) })
    }
}

/// The other script files of search: `search/index.js`, `search/days.js`, a term shard, the
/// users' data of a bucket of user numbers.
struct SearchIndexFile: PageDeclaration {
    static var templateName: String? { nil }
    static var usesWords: Bool { false }
    let file: SearchFile

    func render(_ r: SiteRenderer, path: String) throws -> [UInt8] {
        r.searchFile(file)
    }

    func fingerprint(_ f: inout PageFingerprint) {
        let r = f.inputs.renderer
        switch file {
        case .manifest: f.combine(bytes: r.search.manifest)
        case .days: f.combine(bytes: r.search.days)
        case .terms(let i): f.combine(bytes: r.search.shards[i].bytes)
        case .docs: preconditionFailure("a docs file is a SearchDocsFile")
        case .users(let bucket):
            for u in r.userNumbers(bucket) {  // what `appendUser` writes
                let user = f.snapshot.users[u]
                f.combine(user.fullname)
                f.combine(user.username)
                f.combine(user.handle)
                f.combine(r.site.avatars[u])
            }
        }
    }
}
