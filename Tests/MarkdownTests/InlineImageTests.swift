import Markdown
import Testing

/// Images shown as `<img>` (SPEC 9: `--media mirror` and `none`), and the images a scan finds.
@Suite struct InlineImages {
    /// "https://x/cat.png" has a copy of 4×3 pixels; every other URL gets the placeholder.
    let mirrored = MarkdownRenderer(
        mentionURL: { _ in nil }, tagURL: { _ in nil },
        image: { url in
            url == "https://x/cat.png"
                ? InlineImage(src: "media/ab.png", width: 4, height: 3) : InlineImage(src: "static/picture.svg")
        })

    @Test func anImageIsAnImgOfTheCopyWithItsAltTextAndSize() {
        #expect(
            mirrored.render("A ![*fat* cat & \"co\"](https://x/cat.png \"Mo\") sat")
                == "<p>A <img src=\"media/ab.png\" alt=\"fat cat &amp; &quot;co&quot;\" title=\"Mo\" loading=\"lazy\" "
                + "decoding=\"async\" width=\"4\" height=\"3\"> sat</p>\n")
    }

    @Test func oneWithoutACopyIsThePlaceholderAndNeverTheURL() {
        for url in ["https://x/gone.png", "javascript:alert(1)", "data:image/png;base64,AAAA", "rel.png"] {
            let out = mirrored.render("![alt](\(url))")
            #expect(out == "<p><img src=\"static/picture.svg\" alt=\"alt\" loading=\"lazy\" decoding=\"async\"></p>\n")
        }
    }

    @Test func insideALinkAndNested() {
        #expect(
            mirrored.render("[![a ![b](https://x/b.png) c](https://x/cat.png)](https://example.com)")
                == "<p><a href=\"https://example.com\" rel=\"nofollow ugc noopener\"><img src=\"media/ab.png\" "
                + "alt=\"a b c\" loading=\"lazy\" decoding=\"async\" width=\"4\" height=\"3\"></a></p>\n")
    }

    @Test func theScanFindsEveryImageWithItsAltText() {
        let found = HashtagsAndMentions.scanAll("#tag ![a *b*](u1) [x](link) ![](u2)\n\n![o ![i](u3)](u4)").images
        #expect(
            found == [
                MarkdownImage(url: "u1", alt: "a b"), MarkdownImage(url: "u2", alt: ""),
                MarkdownImage(url: "u3", alt: "i"), MarkdownImage(url: "u4", alt: "o i"),
            ])
    }
}
