"""404.html is styled, and its scripts run, wherever it is opened: from file://, where its
<base> (the base URL) names the filesystem's root, and at any URL of a server. Its stylesheet
is in the page; from file://, a script in the page makes the page's own folder its base before
anything else is read. Both are allowed by their hashes in its Content-Security-Policy."""

import os
import unittest

from roost_browser import REPOSITORY, SiteServer, build, chrome, file_url, requested_urls

SCRIPTS = ("static/time.js", "static/media.js", "static/fragment-links.js")

STYLED = "return getComputedStyle(document.querySelector('.site-header')).borderBottomStyle"


class NotFoundPageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.site = build(os.path.join(REPOSITORY, "content"))
        cls.driver = chrome(network_log=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def assert_styled(self):
        self.assertNotEqual(self.driver.execute_script(STYLED), "none", "the header has the theme's border")
        errors = [entry["message"] for entry in self.driver.get_log("browser")
                  if "Content Security Policy" in entry["message"] and "style" in entry["message"]]
        self.assertEqual(errors, [], "no style refused by the page's CSP")

    def test_styled_from_file(self):
        self.driver.get(file_url(self.site, "404.html"))
        self.assert_styled()

    def test_styled_at_a_missing_url_of_a_server(self):
        server = SiteServer(self.site, "/")
        self.addCleanup(server.stop)
        self.driver.get(server.url + "404.html")
        self.assert_styled()

    def assert_scripts_ran(self, site_url, page_url):
        """Every script of the layout was asked for in the site, and ran: the skip link ("#main",
        which <base> would send to the site's root) keeps to the page, as fragment-links.js
        makes it, and an image that fails gets the placeholder (media.js). Links and the icon
        resolve in the site too. No error in the console: no refused script, no file not found."""
        requested = requested_urls(self.driver)
        for script in SCRIPTS:
            self.assertIn(site_url + script, requested, "%s asked for in the site" % script)
        self.assertEqual([url for url in requested if not url.startswith(site_url)], [], "nothing outside the site")
        home = self.driver.execute_script("return document.querySelector('a.site-title').href")
        self.assertEqual(home, site_url + "index.html")
        # (The skip link shows only when focused: clicked by a script, as a keyboard would.)
        self.driver.execute_script("document.querySelector('a.skip-link').click()")
        self.assertEqual(self.driver.current_url, page_url + "#main", "the skip link kept to the page")
        self.assertEqual(self.driver.execute_script("return document.activeElement.id"), "main")
        placeholder = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const img = document.createElement('img'); img.className = 'avatar'; img.alt = '';"
            "img.src = 'static/no-such-picture.png'; document.body.append(img);"
            "setTimeout(() => done(img.getAttribute('src')), 500);")
        self.assertEqual(placeholder, "static/avatar.svg", "media.js put the placeholder in")
        errors = [entry["message"] for entry in self.driver.get_log("browser")
                  if entry["level"] == "SEVERE" and "no-such-picture" not in entry["message"]
                  and not entry["message"].startswith(page_url + " ")]
        self.assertEqual(errors, [], "no error in the console")

    def test_scripts_run_from_file(self):
        page = file_url(self.site, "404.html")
        self.driver.get_log("browser")
        requested_urls(self.driver)
        self.driver.get(page)
        self.assertEqual(self.driver.execute_script("return document.baseURI"), file_url(self.site))
        self.assert_styled()
        self.assert_scripts_ran(file_url(self.site), page)

    def test_scripts_run_at_a_deep_missing_url_of_a_server(self):
        site = build(os.path.join(REPOSITORY, "content"), "--base-url", "/sub/")
        server = SiteServer(site, "/sub/", not_found_page=True)
        self.addCleanup(server.stop)
        page = server.url + "no/such/page/"
        self.driver.get_log("browser")
        requested_urls(self.driver)
        self.driver.get(page)
        self.assertEqual(self.driver.execute_script("return document.baseURI"), server.url, "the base URL")
        self.assert_styled()
        self.assert_scripts_ran(server.url, page)

    def test_other_pages_link_the_stylesheet(self):
        with open(os.path.join(self.site, "index.html"), encoding="utf-8") as file:
            page = file.read()
        self.assertIn('<link rel="stylesheet" href="static/style.css">', page)
        self.assertNotIn("<style>", page)
        self.assertNotIn("<script>", page, "no inline script but on 404.html")
        self.assertIn('<link rel="icon" href="static/favicon.svg" type="image/svg+xml">', page)


if __name__ == "__main__":
    unittest.main()
