"""axe-core over every kind of page, in light and dark, at desktop width and at 320 px: zero
violations of any impact (issue 15). To check a new kind of page, add it to PAGES."""

import os
import unittest

from roost_browser import REPOSITORY, SiteServer, axe_violations, build, chrome, describe

# One page of each kind in the sample site (content/), by the name a failure shows.
# Mina (u-7r3c…) has tweets, a reply, likes and a favorite place; UVYCDUeZd8imYXSicT9J sits in
# the middle of the sample's deepest conversation (two ancestors, replies two levels down).
MINA = "u/u-7r3cQoKmFdSv6gcsFLB74fSYZNG0/"
PAGES = [
    ("feed", "index.html"),
    ("feed page 2", "page/2/index.html"),
    ("profile tweets", MINA + "index.html"),
    ("profile replies", MINA + "replies/index.html"),
    ("profile likes", MINA + "likes/index.html"),
    ("favorites", MINA + "favorites/index.html"),
    ("favorites, several places", "u/u-DYIdgEPYXEAWk1sPYWAgmBbvdwAg/favorites/index.html"),
    ("tweet in a deep conversation", "t/UVYCDUeZd8imYXSicT9J/index.html"),
    ("tweet with a reply tree", "t/WCqiQ0eAaHAElUALakVQ/index.html"),
    ("tag", "tags/swiftui/index.html"),
    ("archive", "archive/index.html"),
    ("archive year", "archive/2023/index.html"),
    ("archive month", "archive/2023/05/index.html"),
    ("tags", "tags/index.html"),
    ("top", "top/index.html"),
    ("stats", "stats/index.html"),
    ("search", "search/index.html?q=swift"),
    ("404", "404.html"),
]

MODES = [
    ("light 1280", dict(width=1280, dark=False)),
    ("dark 1280", dict(width=1280, dark=True)),
    ("light 320", dict(width=320, dark=False)),
    ("dark 320", dict(width=320, dark=True)),
]


class AccessibilityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.site = build(os.path.join(REPOSITORY, "content"), "--base-url", "/sub/")
        cls.server = SiteServer(cls.site, "/sub/")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_every_page_kind_has_no_axe_violations(self):
        for mode, options in MODES:
            driver = chrome(**options)
            try:
                for name, path in PAGES:
                    with self.subTest(mode=mode, page=name):
                        self.assertTrue(os.path.exists(os.path.join(self.site, path.split("?")[0])), f"{path} was built")
                        driver.get(self.server.url + path)
                        violations = axe_violations(driver)
                        self.assertEqual(violations, [], f"{name} ({path}), {mode}:\n{describe(violations)}")
            finally:
                driver.quit()

    def test_the_skip_link_stays_on_the_page(self):
        driver = chrome()
        self.addCleanup(driver.quit)
        url = self.server.url + MINA  # a folder URL: where a link to …/index.html#main would reload
        driver.get(url)
        link = driver.find_element("css selector", ".skip-link")
        self.assertEqual(link.get_dom_attribute("href"), "#main")
        driver.execute_script("window.roostMarker = 1")
        link.send_keys("\n")
        self.assertEqual(driver.execute_script("return window.roostMarker"), 1, "the page was not reloaded")
        self.assertTrue(driver.current_url.startswith(url))
        self.assertEqual(driver.execute_script("return document.activeElement.id"), "main")

    def test_the_profile_tabs_fit_at_320_px(self):
        driver = chrome(width=320)
        self.addCleanup(driver.quit)
        driver.get(self.server.url + MINA + "index.html")
        tabs = driver.find_element("css selector", ".tabs ul")
        self.assertLessEqual(driver.execute_script("return arguments[0].scrollWidth - arguments[0].clientWidth", tabs), 0)
        for link in driver.find_elements("css selector", ".tabs a"):
            self.assertTrue(link.is_displayed())
            right = driver.execute_script("return arguments[0].getBoundingClientRect().right", link)
            self.assertLessEqual(right, 320)

    def test_a_map_point_goes_to_its_place_without_leaving_the_page(self):
        driver = chrome()
        self.addCleanup(driver.quit)
        url = self.server.url + "u/u-DYIdgEPYXEAWk1sPYWAgmBbvdwAg/favorites/"
        driver.get(url)
        driver.execute_script("window.roostMarker = 1")
        point = driver.find_element("css selector", "a.map-point[data-place-number='2']")
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, button: 0}))", point)
        self.assertEqual(driver.execute_script("return window.roostMarker"), 1, "the page was not reloaded")
        self.assertEqual(driver.execute_script("return document.activeElement.id"), "place-2")

    def test_a_place_jumped_to_lands_below_the_sticky_header(self):
        driver = chrome(height=600)
        self.addCleanup(driver.quit)
        driver.get(self.server.url + "u/u-DYIdgEPYXEAWk1sPYWAgmBbvdwAg/favorites/")
        for number in ("1", "2"):
            driver.execute_script("window.scrollTo(0, 0)")
            point = driver.find_element("css selector", f"a.map-point[data-place-number='{number}']")
            driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, button: 0}))", point)
            top = driver.execute_script(f"return document.getElementById('place-{number}').getBoundingClientRect().top")
            header = driver.execute_script("return document.querySelector('.site-header').getBoundingClientRect().bottom")
            self.assertGreaterEqual(top, header, f"place {number} is under the sticky header")


if __name__ == "__main__":
    unittest.main()
