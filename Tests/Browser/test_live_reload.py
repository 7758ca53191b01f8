"""`roost serve`'s live reload in a real browser: an open page reloads when something it shows
or loaded changed, and only then (a caption edited elsewhere changes the search's index, which
only the search page loads)."""

import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.request

import firestore_emulator
from roost_browser import REPOSITORY, ROOST, chrome

TWEET = "0YFCIsYrzaxRdPpOUAoR"  # its page, /t/TWEET/
OTHER = "2ka14XtBQ6RbXTryUDF9"  # a tweet not on that page


class LiveReloadTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="roost-live-")
        shutil.copytree(os.path.join(REPOSITORY, "content"), os.path.join(cls.folder, "store"))
        shutil.copytree(os.path.join(REPOSITORY, "templates"), os.path.join(cls.folder, "theme"))
        cls.log = open(os.path.join(cls.folder, "serve.log"), "w")
        cls.port = firestore_emulator.free_port()
        cls.url = f"http://127.0.0.1:{cls.port}/"
        cls.process = subprocess.Popen(
            [ROOST, "serve", "--store", os.path.join(cls.folder, "store"), "--templates",
             os.path.join(cls.folder, "theme"), "--host", "127.0.0.1", "--port", str(cls.port)],
            stdin=subprocess.DEVNULL, stdout=cls.log, stderr=subprocess.STDOUT,
            preexec_fn=firestore_emulator.die_with_parent)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(cls.url, timeout=2):
                    break
            except OSError:
                time.sleep(0.1)
        cls.driver = chrome()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        firestore_emulator.stop_process(cls.process)
        cls.log.close()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def edit_caption(self, tweet, word):
        path = os.path.join(self.folder, "store", "tweets", f"{tweet}.json")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace('"caption": "', f'"caption": "{word} ', 1))

    def open_marked(self, page):
        self.driver.get(self.url + page)
        self.driver.execute_script("window.roostMarker = 1")

    def reloaded(self, within=5.0):
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.driver.execute_script("return window.roostMarker") != 1:
                return True
            time.sleep(0.1)
        return False

    def test_a_page_reloads_for_what_it_shows_and_what_it_loaded_only(self):
        self.open_marked(f"t/{TWEET}/")
        # Another tweet's caption: its page, the lists it is in, and the search's index change.
        self.edit_caption(OTHER, "Elsewhere")
        self.assertFalse(self.reloaded(within=3), "an edit this page does not show reloaded it")
        self.edit_caption(TWEET, "Here")
        self.assertTrue(self.reloaded(), "the tweet's own page did not reload")
        self.assertIn("Here", self.driver.find_element("css selector", "main").text)
        # The stylesheet every page loads.
        self.driver.execute_script("window.roostMarker = 1")
        with open(os.path.join(self.folder, "theme", "static", "style.css"), "a", encoding="utf-8") as f:
            f.write("\n/* edited */\n")
        self.assertTrue(self.reloaded(), "an edited stylesheet did not reload the page")


if __name__ == "__main__":
    unittest.main()
