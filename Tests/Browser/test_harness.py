"""The harness itself: a sample build opens from file:// and over HTTP under a sub-path."""

import os
import unittest

from roost_browser import REPOSITORY, SiteServer, build, chrome, file_url


class HarnessTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.site = build(os.path.join(REPOSITORY, "content"), "--base-url", "/sub/")
        cls.driver = chrome()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def test_the_feed_opens_from_file(self):
        self.driver.get(file_url(self.site, "index.html"))
        self.assertTrue(self.driver.find_elements("css selector", "[data-tweet-id]"))

    def test_the_feed_opens_over_http_under_a_sub_path(self):
        server = SiteServer(self.site, "/sub/")
        self.addCleanup(server.stop)
        self.driver.get(server.url)
        self.assertTrue(self.driver.find_elements("css selector", "[data-tweet-id]"))
        self.assertTrue(self.driver.execute_script(
            "return [...document.styleSheets].some(s => s.cssRules.length > 0)"), "style.css loaded")


if __name__ == "__main__":
    unittest.main()
