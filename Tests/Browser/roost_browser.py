"""What every browser test needs: a built site, a headless Chromium driven by selenium, a
local HTTP server (127.0.0.1 only, under a sub-path, stopped by the test), and axe-core.

Run by `make browser` (part of `make test`): python3 -m unittest discover -s Tests/Browser.
ROOST names the roost binary (default .build/debug/roost, built by make browser)."""

import functools
import http.server
import os
import shutil
import subprocess
import tempfile
import threading
import unittest
import urllib.parse

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROOST = os.environ.get("ROOST", os.path.join(REPOSITORY, ".build", "debug", "roost"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def roost(*arguments, cwd=None):
    """Runs the roost binary; a failure fails the test with roost's own message."""
    result = subprocess.run([ROOST, *arguments], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"roost {' '.join(arguments)} exited {result.returncode}:\n{result.stderr}")
    return result


def build(store, *arguments):
    """Builds `store` (default: the sample content/) into a new temporary folder, removed at exit."""
    output = tempfile.mkdtemp(prefix="roost-browser-")
    unittest.addModuleCleanup(shutil.rmtree, output, ignore_errors=True)
    roost("build", "--store", store, "--templates", os.path.join(REPOSITORY, "templates"),
          "--output", output, "--quiet", *arguments)
    return output


def chrome(width=1280, height=900, dark=False, network_log=False):
    """A headless Chromium (selenium), `width`×`height`, in dark mode when asked. Quit it when done.
    With `network_log`, `requested_urls(driver)` lists every URL the pages asked for."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--allow-file-access-from-files", f"--window-size={width},{height}",
                     "--force-device-scale-factor=1"):
        options.add_argument(argument)
    if network_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    # Headless Chromium keeps windows at least 500 px wide: the viewport is set exactly, so
    # chrome(width=320) is a phone's 320 CSS px.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    scheme = "dark" if dark else "light"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    return driver


def requested_urls(driver):
    """The URLs requested since the last call (a `chrome(network_log=True)`), from the DevTools
    network events: files, data: URLs and requests to other hosts alike."""
    import json
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


class _Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"

    def send_head(self):
        # Outside the sub-path nothing is served (as a host serving the site under /sub/).
        if not urllib.parse.urlsplit(self.path).path.startswith(self.prefix):
            self.send_error(404)
            return None
        return super().send_head()

    def translate_path(self, path):
        return super().translate_path("/" + urllib.parse.urlsplit(path).path[len(self.prefix):])

    def log_message(self, *arguments):
        pass


class _NotFoundHandler(_Handler):
    """Answers a URL that names no file with 404.html, as hosts do (GitHub Pages, Netlify…)."""

    def send_head(self):
        path = urllib.parse.urlsplit(self.path).path
        if path.startswith(self.prefix) and not os.path.exists(self.translate_path(self.path)):
            with open(os.path.join(self.directory, "404.html"), "rb") as file:
                body = file.read()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None
        return super().send_head()


class SiteServer:
    """Serves `folder` at http://127.0.0.1:PORT{prefix} until `stop()` (or the end of the process).
    With `not_found_page`, a URL that names no file gets the site's 404.html."""

    def __init__(self, folder, prefix="/sub/", not_found_page=False):
        handler = type("Handler", (_NotFoundHandler if not_found_page else _Handler,), {"prefix": prefix})
        self.server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=folder))
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{prefix}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def file_url(folder, page=""):
    """The file:// URL of `page` (relative, e.g. "search/index.html") in `folder`."""
    return "file://" + urllib.parse.quote(os.path.join(os.path.abspath(folder), page))


def axe_source():
    """axe-core 4.x as PyPI ships it (see scripts/install-deps)."""
    import axe_playwright_python
    path = os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")
    with open(path, encoding="utf-8") as file:
        return file.read()


def axe_violations(driver):
    """axe-core's violations on the page `driver` shows (every rule axe runs by default)."""
    driver.execute_script(axe_source())
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document).then(r => done(r.violations)).catch(e => done([{id: 'axe-error', help: String(e), nodes: []}]));")
    return result


def describe(violations):
    """Violations as lines a person can act on: rule, impact, help, the first nodes' targets."""
    lines = []
    for violation in violations:
        targets = [" ".join(map(str, node.get("target", []))) for node in violation.get("nodes", [])[:5]]
        lines.append(f"{violation['id']} ({violation.get('impact')}): {violation.get('help')} "
                     f"[{len(violation.get('nodes', []))} nodes] {targets}")
    return "\n".join(lines)
