"""Search (SPEC 8) in a real browser: the results a query shows, in order, against what this
file computes from the store by SPEC 8's rules, from file:// and over HTTP under /sub/, on the
sample store and on a generated one.

The store's JSON gives the structure (authors, times, replies, names); a caption's plain text,
hashtags and mentions are Markdown, so they are read from the built tweet pages' cards (the
caption's text as shown, the links the renderer made of #tags and @mentions): Python has no
CommonMark parser here, and the card's text is the caption's plain text by definition."""

import datetime
import glob
import html.parser
import json
import os
import re
import tempfile
import time
import unicodedata
import unittest
import urllib.parse

from roost_browser import (REPOSITORY, SiteServer, axe_violations, build, chrome, describe,
                           file_url, roost)

PAGE_SIZE = 20
MAX_USERS = 5


# ---- SPEC 8's rules, written again from the SPEC ----

def fold(text):
    text = unicodedata.normalize("NFC", text)
    text = "".join("\u03c3" if c == "\u03c2" else c.lower() for c in text)
    return unicodedata.normalize("NFC", text)


def is_word_char(c):
    return c == "_" or unicodedata.category(c)[0] in "LMN"


def words(text):
    found, word = [], ""
    for c in fold(text):
        if is_word_char(c):
            word += c
        else:
            if word:
                found.append(word)
            word = ""
    if word:
        found.append(word)
    return found


def timestamp(value):
    """Seconds (float) of the store's timestamp forms that the stores in these tests use."""
    if isinstance(value, str):
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    if isinstance(value, (int, float)):
        return float(value)
    if "__datatype__" in value:
        return timestamp(value["value"])
    seconds = value.get("_seconds", value.get("seconds"))
    nanos = value.get("_nanoseconds", value.get("nanoseconds", 0))
    return seconds + nanos / 1e9


