#!/usr/bin/env python3
"""Reading the database (issue 26, SPEC 11): Roost against Google's Python client and plain
runQuery calls with curl, over the same documents in the Firestore emulator, in one run.

    scripts/bench firestore [S|M|L]      (default M; RUNS=3)

Starts its own emulator (the jar of the Google Cloud SDK, on a free 127.0.0.1 port, stopped
by its process ID at the end), makes the store with ../shared/bench/gen_store.py (kept in
BENCH_DIR, default /tmp/bench), writes it into the emulator with `roost import --to
firestore://bench`, then times, RUNS times each, alternating:
  - roost: `roost check --store firestore://bench` (the whole read at one read time, paged,
    four groups at once, decoded into the model and checked);
  - python: google-cloud-firestore's collection_group(G).stream() over the four groups, one
    after another (the test venv's client, .build/test-venv);
  - curl, one after another, and curl, all at once: one runQuery per group without paging
    or decoding, the emulator's floor (the faster of the two).
Prints documents per second and the ratios; appends the table to docs/benchmarks.md.
"""
import json, os, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = {"S": ["--users", "200", "--tweets", "2000"], "M": ["--users", "2000", "--tweets", "20000"],
         "L": ["--users", "20000", "--tweets", "200000"]}
GROUPS = ["users", "user-likes", "tweets", "favorites"]
RUNS = int(os.environ.get("RUNS", "3"))
BENCH = os.environ.get("BENCH_DIR", "/tmp/bench")
SHARED = os.path.abspath(os.environ.get("ROOST_SHARED", os.path.join(REPO, "..", "shared")))
ROOST = os.environ.get("ROOST", os.path.join(REPO, ".build/release/roost"))
PYTHON = os.path.join(REPO, ".build/test-venv/bin/python3")
PROJECT = "bench"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def emulator_jar():
    gcloud = shutil.which("gcloud")
    if os.environ.get("ROOST_FIRESTORE_EMULATOR_JAR"):
        return os.environ["ROOST_FIRESTORE_EMULATOR_JAR"]
    if not gcloud:
        sys.exit("bench firestore: no gcloud on PATH (the emulator comes with the Google Cloud SDK)")
    root = os.path.dirname(os.path.dirname(os.path.realpath(gcloud)))
    return os.path.join(root, "platform/cloud-firestore-emulator/cloud-firestore-emulator.jar")


def start_emulator():
    port = free_port()
    log = open(os.path.join(BENCH, "emulator.log"), "w")
    process = subprocess.Popen(
        ["java", "-cp", emulator_jar(), "com.google.cloud.datastore.emulator.firestore.CloudFirestore", "start",
         "--host=127.0.0.1", f"--port={port}", "--database-mode=firestore-native",
         f"--websocket_port={free_port()}"], stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read().startswith(b"Ok"):
                return process, f"127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    process.kill()
    sys.exit("bench firestore: the emulator did not start (see emulator.log)")


def timed(command, env):
    start = time.monotonic()
    result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"bench firestore: {command[0]} failed: {result.stderr[-2000:]}")
    return elapsed, result.stdout


PYTHON_READ = """
import sys
from google.cloud import firestore
client = firestore.Client(project=sys.argv[1])
print(sum(1 for g in sys.argv[2:] for _ in client.collection_group(g).stream()))
"""


def curl_commands(host, folder):
    url = f"http://{host}/v1/projects/{PROJECT}/databases/(default)/documents:runQuery"
    commands = []
    for group in GROUPS:
        body = json.dumps({"structuredQuery": {"from": [{"collectionId": group, "allDescendants": True}]}})
        commands.append(["curl", "-sS", "--fail", "-X", "POST", "-H", "Content-Type: application/json",
                         "-H", "Authorization: Bearer owner", "--data", body, url,
                         "-o", os.path.join(folder, group + ".json")])
    return commands


def curl_sequential(host, folder, env):
    start = time.monotonic()
    for command in curl_commands(host, folder):
        subprocess.run(command, env=env, check=True)
    return time.monotonic() - start


def curl_parallel(host, folder, env):
    start = time.monotonic()
    processes = [subprocess.Popen(command, env=env) for command in curl_commands(host, folder)]
    if any(p.wait() != 0 for p in processes):
        sys.exit("bench firestore: curl failed")
    return time.monotonic() - start


def main():
    size = sys.argv[1] if len(sys.argv) > 1 else "M"
    if size not in SIZES:
        sys.exit(f"bench firestore: unknown size {size} (S, M or L)")
    for need, what in [(ROOST, "the release binary (make build)"), (PYTHON, "the test venv (make test-deps)")]:
        if not os.path.exists(need):
            sys.exit(f"bench firestore: {need} missing: {what}")
    os.makedirs(BENCH, exist_ok=True)
    store = os.path.join(BENCH, f"firestore-{size}")
    if not os.path.isdir(store):
        subprocess.run([sys.executable, os.path.join(SHARED, "bench", "gen_store.py"), store] + SIZES[size]
                       + ["--seed", "1", "--force"], check=True, stdout=subprocess.DEVNULL)
    process, host = start_emulator()
    try:
        env = dict(os.environ, FIRESTORE_EMULATOR_HOST=host, GOOGLE_CLOUD_PROJECT=PROJECT)
        load, _ = timed([ROOST, "import", store, "--to", f"firestore://{PROJECT}", "--force"], env)
        scratch = tempfile.mkdtemp(prefix="roost-bench-fs-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
        _, counted = timed([PYTHON, "-c", PYTHON_READ, PROJECT] + GROUPS, env)
        documents = int(counted.strip())
        times = {"roost": [], "python": [], "curl, one after another": [], "curl, all at once": []}
        for _ in range(RUNS):
            times["roost"].append(timed([ROOST, "check", "--store", f"firestore://{PROJECT}"], env)[0])
            times["python"].append(timed([PYTHON, "-c", PYTHON_READ, PROJECT] + GROUPS, env)[0])
            times["curl, one after another"].append(curl_sequential(host, scratch, env))
            times["curl, all at once"].append(curl_parallel(host, scratch, env))
        shutil.rmtree(scratch, ignore_errors=True)
    finally:
        process.kill()
        process.wait()
    medians = {k: statistics.median(v) for k, v in times.items()}
    floor = min(medians["curl, one after another"], medians["curl, all at once"])
    lines = [f"### Reading the database: {size} ({documents:,} documents in the emulator; RUNS={RUNS}, medians)", "",
             f"Written into the emulator by `roost import --to firestore://` in {load:.1f} s.", "",
             "| reader | wall (s) | documents/s | vs roost |", "| --- | ---: | ---: | ---: |"]
    for name, value in medians.items():
        lines.append(f"| {name} | {value:.2f} | {documents / value:,.0f} | {value / medians['roost']:.2f}× |")
    lines += ["", f"Roost is {medians['python'] / medians['roost']:.2f}× as fast as google-cloud-firestore "
              f"and takes {medians['roost'] / floor:.2f}× the curl floor (target: ≥ 2× and ≤ 1.3×).", ""]
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(REPO, "docs/benchmarks.md"), "a") as results:
        results.write("\n" + time.strftime("%Y-%m-%d") + " " + os.environ.get("NOTE", "") + "\n\n" + text)


if __name__ == "__main__":
    main()
