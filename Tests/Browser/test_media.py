"""SPEC 9: a mirrored build of the sample opens from file:// with every picture shown and no
request leaving the page's folder; an image that fails to load shows the placeholder, never
the browser's broken-image sign; --media none names no remote image.

The sample's pictures are on the internet, so the test builds a copy of the store whose
pictures (and two caption images) are on a local server (scripts/picture_server.py)."""

import glob
import json
import os
import re
import shutil
import sys
import tempfile
import time
import unittest

from roost_browser import REPOSITORY, build, chrome, file_url, requested_urls

sys.path.insert(0, os.path.join(REPOSITORY, "scripts"))
import picture_server  # noqa: E402

# Every <img> of the page, once lazy ones are told to load now: src, natural width, placeholder.
IMAGES = """
const done = arguments[arguments.length - 1];
const images = [...document.images];
images.forEach(i => { i.loading = "eager"; });
const settled = images.map(i => i.complete ? Promise.resolve() : new Promise(r => {
    i.addEventListener("load", r, {once: true}); i.addEventListener("error", r, {once: true}); }));
Promise.all(settled).then(() => setTimeout(() => done(images.map(i => ({
    src: i.currentSrc || i.src, width: i.naturalWidth, placeholder: i.hasAttribute("data-placeholder"),
    alt: i.alt, caption: !!i.closest(".caption")}))), 300));
"""


def make_store(base):
    """A copy of the sample store whose users' pictures are BASE/N.png, plus a tweet with a
    caption image on the server and one that is not there (a 404)."""
    work = tempfile.mkdtemp(prefix="roost-media-")
    unittest.addModuleCleanup(shutil.rmtree, work, ignore_errors=True)
    store = os.path.join(work, "store")
    shutil.copytree(os.path.join(REPOSITORY, "content"), store)
    users = sorted(glob.glob(os.path.join(store, "users", "*.json")))
    for n, path in enumerate(users):
        with open(path, encoding="utf-8") as file:
            user = json.load(file)
        if str(user.get("profileImageUrl", "")).startswith("http"):
            user["profileImageUrl"] = f"{base}/{n}.png"
        with open(path, "w", encoding="utf-8") as file:
            json.dump(user, file, ensure_ascii=False)
    author = os.path.splitext(os.path.basename(users[0]))[0]
    with open(os.path.join(store, "tweets", "mediaTestTweet.json"), "w", encoding="utf-8") as file:
        json.dump({"caption": f"Two pictures: ![a green square]({base}/900.png) and ![a lost one]({base}/gone.png)",
                   "timestamp": "2030-01-01T00:00:00Z", "uid": author}, file)
    return work, store


class MirroredSiteTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        server, base = picture_server.start()
        cls.base = base
        cls.work, store = make_store(base)
        cache = os.path.join(cls.work, "cache")
        # The picture server is on this machine: allowed on purpose (SPEC 9).
        cls.site = build(store, "--media", "mirror", "--media-allow", "127.0.0.1/32", "--cache", cache)
        cls.none = build(store, "--media", "none")
        server.shutdown()  # from here on, a request to it would fail: the site must not need it
        server.server_close()
        cls.driver = chrome(network_log=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def open(self, site, page):
        requested_urls(self.driver)  # (what earlier pages asked for)
        self.driver.get(file_url(site, page))
        return self.driver.execute_async_script(IMAGES)

    def assert_local(self, site, urls, page):
        folder = file_url(site).rstrip("/") + "/"
        outside = [url for url in urls if not url.startswith(folder)]
        self.assertEqual(outside, [], f"{page}: requests leaving {folder}")

    def test_every_picture_shows_from_file_and_nothing_leaves_the_folder(self):
        pages = ["index.html", "t/mediaTestTweet/index.html"]
        pages += [os.path.relpath(p, self.site) for p in sorted(glob.glob(os.path.join(self.site, "u", "*", "index.html")))[:3]]
        mirrored, requested = 0, []
        for page in pages:
            images = self.open(self.site, page)
            self.assertTrue(images, page)
            for image in images:
                self.assertGreater(image["width"], 0, f"{page}: {image} is not shown")
            self.assert_local(self.site, [i["src"] for i in images], page)
            resources = [url for url in requested_urls(self.driver) if not url.startswith("data:")]
            self.assert_local(self.site, resources, page)
            requested += resources
            mirrored += len([i for i in images if "/media/" in i["src"]])
            self.assertFalse([i for i in images if i["placeholder"]], f"{page}: a picture failed to load")
        self.assertGreater(mirrored, 10, "the pages show mirrored pictures")
        self.assertTrue([r for r in requested if "/media/" in r], "the browser reports the pictures it loaded")

    def test_caption_images_are_pictures_with_their_alt_text(self):
        images = [i for i in self.open(self.site, "t/mediaTestTweet/index.html") if i["caption"]]
        by_alt = {i["alt"]: i for i in images}
        self.assertIn("/media/", by_alt["a green square"]["src"])
        self.assertTrue(by_alt["a lost one"]["src"].endswith("/static/picture.svg"), "not mirrored: the placeholder")
        self.assertGreater(by_alt["a lost one"]["width"], 0)

    def test_a_picture_that_fails_to_load_shows_the_placeholder(self):
        broken = tempfile.mkdtemp(prefix="roost-broken-")
        self.addCleanup(shutil.rmtree, broken, ignore_errors=True)
        shutil.copytree(self.site, broken, dirs_exist_ok=True)
        shutil.rmtree(os.path.join(broken, "media"))  # a copied site that lost its pictures
        images = self.open(broken, "index.html")
        avatars = [i for i in images if not i["caption"]]
        self.assertTrue([i for i in avatars if i["placeholder"]], "media.js swapped the missing pictures")
        for image in avatars:
            self.assertTrue(image["src"].endswith("/static/avatar.svg"), image)
            self.assertGreater(image["width"], 0, "the placeholder itself is shown")

    def test_no_page_names_a_remote_image(self):
        remote_image = re.compile(r"<img[^>]*\ssrc=\"[a-z]+://", re.I)
        for site in (self.site, self.none):
            for path in glob.glob(os.path.join(site, "**", "*.html"), recursive=True):
                with open(path, encoding="utf-8") as file:
                    text = file.read()
                self.assertNotRegex(text, remote_image, path)
                self.assertNotIn("127.0.0.1", text, path)
                self.assertIn("img-src 'self' data:;", text, path)

    def test_none_shows_placeholders_everywhere(self):
        images = self.open(self.none, "t/mediaTestTweet/index.html")
        for image in images:
            self.assertRegex(image["src"], r"/static/(avatar|picture)\.svg$")
            self.assertGreater(image["width"], 0)


if __name__ == "__main__":
    unittest.main()