class CardReader(html.parser.HTMLParser):
    """From a tweet page: per card (data-tweet-id), the caption's text, #tags and @mentions."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cards = {}
        self.current = None
        self.depth = 0
        self.link = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article" and "data-tweet-id" in attrs:
            self.current = self.cards.setdefault(
                attrs["data-tweet-id"], {"text": "", "tags": [], "mentions": [], "profile": ""})
        if self.current is not None and tag == "a" and attrs.get("class") == "author-link":
            self.current["profile"] = attrs["href"].split("/")[1]
        if self.current is not None and tag == "div" and "e-content" in attrs.get("class", ""):
            self.depth = 1
            self.current["text"] = ""
            self.current["tags"] = []
            self.current["mentions"] = []
        elif self.depth:
            if tag not in ("br", "hr", "img"):
                self.depth += 1
            if tag == "a":
                self.link = [attrs.get("class", ""), ""]
            if tag in ("p", "li", "br", "pre", "blockquote", "hr"):
                self.current["text"] += " "

    def handle_endtag(self, tag):
        if self.depth:
            if tag == "a" and self.link:
                kind, text = self.link
                if kind == "hashtag":
                    self.current["tags"].append(fold(text[1:]))
                elif kind == "mention":
                    self.current["mentions"].append(fold(text[1:]))
                self.link = None
            self.depth -= 1
            if self.depth == 0:
                self.current = None
            else:
                self.current["text"] += " " if tag in ("p", "li", "pre", "blockquote") else ""

    def handle_data(self, data):
        if self.depth:
            self.current["text"] += data
            if self.link:
                self.link[1] += data


def read_site_store(store, site):
    """Tweets (newest first, ties by ID) and users (by uid), with what search compares."""
    users = {}
    for path in sorted(glob.glob(os.path.join(store, "users", "*.json"))):
        uid = os.path.basename(path)[:-5]
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        name = doc.get("fullname", doc.get("fullName", doc["username"]))
        users[uid] = {"uid": uid, "username": doc["username"], "name": name}
    # Handles (SPEC 3): the lowercased username where it is a plain unique one; others are
    # derived from the uid, and read from the author links of the user's cards below.
    for uid, user in users.items():
        lowered = user["username"].lower()
        clash = sum(1 for u in users.values() if u["username"].lower() == lowered) > 1
        user["handle"] = lowered if re.fullmatch(r"[A-Za-z0-9_]{1,30}", user["username"]) and not clash else ""
    documents = {}
    for path in glob.glob(os.path.join(store, "tweets", "*.json")):
        with open(path, encoding="utf-8") as f:
            documents[os.path.basename(path)[:-5]] = json.load(f)
    cards = {}
    for tweet_id, doc in documents.items():
        reader = CardReader()
        with open(os.path.join(site, "t", tweet_id, "index.html"), encoding="utf-8") as f:
            reader.feed(f.read())
        cards[tweet_id] = reader.cards[tweet_id]
        if doc["uid"] in users and reader.cards[tweet_id]["profile"]:
            users[doc["uid"]]["handle"] = reader.cards[tweet_id]["profile"]
    for user in users.values():
        user["words"] = set(words(user["name"]) + words(user["username"]) + words(user["handle"]))
    tweets = []
    for tweet_id, doc in documents.items():
        card = cards[tweet_id]
        author = users.get(doc["uid"])
        tweets.append({
            "id": tweet_id, "time": timestamp(doc["timestamp"]), "reply": "replyTo" in doc,
            "author": author, "words": set(words(card["text"])) | (author["words"] if author else set()),
            "tags": set(card["tags"]), "mentions": set(card["mentions"]),
        })
    tweets.sort(key=lambda t: t["id"])
    tweets.sort(key=lambda t: -t["time"])
    return tweets, [users[uid] for uid in sorted(users)]


def expected(query, tweets, users):
    """The tweet IDs (all pages) and usernames SPEC 8 gives for `query`."""
    terms, conditions = [], []
    for token in query.split():
        lower = token.lower()
        m = re.fullmatch(r"(since|until):(\d{4})-(\d{2})-(\d{2})", token, re.IGNORECASE)
        if lower == "is:reply":
            conditions.append(lambda t: t["reply"])
        elif lower == "-is:reply":
            conditions.append(lambda t: not t["reply"])
        elif lower.startswith("from:") and len(token) > 5:
            name = fold(token[5:])
            conditions.append(lambda t, n=name: t["author"] is not None and n in (
                fold(t["author"]["username"]), t["author"]["handle"]))
        elif token.startswith("@") and len(token) > 1:
            conditions.append(lambda t, n=fold(token[1:]): n in t["mentions"])
        elif token.startswith("#") and len(token) > 1:
            conditions.append(lambda t, n=fold(token[1:]): n in t["tags"])
        elif m:
            day = datetime.datetime(int(m[2]), int(m[3]), int(m[4]), tzinfo=datetime.timezone.utc).timestamp()
            if m[1].lower() == "since":
                conditions.append(lambda t, d=day: t["time"] >= d)
            else:
                conditions.append(lambda t, d=day: t["time"] < d)
        else:
            terms += words(token)
    for term in terms:
        conditions.append(lambda t, w=term: any(x.startswith(w) for x in t["words"]))
    ids = [t["id"] for t in tweets if all(c(t) for c in conditions)]
    people = []
    if terms:
        people = [u["username"] for u in users
                  if all(any(x.startswith(w) for x in u["words"]) for w in terms)][:MAX_USERS]
    return ids, people


# ---- The browser side ----

def results(driver, timeout=10):
    """Waits for the search to finish; returns (tweet IDs shown, usernames shown, count, status)."""
    end = time.time() + timeout
    while time.time() < end:
        # (Null until the search page is there: a form sent from another page may not have
        # navigated yet.)
        state = driver.execute_script("""
            var status = document.getElementById('search-status');
            var results = document.getElementById('search-results');
            var words = document.querySelector('#search-words');
            if (!status || !results || !words) return null;
            return [status.textContent, results.getAttribute('data-count'),
                    [...results.querySelectorAll('[data-tweet-id]')].map(e => e.getAttribute('data-tweet-id')),
                    [...document.querySelectorAll('#search-users .handle')].map(e => e.textContent.slice(1)),
                    words.content.querySelector('[data-key=loading]').textContent];""")
        if state is not None:
            status, count, ids, people, loading = state
            if status and status != loading:
                return ids, people, int(count) if count is not None else 0, status
        time.sleep(0.05)
    raise AssertionError("the search did not finish")


class SearchTests:
    """Runs against `cls.site` (built with --base-url /sub/) from file:// and over HTTP."""

    queries = []

    @classmethod
    def setUpClass(cls):
        cls.tweets, cls.users = read_site_store(cls.store, cls.site)
        cls.driver = chrome()
        cls.server = SiteServer(cls.site, "/sub/")

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()

    def open(self, base, query, page=1):
        url = base + "?q=" + urllib.parse.quote(query) + (f"&page={page}" if page > 1 else "")
        self.driver.get(url)
        return results(self.driver)

    def bases(self):
        return [("file", file_url(self.site, "search/index.html")), ("http", self.server.url + "search/index.html")]

    def check(self, base, query, page=1):
        ids, people = expected(query, self.tweets, self.users)
        shown, shown_people, count, status = self.open(base, query, page)
        self.assertEqual(shown, ids[(page - 1) * PAGE_SIZE:page * PAGE_SIZE], f"{query!r} page {page}")
        self.assertEqual(count, len(ids), f"{query!r}: the count")
        self.assertEqual(shown_people, people, f"{query!r}: the users")
        if not ids:
            self.assertIn(query, status, "the no-match message names the query")
        return ids

    def test_queries_match_the_spec_from_file_and_over_http(self):
        self.assertTrue(self.queries)
        for name, base in self.bases():
            for query in self.queries:
                with self.subTest(query=query, where=name):
                    self.check(base, query)

    def test_paging_and_the_back_button(self):
        query = self.paged_query
        ids, _ = expected(query, self.tweets, self.users)
        self.assertGreater(len(ids), PAGE_SIZE, "the paged query has more than one page")
        for name, base in self.bases():
            with self.subTest(where=name):
                first, _, _, _ = self.open(base, query)
                self.assertEqual(first, ids[:PAGE_SIZE])
                self.driver.find_element("id", "search-older").click()
                second, _, _, _ = results(self.driver)
                if second == first:
                    time.sleep(0.3)
                    second, _, _, _ = results(self.driver)
                self.assertEqual(second, ids[PAGE_SIZE:2 * PAGE_SIZE])
                self.assertIn("page=2", self.driver.current_url)
                self.driver.back()
                time.sleep(0.3)
                back, _, _, _ = results(self.driver)
                self.assertEqual(back, ids[:PAGE_SIZE])
                self.assertNotIn("page=2", self.driver.current_url)

    def test_the_form_puts_the_query_in_the_address(self):
        for name, base in self.bases():
            with self.subTest(where=name):
                self.open(base, "")
                field = self.driver.find_element("id", "search-q")
                query = self.queries[0]
                field.send_keys(query)
                field.send_keys("\n")
                time.sleep(0.2)
                shown, _, _, _ = results(self.driver)
                self.assertEqual(shown, expected(query, self.tweets, self.users)[0][:PAGE_SIZE])
                self.assertEqual(urllib.parse.parse_qs(urllib.parse.urlsplit(self.driver.current_url).query)["q"],
                                 [query])


