#!/usr/bin/env python3
"""Following the emulator live (SPEC 11, `roost serve --store firestore://…`): how long from the
app's commit returning to the change showing in a page open in headless Chromium.

    scripts/bench live [sample|S|M]...      (default: sample S; WRITES=20 per kind)

Per size: its own emulator (the jar of the Google Cloud SDK, on a free 127.0.0.1 port, killed
by its process ID at the end), the store loaded into project `bench` (sample: content/, with
the app's own load, Tests/FirestoreApp/app.py; S and M: ../shared/bench/gen_store.py's store,
kept in BENCH_DIR (default /tmp/bench) as scripts/bench firestore keeps it, written with
`roost import --to firestore://bench`), `roost serve --store firestore://bench` (the release
build), one Chromium page. Then, for one user (the writer), WRITES writes of each kind, made
as the app makes them (the functions of app.py, in this process: Google's Python client, so no
process start is timed):
  like            (read the tweet's counter, then one batch: like doc + counter)  the writer's Likes tab
  unlike          (the same, minus one)                                          the writer's Likes tab
  new tweet       (tweets/ID created, timestamp now)                             the writer's Tweets tab
  caption edit    (caption updated, of a tweet on that tab)                      the writer's Tweets tab
  user renamed    (users/UID: the same username, a new fullname)                 the writer's Tweets tab
  favorite added  (favorites/UID/favorites/PLACE set)                            the writer's favorites page
  favorite removed                                                               the writer's favorites page
Each is timed from its commit returning to the open page's DOM showing it (its DOMContentLoaded; polled every ~5 ms
through the driver: the Likes tab's count, the card, the caption, the name, the place).
Roost's console line for each write gives its own part ("… pages updated (N ms)"); a second
client of the live-reload stream stamps the "change" event the page gets. A write slower than
1 s to show gets a line of its own (VERBOSE=1: every write).

Runs under the test venv's python (.build/test-venv, which has google-cloud-firestore; it
re-executes itself there) and takes selenium from the system python3 (scripts/install-deps
installs it there with pip). Prints a table and appends it to docs/benchmarks.md.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(REPO, ".build/test-venv/bin/python3")


def ensure_interpreter():
    """Re-executes under the test venv's python unless google.cloud.firestore imports here;
    then makes selenium importable (from the system python3, after the venv's own packages)."""
    try:
        import google.cloud.firestore  # noqa: F401
    except ImportError:
        venv = os.path.dirname(os.path.dirname(VENV_PYTHON))
        if os.path.realpath(sys.prefix) != os.path.realpath(venv) and os.access(VENV_PYTHON, os.X_OK):
            os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
        sys.exit(f"bench live: google-cloud-firestore missing: {VENV_PYTHON} (make test-deps)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        # The interpreter the venv was made from (its own site-packages), else python3 on PATH.
        found = None
        for system in [os.path.join(sys.base_prefix, "bin", "python3"), shutil.which("python3"), "/usr/bin/python3"]:
            if not system or not os.access(system, os.X_OK):
                continue
            found = subprocess.run([system, "-c", "import os, selenium; "
                                    "print(os.path.dirname(os.path.dirname(selenium.__file__)))"],
                                   capture_output=True, text=True, env=dict(os.environ, PYTHONNOUSERSITE=""))
            if found.returncode == 0:
                break
        if found is None or found.returncode != 0:
            sys.exit("bench live: selenium is importable neither here nor by the system python3 "
                     "(scripts/install-deps installs it)")
        sys.path.append(found.stdout.strip())
        import selenium  # noqa: F401,F811


ensure_interpreter()
sys.path.insert(0, os.path.join(REPO, "Tests", "Browser"))
sys.path.insert(0, os.path.join(REPO, "Tests", "FirestoreApp"))
import app  # noqa: E402  (Tests/FirestoreApp/app.py: the app's writes)
import firestore_emulator  # noqa: E402
from roost_browser import CHROMEDRIVER, CHROMIUM  # noqa: E402

SIZES = {"S": ["--users", "200", "--tweets", "2000"], "M": ["--users", "2000", "--tweets", "20000"]}
WRITES = int(os.environ.get("WRITES", "20"))
TIMEOUT = float(os.environ.get("TIMEOUT", "20"))  # seconds one write may take to show
WARMUP_TIMEOUT = float(os.environ.get("WARMUP_TIMEOUT", "180"))  # seconds for the first write to show
VERBOSE = os.environ.get("VERBOSE") == "1"  # a line per write (else only for writes slower than SLOW)
SLOW = 1.0  # seconds
BENCH = os.environ.get("BENCH_DIR", "/tmp/bench")
SHARED = os.path.abspath(os.environ.get("ROOST_SHARED", os.path.join(REPO, "..", "shared")))
ROOST = os.environ.get("ROOST", os.path.join(REPO, ".build/release/roost"))
PROJECT = "bench"
HANDLE = re.compile(r"[A-Za-z0-9_]{1,30}\Z")
KINDS = ["like", "unlike", "new tweet", "caption edit", "user renamed", "favorite added", "favorite removed"]


def log(message):
    print(f"== {time.strftime('%H:%M:%S')} {message}", flush=True)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def store_folder(size):
    if size == "sample":
        return os.path.join(REPO, "content")
    os.makedirs(BENCH, exist_ok=True)
    store = os.path.join(BENCH, f"firestore-{size}")
    if not os.path.isdir(store):
        log(f"{size}: generating {store}")
        subprocess.run([sys.executable, os.path.join(SHARED, "bench", "gen_store.py"), store] + SIZES[size]
                       + ["--seed", "1", "--force"], check=True, stdout=subprocess.DEVNULL)
    return store


def pick_writer(store):
    """(uid, handle, liked tweet IDs, tweets not liked, own tweet count) of the writer: a user
    with a plain, unique handle, tweets of their own and enough tweets left to like."""
    users = {}
    for name in sorted(os.listdir(os.path.join(store, "users"))):
        if name.endswith(".json"):
            users[name[:-5]] = read_json(os.path.join(store, "users", name)).get("username")
    lowered = [u.lower() for u in users.values() if isinstance(u, str)]
    tweets = sorted(n[:-5] for n in os.listdir(os.path.join(store, "tweets")) if n.endswith(".json"))
    authors = {}
    for tweet in tweets:
        uid = read_json(os.path.join(store, "tweets", tweet + ".json")).get("uid")
        authors[uid] = authors.get(uid, 0) + 1
    candidates = []
    for uid, username in users.items():
        if not isinstance(username, str) or not HANDLE.match(username) or lowered.count(username.lower()) != 1:
            continue
        if authors.get(uid, 0) == 0:
            continue
        folder = os.path.join(store, "users", uid, "user-likes")
        liked = {n[:-5] for n in os.listdir(folder) if n.endswith(".json")} if os.path.isdir(folder) else set()
        candidates.append((-authors[uid], uid, username.lower(), liked))
    if not candidates:
        sys.exit(f"bench live: no user with a plain handle and tweets in {store}")
    # The sample's hyunwoo (the browser test's user) when there; else the most prolific author.
    chosen = next((c for c in candidates if c[1] == "Yw0vbDbtYhNQ5CALWtprSLbJLAfl"), min(candidates))
    _, uid, handle, liked = chosen
    unliked = [t for t in tweets if t not in liked]
    if len(unliked) < WRITES:
        sys.exit(f"bench live: {handle} has only {len(unliked)} tweets left to like (WRITES={WRITES})")
    return uid, handle, len(liked), unliked, -chosen[0]


def count_documents(store):
    return sum(1 for _, _, files in os.walk(store) for f in files if f.endswith(".json"))


class Server:
    """roost serve on a free 127.0.0.1 port; its console in a file, line-buffered (stdbuf)."""

    def __init__(self, env, folder):
        self.log_path = os.path.join(folder, "serve.log")
        self.port = firestore_emulator.free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        command = [ROOST, "serve", "--store", f"firestore://{PROJECT}", "--templates", os.path.join(REPO, "templates"),
                   "--host", "127.0.0.1", "--port", str(self.port), "--cache", os.path.join(folder, "cache")]
        if shutil.which("stdbuf"):
            command = ["stdbuf", "-oL", "-eL"] + command
        with open(self.log_path, "w") as out:
            # Killed with this process however it ends (a write blocked in the client ignores Ctrl-C).
            self.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=subprocess.STDOUT, cwd=folder,
                                            preexec_fn=firestore_emulator.die_with_parent)
        started = time.monotonic()
        while True:
            if self.process.poll() is not None:
                sys.exit(f"bench live: roost serve exited:\n{self.console()}")
            try:
                with urllib.request.urlopen(self.url, timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() - started > 900:
                self.stop()
                sys.exit(f"bench live: roost serve did not answer within 900 s:\n{self.console()}")
            time.sleep(0.2)
        self.ready = time.monotonic() - started

    def console(self, start=0):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            f.seek(start)
            return f.read()

    def size(self):
        return os.path.getsize(self.log_path)

    def stop(self):
        process, self.process = self.process, None
        firestore_emulator.stop_process(process)


class Events:
    """The preview's live-reload stream (/__roost/events), read as the page's EventSource reads
    it: each event stamped (perf_counter) when its last line arrives."""

    def __init__(self, port):
        import http.client
        import threading
        self.seen = []  # (perf_counter, event, data)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=None)
        self.connection.request("GET", "/__roost/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        if self.response.status != 200:
            sys.exit(f"bench live: /__roost/events answered {self.response.status}")
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        event, data = "message", []
        try:
            while True:
                line = self.response.fp.readline()
                if not line:
                    return
                line = line.decode("utf-8", "replace").rstrip("\r\n")
                if line == "":
                    if data:
                        self.seen.append((time.perf_counter(), event, "\n".join(data)))
                    event, data = "message", []
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
        except (OSError, ValueError):
            return

    def first_change_after(self, t0):
        return next((t for t, event, _ in list(self.seen) if t >= t0 and event == "change"), None)

    def close(self):
        try:
            self.connection.sock.shutdown(2)
        except OSError:
            pass
        self.connection.close()


# What the page shows, read in one round trip.
STATE = """
const tab = document.querySelector('nav.tabs a[aria-current="page"] .tab-count');
const name = document.querySelector('header.profile .profile-name');
return {
  count: tab ? Number(tab.textContent.trim()) : null,
  name: name ? name.textContent : null,
  cards: Array.from(document.querySelectorAll('article.card'), a => a.getAttribute('data-tweet-id')),
  caption: arguments[0] ? (document.querySelector('article.card[data-tweet-id="' + arguments[0] + '"] .caption') || {}).textContent || null : null,
  places: Array.from(document.querySelectorAll('[data-place-id]'), p => p.getAttribute('data-place-id')),
  ready: window.__roostReady || null,
};
"""


def browser():
    """Headless Chromium as Tests/Browser's chrome() makes it, but with the "eager" page load
    strategy: WebDriver waits for a reloaded page's DOM, not for its images (remote avatars,
    which fail slowly without a network), and every new document stamps its DOMContentLoaded
    (epoch ms, window.__roostReady), so the time shown is the page's own, not the poll's."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.page_load_strategy = "eager"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
        "document.addEventListener('DOMContentLoaded', function () {"
        " window.__roostReady = performance.timeOrigin + performance.now(); });"})
    return driver


def state(driver, tweet=None):
    from selenium.common.exceptions import WebDriverException
    try:
        return driver.execute_script(STATE, tweet)
    except WebDriverException:
        return None  # between two loads


def wait_until(driver, condition, tweet=None, since=None):
    """When condition(state) first holds, polled every ~5 ms, as perf_counter seconds: the
    page's own DOMContentLoaded when that came after `since` (epoch seconds), else the poll's
    time; None on timeout."""
    deadline = time.perf_counter() + TIMEOUT
    while time.perf_counter() < deadline:
        s = state(driver, tweet)
        if s is not None and condition(s):
            now, wall = time.perf_counter(), time.time()
            if since is not None and s.get("ready") and s["ready"] / 1000 >= since:
                return now - (wall - s["ready"] / 1000)
            return now
        time.sleep(0.005)
    return None


def rebuild_ms(text):
    return [int(m) for m in re.findall(r"\((\d+) ms\)", text)]


def run_size(size, results, consoles):
    store = store_folder(size)
    uid, handle, liked_count, unliked, own_tweets = pick_writer(store)
    documents = count_documents(store)
    folder = tempfile.mkdtemp(prefix=f"roost-bench-live-{size}-")
    emulator = server = driver = events = None
    try:
        emulator = firestore_emulator.Emulator()
        env = dict(os.environ, FIRESTORE_EMULATOR_HOST=emulator.host, GOOGLE_CLOUD_PROJECT=PROJECT)
        env.pop("GOOGLE_APPLICATION_CREDENTIALS", None)
        os.environ["FIRESTORE_EMULATOR_HOST"] = emulator.host  # for the client in this process
        from google.cloud import firestore
        db = firestore.Client(project=PROJECT)
        start = time.monotonic()
        if size == "sample":
            copy = os.path.join(folder, "content")
            shutil.copytree(store, copy)
            app.load(db, types.SimpleNamespace(dir=copy), None)
            how = "app.py's load"
        else:
            done = subprocess.run([ROOST, "import", store, "--to", f"firestore://{PROJECT}", "--force"], env=env,
                                  capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"bench live: roost import failed:\n{done.stderr[-3000:]}")
            how = "`roost import --to firestore://bench`"
        loaded = time.monotonic() - start
        log(f"{size}: {documents:,} documents loaded in {loaded:.1f} s ({how}); writer @{handle}")
        server = Server(env, folder)
        log(f"{size}: roost serve ready in {server.ready:.1f} s: {server.console().strip().splitlines()[0]}")
        events = Events(server.port)
        driver = browser()
        mirror = app.Mirror(None)
        base = server.url + f"u/{handle}/"
        times = {kind: [] for kind in KINDS}
        rebuilds = {kind: [] for kind in KINDS}
        announced = {kind: [] for kind in KINDS}  # commit -> the "change" event at a client of the stream
        commits = {kind: [] for kind in KINDS}  # the write's own time in the client (reads and commit)
        failures = {kind: 0 for kind in KINDS}

        def measure(kind, page, write, condition, tweet=None, index=0):
            if driver.current_url != page:
                driver.get(page)
                if wait_until(driver, lambda s: True) is None:
                    sys.exit(f"bench live: {page} did not load")
            time.sleep(0.05)  # the page settled (no reload still on its way)
            mark = server.size()
            started = time.perf_counter()
            wall_started = time.time()
            write()
            t0 = time.perf_counter()
            commits[kind].append((t0 - started) * 1000)
            t1 = wait_until(driver, condition, tweet, since=wall_started)
            if t1 is not None:
                t1 = max(t0, t1)  # shown before the commit returned: 0
            if t1 is None:
                failures[kind] += 1
                print(f"   {kind} #{index}: not shown within {TIMEOUT:.0f} s; roost said: "
                      f"{server.console(mark).strip()[-500:]!r}", flush=True)
                return
            times[kind].append((t1 - t0) * 1000)
            change = events.first_change_after(started)  # it may come before the commit returns
            if change is not None and change <= t1:
                announced[kind].append((change - t0) * 1000)
            # Roost's line comes before the reload it causes: there by now (line-buffered).
            time.sleep(0.02)
            said = server.console(mark)
            rebuilds[kind] += rebuild_ms(said)
            if VERBOSE or t1 - t0 > SLOW:
                print(f"   {kind} #{index}: shown after {(t1 - t0) * 1000:.0f} ms, the change event after "
                      + (f"{(change - t0) * 1000:.0f} ms" if change is not None else "(none seen)")
                      + f"; load average {open('/proc/loadavg').read().split()[0]}; roost said: "
                      + " | ".join(said.strip().splitlines()), flush=True)
            if index == 0:
                consoles.append((size, kind, said.strip()))

        # Untimed: one write, waited for, so that the listen stream is current (at start Roost
        # has read the database over REST and serves; its listen stream may still be catching up).
        warm = f"benchWarmUp{int(time.time())}"
        started = time.perf_counter()
        app.favorite_add(db, types.SimpleNamespace(uid=uid, placeid=warm, name="warm-up", address=None, lat=None,
                                                   lon=None), mirror)
        t0 = time.perf_counter()
        # The emulator may deliver the write to the listener before it answers the commit.
        while events.first_change_after(started) is None and time.perf_counter() - t0 < WARMUP_TIMEOUT:
            time.sleep(0.005)
        change = events.first_change_after(started)
        warm_up = (f"the first write after `roost serve` answered took {(t0 - started) * 1000:.0f} ms, its change "
                   f"event came {(change - t0) * 1000:.0f} ms after it" if change is not None else
                   f"the first write's change event had not come {WARMUP_TIMEOUT:.0f} s after it (WARMUP_TIMEOUT): "
                   "Roost was not following yet, so no write was timed")
        log(f"{size}: warm-up: {warm_up}")
        if change is None:
            for kind in KINDS:
                results.append((size, documents, kind, [], [], [], 0, []))
            return loaded, how, server.ready, warm_up
        app.favorite_remove(db, types.SimpleNamespace(uid=uid, placeid=warm), mirror)
        time.sleep(1)

        # like / unlike: the Likes tab's count goes up / down by one.
        likes_page = base + "likes/"
        liked_now = liked_count
        to_like = unliked[:WRITES]
        for i, tweet in enumerate(to_like):
            liked_now += 1
            measure("like", likes_page, lambda t=tweet: app.set_like(db, mirror, uid, t, liked=True),
                    lambda s, n=liked_now: s["count"] == n, index=i)
        for i, tweet in enumerate(to_like):
            liked_now -= 1
            measure("unlike", likes_page, lambda t=tweet: app.set_like(db, mirror, uid, t, liked=False),
                    lambda s, n=liked_now: s["count"] == n, index=i)
        # new tweet: its card first on the Tweets tab (newest first).
        tweets_page = base
        stamp = int(time.time())
        new_ids = []
        for i in range(WRITES):
            tweet = f"benchLive{stamp}x{i:03}"
            new_ids.append(tweet)
            at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() + 60 + i)) + "Z"  # the newest
            args = types.SimpleNamespace(uid=uid, id=tweet, caption=f"bench live tweet {i}", at=at, reply_to=None)
            measure("new tweet", tweets_page, lambda a=args: app.tweet(db, a, mirror),
                    lambda s, t=tweet: t in s["cards"], index=i)
        # caption edit: the newest tweet's caption (on the Tweets tab's first page).
        target = new_ids[-1]
        for i in range(WRITES):
            text = f"edited caption {i} {stamp}"
            args = types.SimpleNamespace(id=target, caption=text)
            measure("caption edit", tweets_page, lambda a=args: app.edit_caption(db, a, mirror),
                    lambda s, x=text: s["caption"] is not None and x in s["caption"], tweet=target, index=i)
        # user renamed: the same username (the URLs stay), a new fullname in the profile header.
        username = db.document(f"users/{uid}").get().to_dict()["username"]
        for i in range(WRITES):
            name = f"Bench Renamed {i} {stamp}"
            args = types.SimpleNamespace(uid=uid, username=username, fullname=name)
            measure("user renamed", tweets_page, lambda a=args: app.rename(db, a, mirror),
                    lambda s, x=name: s["name"] is not None and x in s["name"], index=i)
        # favorites: a place added, then removed, on the writer's favorites page.
        favorites_page = base + "favorites/"
        places = [f"benchPlace{stamp}x{i:03}" for i in range(WRITES)]
        for i, place in enumerate(places):
            args = types.SimpleNamespace(uid=uid, placeid=place, name=f"Bench place {i}", address="1 Bench Street",
                                         lat=37.5 + i / 1000, lon=127.0)
            measure("favorite added", favorites_page, lambda a=args: app.favorite_add(db, a, mirror),
                    lambda s, p=place: p in s["places"], index=i)
        for i, place in enumerate(places):
            args = types.SimpleNamespace(uid=uid, placeid=place)
            measure("favorite removed", favorites_page, lambda a=args: app.favorite_remove(db, a, mirror),
                    lambda s, p=place: p not in s["places"], index=i)
        for kind in KINDS:
            results.append((size, documents, kind, times[kind], announced[kind], rebuilds[kind], failures[kind],
                            commits[kind]))
            if times[kind]:
                log(f"{size}: {kind}: median {statistics.median(times[kind]):.0f} ms, worst {max(times[kind]):.0f} ms,"
                    f" n {len(times[kind])}" + (f", {failures[kind]} not shown" if failures[kind] else "")
                    + (f"; the change event after {statistics.median(announced[kind]):.0f} ms" if announced[kind] else "")
                    + f"; the write itself {statistics.median(commits[kind]):.0f} ms")
        return loaded, how, server.ready, warm_up
    finally:
        if events is not None:
            events.close()
        if driver is not None:
            driver.quit()
        if server is not None:
            server.stop()
        if emulator is not None:
            emulator.close()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    sizes = sys.argv[1:] or ["sample", "S"]
    for size in sizes:
        if size != "sample" and size not in SIZES:
            sys.exit(f"bench live: unknown size {size} (sample, S or M)")
    if not os.access(ROOST, os.X_OK):
        sys.exit(f"bench live: {ROOST} missing (swift build -c release --product roost)")
    if firestore_emulator.missing():
        sys.exit("bench live: " + " and ".join(firestore_emulator.missing()) + " not found")
    results, consoles, loads = [], [], {}
    for size in sizes:
        loads[size] = run_size(size, results, consoles)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", REPO, "diff", "--quiet", "HEAD", "--", "Sources", "templates",
                            "Package.swift"]).returncode != 0
    with open("/proc/meminfo") as f:
        memory = int(f.readline().split()[1]) / 1048576
    lines = [f"## Following the emulator live (scripts/bench live), {stamp}", "",
             f"- commit `{commit}`{' (with uncommitted changes)' if dirty else ''}; `{os.path.relpath(ROOST, REPO)}`",
             f"- `{' '.join(os.uname())}`",
             f"- nproc {os.cpu_count()}, {memory:.0f} GiB; load average at the end: "
             f"{' '.join(open('/proc/loadavg').read().split()[:3])}"
             + (f"; {os.environ['NOTE']}" if os.environ.get("NOTE") else ""),
             f"- `scripts/bench live {' '.join(sizes)}`"
             + (f" with ROOST_LISTEN_PLAN={os.environ['ROOST_LISTEN_PLAN']}" if os.environ.get("ROOST_LISTEN_PLAN") else
                " (Roost's default listen plan on the emulator: per user)")
             + f": WRITES={WRITES} per kind, each timed from the client's "
             "commit returning (Google's Python client, in process, writing as Tests/FirestoreApp/app.py does) to "
             "the open headless Chromium page's DOM showing it (polled every ~5 ms through WebDriver; a reloaded "
             "page's time is its own DOMContentLoaded); roost's "
             "part is its console's \"… pages updated (N ms)\"", ""]
    for size in sizes:
        loaded, how, ready, warm_up = loads[size]
        documents = next(r[1] for r in results if r[0] == size)
        lines.append(f"- {size}: {documents:,} documents, loaded in {loaded:.1f} s ({how}); `roost serve` "
                     f"answered {ready:.1f} s after it started; {warm_up} (untimed warm-up)")
    lines += ["", "| size | kind | commit → shown in the page: median ms | worst ms | n "
              "| commit → \"change\" event: median ms | roost's update: median ms | the write itself: median ms "
              "| not shown |",
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for size, _, kind, times, announced, rebuilds, failures, commits in results:
        def median(values):
            return f"{statistics.median(values):.0f}" if values else "–"
        worst = f"{max(times):.0f}" if times else "–"
        lines.append(f"| {size} | {kind} | {median(times)} | {worst} | {len(times)} | {median(announced)} "
                     f"| {median(rebuilds)} | {median(commits)} | {failures} |")
    lines += ["", "The \"change\" event is stamped at a second client of `/__roost/events` in this process "
              "(what the page's EventSource gets); from it to \"shown\" is the page's `location.reload()`: a new "
              "request and the page parsed. From the commit to the event (negative: the event came "
              "before the commit returned): the emulator delivering the write on Roost's listen stream, and Roost's update (its console's time). \"The write itself\": the client's reads and commit, not in the "
              "other columns (the emulator answers a commit only after matching it against every open listen "
              "target: with Roost's targets open it takes far longer than without)."]
    lines += ["", "Roost's console for the first write of each kind (the last size):", ""]
    last = sizes[-1]
    for size, kind, said in consoles:
        if size == last:
            for line in said.splitlines() or ["(nothing)"]:
                lines.append(f"    {kind}: {line}")
    text = "\n".join(lines) + "\n"
    print()
    print(text)
    with open(os.path.join(REPO, "docs/benchmarks.md"), "a") as f:
        f.write("\n" + text)
    print("== results appended to docs/benchmarks.md")


if __name__ == "__main__":
    main()
