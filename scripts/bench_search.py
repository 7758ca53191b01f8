#!/usr/bin/env python3
"""The search benchmark (run by `scripts/bench search [S] [M] [L]`): for each size, one build of
the synthetic store of ../shared/bench (made with gen_store.py if $BENCH_DIR has none yet),
then

- the index: files and bytes under search/ (term shards, card data, users, days, the list of
  shards) and their share of the site's; the "search index" phase (ROOST_TIMINGS) as a share of
  the whole build;
- per query (one, two and three terms, Latin and Hangul), in headless Chromium from file://:
  the bytes of the index files the query loaded (term shards, days.js, index.js) and of the
  card data (search/d, search/u), and the time from navigation to results shown and from the
  shards' arrival to results shown (`roostSearch.timing`); the median of RUNS loads.

Prints a Markdown section and appends it to docs/benchmarks.md."""

import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(REPO, "Tests", "Browser"))
from roost_browser import chrome, file_url  # noqa: E402

BENCH = os.environ.get("BENCH_DIR", "/tmp/bench")
SHARED = os.path.abspath(os.environ.get("ROOST_SHARED", os.path.join(REPO, "..", "shared")))
ROOST = os.path.join(REPO, ".build", "release", "roost")
RUNS = int(os.environ.get("RUNS", "3"))
STORES = {"S": "--users 200 --tweets 2000 --seed 1", "M": "--users 2000 --tweets 20000 --seed 1",
          "L": "--users 10000 --tweets 100000 --seed 1"}
QUERIES = [
    ("Latin, 1 term", "deploy"), ("Latin, 1 term (prefix)", "dep"), ("Latin, 2 terms", "coffee morning"),
    ("Latin, 3 terms", "swift build release"), ("Hangul, 1 term", "커피"), ("Hangul, 1 term (prefix)", "배"),
    ("Hangul, 2 terms", "주말에 한강"), ("Hangul, 3 terms", "오늘 날씨 좋다"),
    ("operators", "coffee -is:reply since:2023-06-01 until:2023-07-01"), ("no match", "qqqzzzx"),
]


def folder_size(path):
    files = 0
    total = 0
    for root, _, names in os.walk(path):
        for name in names:
            files += 1
            total += os.path.getsize(os.path.join(root, name))
    return files, total


def kib(n):
    return f"{n / 1024:,.1f}"