class SampleStoreSearch(SearchTests, unittest.TestCase):
    store = os.path.join(REPOSITORY, "content")
    queries = [
        "swift", "SwiftUI", "서울", "카", "파이어", "from:jiwoo_dev", "from:JIWOO_DEV is:reply", "-is:reply 서울",
        "#swiftui", "#SwiftUI -is:reply", "@jiwoo_dev", "since:2023-03-01 until:2023-04-01", "until:2023-03-05",
        "is:reply since:2023-05-01", "zzzqqq", "swift zzzqqq", "art", "jiwoo", "김", "https",
    ]
    paged_query = "-is:reply"

    @classmethod
    def setUpClass(cls):
        cls.site = build(cls.store, "--base-url", "/sub/")
        super().setUpClass()

    def test_the_header_box_is_a_plain_form_to_the_search_page(self):
        self.driver.get(file_url(self.site, "u/jiwoo_dev/index.html"))
        form = self.driver.find_element("css selector", "form.site-search")
        self.assertEqual(form.get_attribute("method"), "get")
        self.assertTrue(form.get_attribute("action").endswith("/search/index.html"))
        field = self.driver.find_element("id", "site-search-q")
        field.send_keys("서울\n")
        shown, _, _, _ = results(self.driver)
        self.assertEqual(shown, expected("서울", self.tweets, self.users)[0][:PAGE_SIZE])

    def test_without_javascript_the_page_says_so_and_links_tags(self):
        with open(os.path.join(self.site, "search", "index.html"), encoding="utf-8") as f:
            page = f.read()
        noscript = re.search(r"<noscript>(.*?)</noscript>", page, re.S)[1]
        self.assertIn("JavaScript", noscript)
        for link in re.findall(r'href="([^"]+)"', noscript):
            self.assertTrue(os.path.isfile(os.path.join(self.site, urllib.parse.unquote(link))), link)
        self.assertIn('href="tags/swiftui/index.html"', noscript)
        self.assertIn('href="tags/index.html"', noscript)
        self.assertIn('href="archive/index.html"', noscript)

    def test_results_are_accessible_and_announced(self):
        self.open(file_url(self.site, "search/index.html"), "swift")
        status = self.driver.find_element("id", "search-status")
        self.assertEqual(status.get_attribute("aria-live"), "polite")
        label = self.driver.find_element("css selector", "label[for=search-q]")
        self.assertTrue(label.text)
        violations = axe_violations(self.driver)
        self.assertEqual(violations, [], describe(violations))

    def test_cards_are_built_from_the_data_without_markup(self):
        self.open(file_url(self.site, "search/index.html"), "swiftui")
        card = self.driver.execute_script("""
            var card = document.querySelector('#search-results .h-entry');
            return [card.querySelector('.e-content a.hashtag') !== null, card.querySelector('.u-url.permalink').href,
                    card.querySelector('.p-author .p-name').textContent];""")
        self.assertTrue(card[0], "hashtag links kept")
        self.assertIn("/t/", card[1])
        self.assertTrue(card[2])


