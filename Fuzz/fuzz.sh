#!/bin/sh
# `make fuzz`: builds the targets, then runs each for $FUZZ_SECONDS (default 60), one after
# another (FUZZ_PARALLEL=1: all at once). Usage: Fuzz/fuzz.sh [target…]
# New inputs go to a scratch folder first, then only those adding coverage are merged into
# Fuzz/corpus/<target>/ (kept small: at most $FUZZ_KEEP files, none over 4 KiB but seeds).
# Crashes, timeouts and OOMs land in Fuzz/crashes/ (git-ignored); the exit status is 1 if any.
set -u
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-60}
KEEP=${FUZZ_KEEP:-200}
targets=${*:-store-reader caption template}
Fuzz/build.sh $targets || exit 2
mkdir -p Fuzz/crashes Fuzz/logs

run() { # target
    t=$1
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/roost-fuzz-$t.XXXXXX")
    mkdir -p "Fuzz/corpus/$t"
    echo "fuzzing $t for ${SECONDS_EACH}s (log: Fuzz/logs/$t.log)"
    "Fuzz/build/$t" -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="Fuzz/crashes/$t-" \
        "$scratch" "Fuzz/corpus/$t" >"Fuzz/logs/$t.log" 2>&1
    status=$?
    "Fuzz/build/$t" -merge=1 -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
        "Fuzz/corpus/$t" "$scratch" >"Fuzz/logs/$t.merge.log" 2>&1
    rm -rf "$scratch"
    # Cap the kept corpus: drop big non-seed files, then the largest until $KEEP remain.
    find "Fuzz/corpus/$t" -type f ! -name 'seed-*' -size +4k -delete
    n=$(ls "Fuzz/corpus/$t" | wc -l)
    if [ "$n" -gt "$KEEP" ]; then # re-minimise by coverage, seeds first so they stay
        min=$(mktemp -d "${TMPDIR:-/tmp}/roost-fuzz-min-$t.XXXXXX")
        cp "Fuzz/corpus/$t"/seed-* "$min"/ 2>/dev/null
        "Fuzz/build/$t" -merge=1 -max_len=65536 -timeout=5 -rss_limit_mb=2048 "$min" "Fuzz/corpus/$t" \
            >>"Fuzz/logs/$t.merge.log" 2>&1 && { rm -rf "Fuzz/corpus/$t"; mv "$min" "Fuzz/corpus/$t"; chmod 755 "Fuzz/corpus/$t"; }
        rm -rf "$min"
        n=$(ls "Fuzz/corpus/$t" | wc -l)
    fi
    if [ "$n" -gt "$KEEP" ]; then
        ls -S "Fuzz/corpus/$t" | grep -v '^seed-' | head -n $((n - KEEP)) | sed "s|^|Fuzz/corpus/$t/|" | xargs rm -f
    fi
    grep -E 'DONE +cov|stat::number_of_executed_units|stat::average_exec_per_sec|^SUMMARY|==ERROR|Fatal error|deadly signal|timeout' \
        "Fuzz/logs/$t.log" | sed "s|^|  $t: |" | head -20
    return $status
}

failed=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
    pids=""
    for t in $targets; do run "$t" & pids="$pids $!"; done
    for p in $pids; do wait "$p" || failed=1; done
else
    for t in $targets; do run "$t" || failed=1; done
fi
found=$(find Fuzz/crashes -maxdepth 1 -type f | sort)
if [ -n "$found" ]; then
    echo "crash/timeout/oom inputs (reproduce: Fuzz/build/<target> <file>):"; echo "$found"
fi
exit $failed
