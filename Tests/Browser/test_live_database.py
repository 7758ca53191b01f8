"""Following the database (SPEC 11) in a real browser: `roost serve --store firestore://P` on the
Firestore emulator, a page open in headless Chromium, and the app (Google's Python client,
Tests/FirestoreApp/app.py) writing: the open page shows the write by itself, without a click
or a navigation; when the emulator goes away, the page shows the error overlay.

Needs java and the emulator's jar (see firestore_emulator.py), the test venv's
google-cloud-firestore (.build/test-venv, `make test-deps`), Chromium and selenium. Without
one of them the tests are skipped with a "SKIPPED: ..." message on standard error;
ROOST_REQUIRE_EMULATOR=1 (as in .ci/run) makes that a failure."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

import firestore_emulator
from roost_browser import CHROMEDRIVER, CHROMIUM, REPOSITORY, ROOST, chrome

CONTENT = os.path.join(REPOSITORY, "content")
TEMPLATES = os.path.join(REPOSITORY, "templates")
VENV_PYTHON = os.path.join(REPOSITORY, ".build", "test-venv", "bin", "python3")
APP = os.path.join(REPOSITORY, "Tests", "FirestoreApp", "app.py")
USER = "Yw0vbDbtYhNQ5CALWtprSLbJLAfl"
SHOW_TIMEOUT = 15  # seconds from the write to the page showing it
OVERLAY_TIMEOUT = 10  # seconds from the emulator's end to the page's overlay


def what_is_missing():
    """Phrases naming what these tests need and do not have (empty: they can run)."""
    found = list(firestore_emulator.missing())
    if not os.access(VENV_PYTHON, os.X_OK):
        found.append(f"the test venv's python ({os.path.relpath(VENV_PYTHON, REPOSITORY)}: make test-deps)")
    elif subprocess.run([VENV_PYTHON, "-c", "import google.cloud.firestore"], capture_output=True).returncode != 0:
        found.append("google-cloud-firestore in the test venv (make test-deps)")
    if not os.access(CHROMIUM, os.X_OK):
        found.append(f"Chromium ({CHROMIUM})")
    if not os.access(CHROMEDRIVER, os.X_OK):
        found.append(f"chromedriver ({CHROMEDRIVER})")
    try:
        import selenium  # noqa: F401
    except ImportError:
        found.append("selenium (pip install selenium: scripts/install-deps)")
    if not os.access(ROOST, os.X_OK):
        found.append(f"the roost binary ({ROOST})")
    return found


def require_everything():
    missing = what_is_missing()
    if not missing:
        return
    message = (f"SKIPPED: test_live_database: {' and '.join(missing)} not found. {firestore_emulator.HOW_TO_GET_IT} "
               "(ROOST_REQUIRE_EMULATOR=1 makes their absence a failure, as in .ci/run.)")
    if firestore_emulator.REQUIRED:
        raise AssertionError("ROOST_REQUIRE_EMULATOR=1, but " + message[len("SKIPPED: "):])
    print("\n" + "!" * 8 + " " + message, file=sys.stderr, flush=True)
    raise unittest.SkipTest(message)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class RoostServer:
    """`roost serve --store firestore://PROJECT` on a free 127.0.0.1 port, stopped by its process ID."""

    def __init__(self, project, env, attempts=3):
        self.output_file = tempfile.NamedTemporaryFile(prefix="roost-serve-", suffix=".log", delete=False)
        self.output_file.close()
        failure = ""
        for _ in range(attempts):  # another process may take the free port before roost binds it
            self.port = firestore_emulator.free_port()
            self.url = f"http://127.0.0.1:{self.port}/"
            with open(self.output_file.name, "w") as log:
                self.process = subprocess.Popen(
                    [ROOST, "serve", "--store", f"firestore://{project}", "--templates", TEMPLATES,
                     "--host", "127.0.0.1", "--port", str(self.port)],
                    env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    cwd=tempfile.gettempdir(), preexec_fn=firestore_emulator.die_with_parent)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    with urllib.request.urlopen(self.url, timeout=2) as response:
                        if response.status == 200:
                            return
                except OSError:
                    time.sleep(0.1)
            failure = self.output()
            self.stop()
            if "in use" not in failure:
                break
        os.unlink(self.output_file.name)
        raise AssertionError(f"roost serve did not answer {self.url}:\n{failure}")

    def output(self):
        with open(self.output_file.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def running(self):
        return self.process is not None and self.process.poll() is None

    def stop(self):
        process, self.process = self.process, None
        firestore_emulator.stop_process(process)

    def close(self):
        self.stop()
        try:
            os.unlink(self.output_file.name)
        except OSError:
            pass


def page_state(driver, script, *arguments):
    """`script`'s value on the page, or None while the page is between two loads."""
    from selenium.common.exceptions import WebDriverException
    try:
        return driver.execute_script(script, *arguments)
    except WebDriverException:
        return None


LIKES_STATE = """
const tweet = arguments[0];
const tab = document.querySelector('nav.tabs a[aria-current="page"] .tab-count');
const card = document.querySelector('article.card[data-tweet-id="' + tweet + '"]');
const permalink = card && card.querySelector('a.permalink');
return {
  ready: document.readyState === 'complete',
  count: tab ? Number(tab.textContent.trim()) : null,
  card: !!card,
  permalink: permalink ? new URL(permalink.href).pathname : null,  // resolved against <base>
  marker: window.__roostTestMarker === true,
};
"""


class LiveDatabaseTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_everything()
        cls.handle = read_json(os.path.join(CONTENT, "users", USER + ".json"))["username"].lower()
        liked = {name[: -len(".json")] for name in os.listdir(os.path.join(CONTENT, "users", USER, "user-likes"))
                 if name.endswith(".json")}
        tweets = sorted(name[: -len(".json")] for name in os.listdir(os.path.join(CONTENT, "tweets"))
                        if name.endswith(".json"))
        cls.unliked = [t for t in tweets if t not in liked]
        cls.liked_count = len(liked)

    def setUp(self):
        # A copy of the sample store (content/ stays as it is), an emulator and a project of this test's own.
        self.folder = tempfile.mkdtemp(prefix="roost-live-")
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        self.store = os.path.join(self.folder, "content")
        shutil.copytree(CONTENT, self.store)
        self.emulator = firestore_emulator.Emulator()
        self.addCleanup(self.emulator.close)
        self.project = f"live-{os.getpid()}-{int(time.time() * 1000) % 100000}"
        self.env = dict(os.environ, FIRESTORE_EMULATOR_HOST=self.emulator.host)
        self.env.pop("GOOGLE_APPLICATION_CREDENTIALS", None)
        self.app("load", self.store)
        self.server = RoostServer(self.project, self.env)
        self.addCleanup(self.server.close)
        self.driver = chrome()
        self.addCleanup(self.driver.quit)

    def app(self, *arguments):
        result = subprocess.run([VENV_PYTHON, APP, "--project", self.project, *arguments], env=self.env,
                                capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise AssertionError(f"app.py {' '.join(arguments)} exited {result.returncode}:\n{result.stderr}")
        return result.stdout

    def open_likes(self):
        url = f"{self.server.url}u/{self.handle}/likes/"
        self.driver.get(url)
        state = page_state(self.driver, LIKES_STATE, "")
        self.assertIsNotNone(state, url)
        self.assertIsNotNone(state["count"], f"no current tab with a .tab-count on {url}")
        # Whether the page was reloaded (by the live-reload script) or changed in place, the test
        # itself never touches it again after this.
        self.driver.execute_script("window.__roostTestMarker = true;")
        return url, state

    def diagnosis(self):
        return f"\n--- roost serve said:\n{self.server.output()}\n--- the emulator's log (tail):\n" \
               f"{self.emulator.output()[-2000:]}"

    def test_a_like_shows_on_the_open_likes_tab(self):
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait

        self.assertTrue(self.unliked, "every tweet of the sample store is liked by the user already")
        tweet = self.unliked[0]
        url, before = self.open_likes()
        self.assertEqual(before["count"], self.liked_count, f"the Likes tab's count on {url}")
        self.assertFalse(page_state(self.driver, LIKES_STATE, tweet)["card"],
                         f"{tweet} is on {url} before the like")

        self.app("like", USER, tweet)
        written = time.monotonic()

        def shows_the_like(driver):
            state = page_state(driver, LIKES_STATE, tweet)
            if not state or not state["ready"]:
                return False
            if state["card"] and state["count"] == before["count"] + 1:
                return state
            return False

        try:
            state = WebDriverWait(self.driver, SHOW_TIMEOUT, poll_frequency=0.05).until(shows_the_like)
        except TimeoutException:
            self.fail(f"{url} did not show the like of {tweet} (card and Likes count "
                      f"{before['count']} + 1) within {SHOW_TIMEOUT} s; the page shows "
                      f"{page_state(self.driver, LIKES_STATE, tweet)}" + self.diagnosis())
        elapsed = time.monotonic() - written
        self.assertIsNotNone(state["permalink"], f"the card of {tweet} has no a.permalink")
        self.assertIn(state["permalink"], (f"/t/{tweet}/", f"/t/{tweet}/index.html"),
                      f"the card's permalink does not name the tweet's page t/{tweet}/")
        self.assertEqual(self.driver.current_url, url, "the page navigated away")
        self.assertTrue(self.server.running(), "roost serve exited" + self.diagnosis())
        print(f"\n  like of {tweet} shown {elapsed * 1000:.0f} ms after the app's commit "
              f"({'in place' if state['marker'] else 'by a reload'})", file=sys.stderr)

    def test_b_the_emulator_stopping_shows_the_error_overlay(self):
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait

        url, _ = self.open_likes()
        self.assertIsNone(self.driver.execute_script(
            "return document.getElementById('roost-error-overlay');"), f"an error overlay on {url} already")
        self.emulator.stop()
        stopped = time.monotonic()

        def overlay(driver):
            text = page_state(driver, "const box = document.getElementById('roost-error-overlay');"
                                      "return box ? box.textContent : null;")
            return text or False

        try:
            text = WebDriverWait(self.driver, OVERLAY_TIMEOUT, poll_frequency=0.05).until(overlay)
        except TimeoutException:
            self.fail(f"{url} showed no #roost-error-overlay within {OVERLAY_TIMEOUT} s of the emulator's end"
                      + self.diagnosis())
        elapsed = time.monotonic() - stopped
        self.assertTrue(text.strip(), "the overlay is empty")
        # SPEC 11: the page says that the data is stale and that Roost is retrying.
        title = self.driver.execute_script(
            "return document.querySelector('#roost-error-overlay strong').textContent;")
        self.assertEqual(title, "Not up to date")
        self.assertIn("reconnecting", text)
        self.assertIn("as it was", text)
        self.assertEqual(self.driver.current_url, url, "the page navigated away")
        # SPEC 11: the server never exits for it, and keeps serving the pages it has.
        time.sleep(0.5)
        self.assertTrue(self.server.running(), "roost serve exited when the emulator stopped" + self.diagnosis())
        with urllib.request.urlopen(url, timeout=5) as response:
            self.assertEqual(response.status, 200)
        print(f"\n  overlay shown {elapsed * 1000:.0f} ms after the emulator's end: "
              f"{' '.join(text.split())[:200]!r}", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
