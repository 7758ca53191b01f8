import Foundation
import Mustache
import Testing

// A micro-benchmark, not a timed test: skipped unless MUSTACHE_BENCH is set.
// Run by hand in a release build:
//   MUSTACHE_BENCH=1 swift test -c release --filter MustacheTests.benchmarkTweetCard
// It renders a tweet-card template (~40 lines, ~15 tags, a section over three
// replies, one partial) 100,000 times and prints the time per render.

private struct BenchAuthor: MustacheObject {
    let name: String, handle: String, avatar: String
    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "name": .string(name)
        case "handle": .string(handle)
        case "avatar": .string(avatar)
        default: nil
        }
    }
}

private struct BenchReply: MustacheObject {
    let author: BenchAuthor, text: String, likes: Int
    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "author": author.mustacheValue
        case "text": .string(text)
        case "likes": .int(likes)
        default: nil
        }
    }
}

private struct BenchCard: MustacheObject {
    let author: BenchAuthor, text: String, date: String, likes: Int, retweets: Int, url: String
    let replies: [BenchReply], pinned: Bool
    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "author": author.mustacheValue
        case "text": .string(text)
        case "date": .string(date)
        case "likes": .int(likes)
        case "retweets": .int(retweets)
        case "url": .string(url)
        case "replies": replies.mustacheValue
        case "pinned": .bool(pinned)
        default: nil
        }
    }
}

private let cardTemplate = """
    <article class="tweet" id="tweet-card">
      <header>
        <img class="avatar" src="{{author.avatar}}" alt="">
        <div class="who">
          <span class="name">{{author.name}}</span>
          <a class="handle" href="/users/{{author.handle}}/">@{{author.handle}}</a>
        </div>
        {{#pinned}}
        <span class="pinned">Pinned</span>
        {{/pinned}}
      </header>
      <div class="text">
        <p>{{text}}</p>
      </div>
      <footer>
        <a class="date" href="{{url}}">{{date}}</a>
        <span class="likes">{{likes}} likes</span>
        <span class="retweets">{{retweets}} retweets</span>
      </footer>
      {{^replies}}
      <p class="none">No replies yet.</p>
      {{/replies}}
      <ol class="replies">
        {{#replies}}
        <li>
          {{> reply}}
        </li>
        {{/replies}}
      </ol>
      <nav>
        <a href="/">Home</a>
        <a href="/tweets/">All tweets</a>
        <a href="/users/">Users</a>
      </nav>
    </article>
    """

@Test(.enabled(if: ProcessInfo.processInfo.environment["MUSTACHE_BENCH"] != nil, "set MUSTACHE_BENCH=1 to run"))
func benchmarkTweetCard() throws {
    let library = try TemplateLibrary(templates: [
        "card": cardTemplate,
        "reply": "<span class=\"reply\"><b>{{author.name}}</b>: {{text}} ({{likes}})</span>\n",
    ])
    let ada = BenchAuthor(name: "Ada Lovelace", handle: "ada", avatar: "/img/ada.png")
    let bob = BenchAuthor(name: "Bob <the builder>", handle: "bob", avatar: "/img/bob.png")
    let card = BenchCard(
        author: ada, text: "Engines & numbers: \"poetical science\" isn't it?", date: "2026-11-29",
        likes: 1210, retweets: 42, url: "/tweets/1/",
        replies: [
            BenchReply(author: bob, text: "Yes!", likes: 3),
            BenchReply(author: ada, text: "Thanks, Bob.", likes: 0),
            BenchReply(author: bob, text: "Can we fix it? <yes>", likes: 12),
        ], pinned: true)
    let renders = 100_000
    var buffer: [UInt8] = []
    buffer.reserveCapacity(4096)
    var best = Double.infinity
    for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<renders {
            buffer.removeAll(keepingCapacity: true)
            try library.render("card", card, into: &buffer)
        }
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / Double(renders))
    }
    print(
        "mustache benchmark: tweet card, \(buffer.count) bytes, \(String(format: "%.2f", best / 1000)) µs per render (best of 3 × \(renders))"
    )
    #expect(buffer.count > 900)
}