class ViewerSearch(unittest.TestCase):
    """With --viewer, result cards carry the viewer's hearts as the feed's cards do."""

    def test_result_cards_have_the_viewers_hearts(self):
        site = build(os.path.join(REPOSITORY, "content"), "--viewer", "jiwoo_dev")
        driver = chrome()
        self.addCleanup(driver.quit)
        driver.get(file_url(site, "search/index.html") + "?q=-is:reply")
        shown, _, _, _ = results(driver)
        liked = driver.execute_script(
            "return [...document.querySelectorAll('#search-results [data-liked=true]')]"
            ".filter(e => e.querySelector('.likes.is-liked')).map(e => e.getAttribute('data-tweet-id'))")
        with open(os.path.join(site, "index.html"), encoding="utf-8") as f:
            page = f.read()
        in_feed = set(re.findall(r'data-tweet-id="([^"]+)" data-likes="\d+" data-liked="true"', page))
        feed_ids = set(re.findall(r'data-tweet-id="([^"]+)"', page))
        self.assertTrue(liked, "some result is liked by the viewer")
        self.assertEqual({i for i in liked if i in feed_ids}, {i for i in in_feed if i in shown})


class GeneratedStoreSearch(SearchTests, unittest.TestCase):
    paged_query = "is:reply"

    @classmethod
    def setUpClass(cls):
        folder = tempfile.mkdtemp(prefix="roost-search-store-")
        unittest.addModuleCleanup(__import__("shutil").rmtree, folder, ignore_errors=True)
        cls.store = os.path.join(folder, "store")
        roost("generate", "--users", "40", "--tweets", "400", "--seed", "5", "--to", cls.store)
        cls.site = build(cls.store, "--base-url", "/sub/")
        super().setUpClass()
        # Queries from the store itself: a common Latin word and its prefix, a Hangul word's
        # first syllable, two words together, an author, a tag, a mention, a month.
        counts = {}
        for tweet in cls.tweets:
            for w in tweet["words"]:
                counts[w] = counts.get(w, 0) + 1
        common = sorted(counts, key=lambda w: (-counts[w], w))
        latin = [w for w in common if re.fullmatch(r"[a-z]{4,}", w)]
        hangul = [w for w in common if re.fullmatch(r"[\uac00-\ud7a3]{2,}", w)]
        tag = next(iter(sorted(t for tweet in cls.tweets for t in tweet["tags"])))
        mention = next(iter(sorted(m for tweet in cls.tweets for m in tweet["mentions"])))
        author = cls.tweets[0]["author"]["username"]
        cls.queries = [
            latin[0], latin[3][:3], hangul[0][:1], hangul[1], f"{latin[1]} {hangul[0][:1]}",
            f"{latin[0]} {latin[2]} -is:reply", f"from:{author}", f"#{tag}", f"@{mention}",
            "since:2023-06-01 until:2023-07-01", f"{latin[5]} since:2022-07-01", "qqqzzz",
        ]


if __name__ == "__main__":
    unittest.main()