def measure(size):
    store = os.path.join(BENCH, f"store-{size}")
    if not os.path.isdir(store):
        subprocess.run([sys.executable, "gen_store.py", store, *STORES[size].split()], cwd=os.path.join(SHARED, "bench"),
                       check=True, stdout=subprocess.DEVNULL)
    out = os.path.join(BENCH, f"out-search-{size}")
    shutil.rmtree(out, ignore_errors=True)
    start = time.monotonic()
    build = subprocess.run([ROOST, "build", "--quiet", "--store", store, "--templates", os.path.join(REPO, "templates"),
                            "--output", out], env={**os.environ, "ROOST_TIMINGS": "1"}, capture_output=True, text=True)
    wall = time.monotonic() - start
    if build.returncode != 0:
        raise SystemExit(build.stderr)
    phases = dict((m[1].strip(), float(m[2])) for m in re.finditer(r"timing: (.{20}) ([0-9.]+) s", build.stderr))
    index_time = phases.get("search index", 0.0)

    site_files, site_bytes = folder_size(out)
    parts = {name: folder_size(os.path.join(out, "search", name)) for name in ("k", "d", "u")}
    search_files, search_bytes = folder_size(os.path.join(out, "search"))
    lines = [
        f"### {size}: `gen_store.py {STORES[size]}`",
        "",
        f"Build: {wall:.1f} s wall; the \"search index\" phase (terms, shards) {index_time:.2f} s"
        f" = {100 * index_time / wall:.1f}% of it (the card data files are rendered with the pages).",
        "",
        "| index part | files | KiB | share of the site's bytes |",
        "| --- | --- | --- | --- |",
        f"| term shards `search/k/` | {parts['k'][0]:,} | {kib(parts['k'][1])} | {100 * parts['k'][1] / site_bytes:.1f}% |",
        f"| card data `search/d/` | {parts['d'][0]:,} | {kib(parts['d'][1])} | {100 * parts['d'][1] / site_bytes:.1f}% |",
        f"| users `search/u/` | {parts['u'][0]:,} | {kib(parts['u'][1])} | {100 * parts['u'][1] / site_bytes:.1f}% |",
        f"| all of `search/` | {search_files:,} | {kib(search_bytes)} | {100 * search_bytes / site_bytes:.1f}% |",
        f"| the whole site | {site_files:,} | {kib(site_bytes)} | |",
        "",
        "| query | results | index KiB loaded (files) | card data KiB (files) | navigation → shown, ms "
        "| shards → shown, ms | shards → results known, ms |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    ours = {}
    driver = chrome()
    try:
        page = file_url(out, "search/index.html")
        for label, query in QUERIES:
            samples = []
            for _ in range(RUNS):
                driver.get("about:blank")
                driver.get(page + "?q=" + urllib.parse.quote(query))
                end = time.time() + 60
                while time.time() < end:
                    state = driver.execute_script(
                        "var t = window.roostSearch && roostSearch.timing; return t && t.shown ? "
                        "[t.shards, t.shown, roostSearch.loaded, document.getElementById('search-results')"
                        ".getAttribute('data-count'), t.evaluated] : null")
                    if state:
                        break
                    time.sleep(0.02)
                else:
                    raise SystemExit(f"{query!r}: no results shown")
                samples.append(state)
            shards, shown, loaded, count, _ = samples[-1]
            evaluate = statistics.median(s[4] - s[0] for s in samples)
            index = [p for p in loaded if not re.match(r"search/[du]/", p)] + ["search/index.js"]
            cards = [p for p in loaded if re.match(r"search/[du]/", p)]
            index_bytes = sum(os.path.getsize(os.path.join(out, p)) for p in index)
            card_bytes = sum(os.path.getsize(os.path.join(out, p)) for p in cards)
            to_shown = statistics.median(s[1] for s in samples)
            compute = statistics.median(s[1] - s[0] for s in samples)
            index_gzip = sum(len(gzip.compress(open(os.path.join(out, p), "rb").read())) for p in index)
            ours[label] = (index_bytes, index_gzip, card_bytes)
            lines.append(f"| {label}: `{query}` | {int(count or 0):,} | {kib(index_bytes)} ({len(index)}) | "
                         f"{kib(card_bytes)} ({len(cards)}) | {to_shown:.0f} | {compute:.0f} | {evaluate:.0f} |")
        if os.environ.get("PAGEFIND", "1") != "0":
            lines += pagefind(out, driver, ours)
    finally:
        driver.quit()
    return lines


PAGEFIND_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pagefind bench</title>
<script src="pf-bench.js"></script></head><body></body></html>"""
PAGEFIND_SCRIPT = """window.runPagefind = async function (q) {
  var t0 = performance.now();
  var pf = await import("./pagefind/pagefind.js");
  await pf.init();
  var found = await pf.search(q);
  var t1 = performance.now();
  await Promise.all(found.results.slice(0, 20).map(function (r) { return r.data(); }));
  var t2 = performance.now();
  return [found.results.length, t1 - t0, t2 - t0];
};"""


class LoggingServer:
    """Serves `folder` at http://127.0.0.1:PORT/ without caching, noting every path it sends:
    Pagefind fetches from a worker, which the page's resource timings do not see."""

    def __init__(self, folder):
        import functools
        import http.server
        import threading
        served = self.served = []

        class Handler(http.server.SimpleHTTPRequestHandler):
            def end_headers(self):
                self.send_header("Cache-Control", "no-store")
                super().end_headers()

            def log_message(self, *arguments):
                pass

            def do_GET(self):
                served.append(urllib.parse.unquote(urllib.parse.urlsplit(self.path).path))
                super().do_GET()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def pagefind(out, driver, ours):
    """Pagefind over the same tweet pages (PyPI pagefind-bin), served over HTTP (it does not run
    from file://), with the same queries: bytes fetched for the search and for 20 results' data."""
    try:
        import pagefind_bin  # noqa: F401
    except ImportError:
        return ["", "(Pagefind not installed: `pip install pagefind-bin` to compare.)"]
    shutil.rmtree(os.path.join(out, "pagefind"), ignore_errors=True)
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "pagefind_bin", "--site", out, "--glob", "t/*/index.html"], check=True,
                   capture_output=True)
    index_time = time.monotonic() - start
    pf_files, pf_bytes = folder_size(os.path.join(out, "pagefind"))
    with open(os.path.join(out, "pf-bench.html"), "w") as f:
        f.write(PAGEFIND_PAGE)
    with open(os.path.join(out, "pf-bench.js"), "w") as f:
        f.write(PAGEFIND_SCRIPT)
    server = LoggingServer(out)
    lines = ["", f"Pagefind 1.5 over the same {sum(1 for _ in os.scandir(os.path.join(out, 't'))):,} tweet pages: "
             f"indexing {index_time:.1f} s, {pf_files:,} files, {kib(pf_bytes)} KiB (its files are gzip-compressed). "
             "Per query over HTTP, fresh page each time: the bytes fetched (Pagefind: compressed, as stored; "
             "Roost: as stored, uncompressed, and gzip-compressed for comparison; Roost's program, static/search.js, "
             f"is {kib(os.path.getsize(os.path.join(out, 'static', 'search.js')))} KiB). Pagefind indexes each tweet "
             "page whole (with its parent and replies) and stems words, so its result counts differ.", "",
             "| query | Pagefind results | Pagefind index KiB (files) + its program | Roost index KiB (gzip KiB) | "
             "Pagefind 20 results' data KiB | Roost card data KiB | Pagefind search ms |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    try:
        for label, query in QUERIES:
            samples = []
            for _ in range(RUNS):
                driver.get("about:blank")
                driver.get(server.url + "pf-bench.html")
                driver.set_script_timeout(60)
                del server.served[:]
                samples.append(driver.execute_async_script(
                    "var done = arguments[arguments.length - 1];"
                    "runPagefind(arguments[0]).then(done, function (e) { done(['error', String(e)]); });", query))
            if samples[-1][0] == "error":
                raise SystemExit(f"Pagefind: {samples[-1][1]}")
            count = samples[-1][0]
            fetched = [p for p in server.served if p.startswith("/pagefind/")]
            sizes = [(p, os.path.getsize(os.path.join(out, p[1:]))) for p in fetched]
            # Its program (pagefind.js, the worker, the WebAssembly) apart from its index, as
            # static/search.js is not counted in Roost's.
            program = sum(n for p, n in sizes if p.endswith(".js") or "wasm" in p)
            index = sum(n for p, n in sizes if "/fragment/" not in p and not (p.endswith(".js") or "wasm" in p))
            files = sum(1 for p, _ in sizes if "/fragment/" not in p and not (p.endswith(".js") or "wasm" in p))
            cards = sum(n for p, n in sizes if "/fragment/" in p)
            mine = ours[label]
            lines.append(f"| {label}: `{query}` | {count:,} | {kib(index)} ({files}) + {kib(program)} | "
                         f"{kib(mine[0])} ({kib(mine[1])}) | "
                         f"{kib(cards)} | {kib(mine[2])} | {statistics.median(s[1] for s in samples):.0f} |")
    finally:
        server.stop()
        for name in ("pf-bench.html", "pf-bench.js"):
            os.remove(os.path.join(out, name))
        shutil.rmtree(os.path.join(out, "pagefind"), ignore_errors=True)
    return lines


def main():
    sizes = sys.argv[1:] or ["M"]
    for size in sizes:
        if size not in STORES:
            raise SystemExit(f"bench search: unknown size {size!r} (S, M or L)")
    if not os.path.exists(ROOST):
        raise SystemExit(f"bench search: build {ROOST} first (swift build -c release)")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout
    load = open("/proc/loadavg").read().split()[:3]
    report = [f"## Search, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "",
              f"- commit `{commit.strip()}`, `scripts/bench search {' '.join(sizes)}`, RUNS={RUNS}; "
              f"load average at the start: {' '.join(load)}", ""]
    for size in sizes:
        report += measure(size) + [""]
    text = "\n".join(report)
    print(text)
    with open(os.path.join(REPO, "docs", "benchmarks.md"), "a", encoding="utf-8") as f:
        f.write("\n" + text)


if __name__ == "__main__":
    main()
