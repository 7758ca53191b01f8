"""404.html is styled wherever it is opened: from file://, where its <base> (the base URL)
names the filesystem's root, and at any URL of a server. Its stylesheet is in the page,
allowed by the hash in its Content-Security-Policy."""

import os
import unittest

from roost_browser import REPOSITORY, SiteServer, build, chrome, file_url

STYLED = "return getComputedStyle(document.querySelector('.site-header')).borderBottomStyle"


class NotFoundPageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.site = build(os.path.join(REPOSITORY, "content"))
        cls.driver = chrome()

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

    def test_other_pages_link_the_stylesheet(self):
        with open(os.path.join(self.site, "index.html"), encoding="utf-8") as file:
            page = file.read()
        self.assertIn('<link rel="stylesheet" href="static/style.css">', page)
        self.assertNotIn("<style>", page)
        self.assertIn('<link rel="icon" href="static/favicon.svg" type="image/svg+xml">', page)


if __name__ == "__main__":
    unittest.main()
