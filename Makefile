# The two commands of the README: `make` (install, build, render content/ into public/)
# and `make test`.
SWIFT ?= swift
ROOST := .build/release/roost

.PHONY: all deps build site test clean fuzz

all: site

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build -c release --product roost

site: build
	$(ROOST) check --store content

test: deps
	$(SWIFT) test --parallel

clean:
	rm -rf .build public

# Fuzzing (Fuzz/README.md): builds the libFuzzer targets and runs each for FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/fuzz.sh
