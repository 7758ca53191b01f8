"""The Firestore emulator for the browser tests and scripts/bench live: the jar of the Google
Cloud CLI's cloud-firestore-emulator component, run with `java` on free 127.0.0.1 ports, and
stopped by its process ID (the JVM killed and waited for).

The rules are those of Tests/TestSupport/FirestoreEmulator.swift: the jar is
ROOST_FIRESTORE_EMULATOR_JAR, else <SDK root>/platform/cloud-firestore-emulator/
cloud-firestore-emulator.jar, the SDK root being two levels above where `gcloud` on PATH really
is; without it (or without java) the tests that need it are skipped, loudly, unless
ROOST_REQUIRE_EMULATOR=1, which makes its absence a failure.

The JVM never outlives the process that started it: `stop()`, an atexit hook, and on Linux the
parent-death signal (SIGKILL when the starting thread's process dies, even by kill -9)."""

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

READY_TIMEOUT = 90  # seconds; 1.5-4 s on a quiet machine
REQUIRED = os.environ.get("ROOST_REQUIRE_EMULATOR") == "1"
HOW_TO_GET_IT = ("Install the Google Cloud CLI's cloud-firestore-emulator component and Java 17, or set "
                 "ROOST_FIRESTORE_EMULATOR_JAR to the jar.")


def jar():
    """The emulator's jar, or None."""
    given = os.environ.get("ROOST_FIRESTORE_EMULATOR_JAR", "")
    if given:
        return given if os.access(given, os.R_OK) else None
    gcloud = shutil.which("gcloud")
    if not gcloud:
        return None
    root = os.path.dirname(os.path.dirname(os.path.realpath(gcloud)))
    path = os.path.join(root, "platform", "cloud-firestore-emulator", "cloud-firestore-emulator.jar")
    return path if os.access(path, os.R_OK) else None


def java():
    return shutil.which("java")


def missing():
    """What is missing to run the emulator (a list of phrases; empty when nothing is)."""
    found = []
    if jar() is None:
        given = os.environ.get("ROOST_FIRESTORE_EMULATOR_JAR", "")
        found.append(f"the Firestore emulator (ROOST_FIRESTORE_EMULATOR_JAR={given}: no such file)" if given else
                     "the Firestore emulator (no gcloud on PATH whose SDK has "
                     "platform/cloud-firestore-emulator/cloud-firestore-emulator.jar)")
    if java() is None:
        found.append("java (Java 17) on PATH")
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers_ok(host, timeout=2):
    try:
        with urllib.request.urlopen(f"http://{host}/", timeout=timeout) as response:
            return response.status == 200 and response.read().startswith(b"Ok")
    except OSError:
        return False


def refuses_connections(port):
    with socket.socket() as s:
        s.settimeout(1)
        try:
            s.connect(("127.0.0.1", port))
            return False
        except OSError:
            return True


def die_with_parent():
    """For Popen's preexec_fn: the child gets SIGKILL when the parent dies (Linux
    prctl PR_SET_PDEATHSIG; nothing elsewhere), however the parent ends."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass


def stop_process(process):
    """Ends a child that may still run: SIGTERM, then SIGKILL if it is not gone within 5 s."""
    if process is None or process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()


_running = set()


@atexit.register
def _stop_all():
    for emulator in list(_running):
        emulator.stop()


class EmulatorError(Exception):
    pass


class Emulator:
    """One emulator JVM: `host` is 127.0.0.1:PORT (FIRESTORE_EMULATOR_HOST's form), `pid` its
    process ID while it runs. `stop()` kills it and waits; calling it twice is fine."""

    def __init__(self):
        if missing():
            raise EmulatorError(" and ".join(missing()) + " not found. " + HOW_TO_GET_IT)
        self.folder = tempfile.mkdtemp(prefix="roost-emulator-")
        self.log_path = os.path.join(self.folder, "emulator.log")
        self.process = None
        failures = []
        for _ in range(3):  # another process may take a free port before the JVM binds it
            self.port, self.websocket_port = free_port(), free_port()
            try:
                self._spawn()
                return
            except EmulatorError as error:
                failures.append(str(error))
                if "BindException" not in str(error) and "already in use" not in str(error):
                    break
        shutil.rmtree(self.folder, ignore_errors=True)
        raise EmulatorError("\n\n".join(failures))

    @property
    def host(self):
        return f"127.0.0.1:{self.port}"

    @property
    def pid(self):
        return self.process.pid if self.process is not None else 0

    def output(self):
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def _spawn(self):
        log = open(self.log_path, "w")
        try:
            self.process = subprocess.Popen(
                [java(), "-Duser.language=en", "-cp", jar(),
                 "com.google.cloud.datastore.emulator.firestore.CloudFirestore", "start",
                 "--host=127.0.0.1", f"--port={self.port}", "--database-mode=firestore-native",
                 f"--websocket_port={self.websocket_port}"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent)
        finally:
            log.close()
        _running.add(self)
        started = time.monotonic()
        while not answers_ok(self.host):
            if self.process.poll() is not None:
                self.stop()
                raise EmulatorError(f"the emulator (java, port {self.port}) exited before it was ready:\n"
                                    + self.output()[-3000:])
            if time.monotonic() - started > READY_TIMEOUT:
                self.stop()
                raise EmulatorError(f"the emulator did not answer GET http://{self.host}/ with Ok within "
                                    f"{READY_TIMEOUT} s:\n" + self.output()[-3000:])
            time.sleep(0.1)

    def stop(self):
        """Kills the JVM (SIGKILL, by its process ID), waits for it and for its port to refuse
        connections. Its data is gone."""
        process, self.process = self.process, None
        _running.discard(self)
        if process is None:
            return
        if process.poll() is None:
            try:
                os.kill(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.wait()
        deadline = time.monotonic() + 10
        while not refuses_connections(self.port) and time.monotonic() < deadline:
            time.sleep(0.01)

    def close(self):
        """stop(), and its folder (the output) removed."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
