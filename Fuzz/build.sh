#!/bin/sh
# Builds the libFuzzer targets into Fuzz/build/ (SwiftPM cannot build fuzzers).
# Each target is swiftc over the sources of the module it exercises plus the target file,
# compiled as that module (so internal helpers are reachable); modules it imports are built
# first as instrumented objects. Usage: Fuzz/build.sh [target…]   (default: all three)
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SWIFTC=${SWIFTC:-swiftc}
OUT=Fuzz/build
# lld: gold warns once per ASan helper; -package-name: Support's API has `package` access.
FLAGS="-sanitize=fuzzer,address -parse-as-library -O -g -wmo -package-name roost"
mkdir -p "$OUT"

# A library module as one instrumented object plus its .swiftmodule.
module() { # name sources…
    name=$1; shift
    $SWIFTC $FLAGS -module-name "$name" -emit-module -emit-module-path "$OUT/$name.swiftmodule" \
        -c "$@" -o "$OUT/$name.o"
}

# An executable, linked in $OUT: swiftc -g leaves <Module>-1.swiftmodule files in the current folder.
exe() { # target swiftc-arguments… (paths relative to the repository root)
    t=$1; shift
    (cd "$OUT" && $SWIFTC $FLAGS -use-ld=lld "$@" -o "$t")
}

targets=${*:-store-reader caption template}
for t in $targets; do
    # Up to date when the binary is newer than every file it is built from.
    case $t in
    store-reader) inputs="Sources/Support Sources/JSON Sources/Store" ;;
    caption) inputs="Sources/Support Sources/Markdown Sources/CCmark" ;;
    template) inputs="Sources/Support Sources/Mustache" ;;
    *) inputs="" ;;
    esac
    if [ -x "$OUT/$t" ] && [ -z "$(find $inputs "Fuzz/$t.swift" Fuzz/build.sh -newer "$OUT/$t" | head -1)" ]; then
        continue
    fi
    echo "building $t" >&2
    module Support Sources/Support/*.swift
    case $t in
    store-reader)
        module JSON Sources/JSON/*.swift
        exe store-reader -I . -module-name Store "$ROOT"/Sources/Store/*.swift "$ROOT/Fuzz/store-reader.swift" JSON.o Support.o ;;
    caption)
        exe caption -I . -I "$ROOT/Sources/CCmark" -module-name Markdown "$ROOT"/Sources/Markdown/*.swift \
            "$ROOT/Fuzz/caption.swift" Support.o -lcmark ;;
    template)
        exe template -I . -module-name Mustache "$ROOT"/Sources/Mustache/*.swift "$ROOT/Fuzz/template.swift" Support.o ;;
    *) echo "unknown target $t" >&2; exit 2 ;;
    esac
done
