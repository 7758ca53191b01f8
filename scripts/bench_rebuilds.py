#!/usr/bin/env python3
"""Two (or more) Roost binaries' rebuilds compared phase by phase, runs interleaved:

    scripts/bench_rebuilds.py [--runs N] [--kinds caption,like,none,rename,template] [--store DIR] BINARY...

Each binary gets its own copy of the store (default: $BENCH_DIR/store-M, made by
`scripts/bench M`) and of templates/, output and cache folder under $BENCH_DIR/rebuilds/, one
full build and one rebuild with no change. Then for each kind (default: caption, like, none),
N rounds: the same edit in every copy (a word appended to the first tweet's caption,
`bench_edits.py caption`; a like of that tweet by the next user, not its author, who has none,
`bench_edits.py like`; a word appended to the fullname of the user with the most tweets,
`bench_edits.py rename`; an HTML comment added to tweet.mustache, `bench_edits.py template`;
or nothing), 1.2 s for the
stamps to settle, then one `ROOST_TIMINGS=1 roost build --quiet` per binary, their order
reversed every other round (a busy moment then weighs on both alike), each after an untimed
`sync`, as in `scripts/bench` (a build timed while earlier builds' files are still being
written back to disk shares the cores with that writeback, and removes files not yet on
disk, which on a file system mounted with `discard` is far cheaper than removing written
ones). Prints, per binary and kind, the median wall time of the rebuilds and each phase's
mean wall and CPU time.

Measured this way, not with two runs of `scripts/bench`, because on a shared machine the
noise between runs minutes apart is larger than what one change saves."""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BENCH = os.environ.get("BENCH_DIR", "/tmp/bench")
EDITS = os.path.join(REPO, "scripts", "bench_edits.py")
TIMING = re.compile(r"timing: (.+?)\s+([0-9.]+) s\s+cpu ([0-9.]+) s")


def build(binary, work):
    """One timed build of `work`'s store, on a quiet disk: (wall seconds, {phase: (wall, cpu)})."""
    subprocess.run(["sync"], check=True)
    start = time.monotonic()
    done = subprocess.run(
        [binary, "build", "--quiet", "--store", f"{work}/store", "--templates", f"{work}/templates",
         "--cache", f"{work}/cache", "--output", f"{work}/out"],
        env=dict(os.environ, ROOST_TIMINGS="1"), capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"bench_rebuilds: {binary} failed:\n{done.stderr}")
    phases = {}
    for line in done.stderr.splitlines():
        match = TIMING.match(line)
        if match:
            phases[match.group(1).strip()] = (float(match.group(2)), float(match.group(3)))
    return wall, phases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--kinds", default="caption,like,none")
    parser.add_argument("--store", default=os.path.join(BENCH, "store-M"))
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    if not os.path.isdir(args.store):
        sys.exit(f"bench_rebuilds: no store at {args.store} (scripts/bench M makes it)")
    kinds = args.kinds.split(",")
    for kind in kinds:
        if kind not in ("caption", "like", "none", "rename", "template"):
            sys.exit(f"bench_rebuilds: unknown kind '{kind}' (caption, like, none, rename or template)")
    binaries = [os.path.abspath(b) for b in args.binaries]
    works = [os.path.join(BENCH, "rebuilds", str(k)) for k in range(len(binaries))]
    for work in works:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(f"{work}/cache")
        shutil.copytree(args.store, f"{work}/store")
        shutil.copytree(os.path.join(REPO, "templates"), f"{work}/templates")
    time.sleep(1.5)
    picked = subprocess.run(["python3", EDITS, "pick", f"{works[0]}/store"], capture_output=True, text=True,
                            check=True).stdout.split("\n")
    tweet, heavy = picked[0], picked[2]
    tweet_id = os.path.basename(tweet)
    with open(f"{works[0]}/store/{tweet}", encoding="utf-8") as f:
        author = json.load(f).get("uid")
    users = sorted(name[:-5] for name in os.listdir(f"{works[0]}/store/users")
                   if name.endswith(".json") and name[:-5] != author)
    full = {}
    for binary, work in zip(binaries, works):
        full[binary] = build(binary, work)[0]
        build(binary, work)
    results = {}
    for kind in kinds:
        for run in range(args.runs):
            for work in works:
                if kind == "caption":
                    subprocess.run(["python3", EDITS, "caption", f"{work}/store/{tweet}", f"rebuild{run}"], check=True)
                elif kind == "rename":
                    subprocess.run(["python3", EDITS, "rename", f"{work}/store/{heavy}", f"rebuild{run}"], check=True)
                elif kind == "template":
                    subprocess.run(["python3", EDITS, "template", f"{work}/templates/tweet.mustache",
                                    f"<!-- rebuild {run} -->"], check=True)
                elif kind == "like":
                    liker = next(u for u in users
                                 if not os.path.exists(f"{work}/store/users/{u}/user-likes/{tweet_id}"))
                    subprocess.run(["python3", EDITS, "like", f"{work}/store/users/{liker}/user-likes/{tweet_id}"],
                                   check=True)
            time.sleep(1.2)
            pairs = list(zip(binaries, works))
            for binary, work in pairs if run % 2 == 0 else reversed(pairs):
                wall, phases = build(binary, work)
                walls, by_phase = results.setdefault((binary, kind), ([], {}))
                walls.append(wall)
                for name, value in phases.items():
                    by_phase.setdefault(name, []).append(value)
    for binary in binaries:
        print(f"{binary}: full build {full[binary]:.2f} s")
        for kind in kinds:
            walls, by_phase = results[(binary, kind)]
            print(f"  {kind}: median {statistics.median(walls):.3f} s ({min(walls):.3f}..{max(walls):.3f}),"
                  f" {len(walls)} rebuilds; phases, mean wall / CPU s:")
            for name, values in by_phase.items():
                print(f"    {name:22s} {statistics.mean(w for w, _ in values):.3f} / "
                      f"{statistics.mean(c for _, c in values):.3f}")


if __name__ == "__main__":
    main()
