# sunset — audits a Paddle-style tree for remnants of the legacy executors.
#
#   make          build build/sunset
#   make run      install missing dependencies, build, scan testdata/paddle-mini, write reports/
#   make test     install missing dependencies, build, run every test
#   make core-test  core and base alone (no libclang, no tree-sitter) and the unit tests of core
#   make sanitize the test suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz-regress  build the libFuzzer harnesses (src/fuzz/), replay their committed inputs
#                 (deterministic: CI's fuzz step); `make fuzz` is the same target
#   make fuzz-explore SECONDS=N  random exploration, N seconds per harness (default 60)
#   make fuzz-coverage  lines of src/ each harness reaches on its committed inputs
#   make valgrind valgrind memcheck on a full scan of testdata/paddle-mini
#   make install PREFIX=/usr/local ; make uninstall
#   make GRAMMAR_TARBALL=path/tree-sitter-python-0.23.6.tgz  build offline (no npm)
#   make dist     build/sunset-VERSION.tar.gz: the source with the grammar inside (builds offline)
#   make deb      build/sunset_VERSION_amd64.deb (dpkg-buildpackage on that tarball)
#   make deb-test install, use and remove that package in a fresh Debian chroot (root, network)
#   make image    the container image sunset:VERSION (Dockerfile; docker or podman)
#   make rules-doc  regenerate rules/RULES.md (the rule reference) from rules/*.json
#
# Variables are evaluated lazily so that `make run` on a fresh machine can install the
# packages first and then build in a sub-make that sees them.

PREFIX ?= /usr/local
BUILD ?= build
CC ?= cc
CFLAGS ?= -O2 -g
# libclang's prefix (include/ and lib/ below it): llvm-config's when there is one, else the
# newest /usr/lib/llvm-*; the binary's RUNPATH is its lib/ (make LIBCLANG_DIR=... overrides).
LLVM_CONFIG ?= llvm-config
LIBCLANG_DIR ?= $(or $(shell $(LLVM_CONFIG) --prefix 2>/dev/null),$(lastword $(sort $(wildcard /usr/lib/llvm-*))))
# A pre-fetched tree-sitter-python-VERSION.tgz: build offline (no npm). A source tarball
# (make dist) carries it in vendor/, used by default.
GRAMMAR_TGZ = $(lastword $(shell cat scripts/tree-sitter-python.sha256))
GRAMMAR_TARBALL ?= $(wildcard vendor/$(GRAMMAR_TGZ))
# The binary's RUNPATH: libclang's lib/; RPATH= for none (a distribution's package, whose
# libclang is on the default library path).
RPATH ?= $(LIBCLANG_DIR)/lib
# The version's one place: the file VERSION (scripts/bump-version.sh changes it and the files
# that repeat it).
VERSION = $(shell cat VERSION)
comma := ,
# Where sunset's sources are published (a GitHub-style URL), for SARIF's informationUri and
# each rule's helpUri (rules/RULES.md at the built commit); default: the checkout's origin.
SUNSET_URL ?= $(shell git config --get remote.origin.url 2>/dev/null | \
	sed -e 's|^git@\([^:]*\):|https://\1/|' -e 's|^ssh://git@|https://|' -e 's|\.git$$||' | grep '^https://')
PKGS = tree-sitter libcjson libpcre2-8 libgit2
GRAMMAR_DIR = $(BUILD)/grammar
GRAMMAR_SRC = $(GRAMMAR_DIR)/package/src

override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -Wno-comment -pthread \
	-Isrc -I$(LIBCLANG_DIR)/include $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
override CFLAGS += -DSUNSET_VERSION='"$(VERSION)"'
# Passing a const pointer where a writable one is wanted is an error, not a warning: the parsed
# command line is const in every command (src/cmd/cli.h), and vec_push(&c->paths, ...) must
# not build.
override CFLAGS += $(if $(findstring clang,$(CC)),-Werror=incompatible-pointer-types-discards-qualifiers,-Werror=discarded-qualifiers)
override LDLIBS += -pthread -L$(LIBCLANG_DIR)/lib $(if $(RPATH),-Wl$(comma)-rpath$(comma)$(RPATH)) \
	$(shell pkg-config --libs $(PKGS) 2>/dev/null) -ldl -lm

# One source list: everything under src/ (two folders deep) except the unit tests and the
# fuzz harnesses.
SRCS := $(sort $(filter-out src/test/% src/fuzz/%,$(wildcard src/*.c src/*/*.c src/*/*/*.c)))
HDRS := $(filter-out src/fuzz/%,$(wildcard src/*.h src/*/*.h src/*/*/*.h))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(SRCS:%.c=$(BUILD)/obj/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
GRAMMAR_OBJS := $(GRAMMAR_DIR)/parser.o $(GRAMMAR_DIR)/scanner.o
# A frontend's objects: src/lang/NAME.c, or every file of the folder src/lang/NAME/.
lang_objs = $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard src/lang/$(1).c src/lang/$(1)/*.c))
CLANG_OBJS = $(call lang_objs,clang)
# A frontend's unit test links that frontend with the fact recorder instead of the engine.
LANG_TEST_OBJS := $(BUILD)/obj/src/base/util.o $(BUILD)/obj/src/base/cmake.o $(BUILD)/obj/src/base/json.o $(BUILD)/obj/src/base/normalize.o $(BUILD)/obj/src/test/recorder.o \
	$(GRAMMAR_OBJS)
# Every test program links the leak check (src/test/leakcheck.c): a program that exits with an
# allocation of the hook still live fails, whatever its tests said.
LEAKCHECK := $(BUILD)/obj/src/test/leakcheck.o
UNIT_TESTS := $(patsubst src/test/%.c,$(BUILD)/test/%,$(wildcard src/test/test_*.c))
LANG_TESTS := $(filter $(BUILD)/test/test_lang_%,$(UNIT_TESTS))
ENGINE_TESTS := $(filter-out $(LANG_TESTS),$(UNIT_TESTS))
# core stands alone (README "Architecture"): core/ and base/ built again without libclang's or
# tree-sitter's headers and linked without their libraries, with the unit tests that need no
# frontend (test_seam hands the engine a stub frontend of its own).
CORE_PKGS = libcjson libpcre2-8 libgit2
CORE_CFLAGS = $(filter-out -I$(LIBCLANG_DIR)/include $(shell pkg-config --cflags tree-sitter 2>/dev/null),$(CFLAGS))
CORE_LDLIBS = -pthread $(shell pkg-config --libs $(CORE_PKGS) 2>/dev/null) -lm -lcmocka
CORE_OBJS := $(patsubst %.c,$(BUILD)/core/obj/%.o,$(sort $(wildcard src/core/*.c src/base/*.c)))
CORE_TESTS := $(patsubst %,$(BUILD)/core/test_%,rules cache normalize util prefilter seam cmake)
# libFuzzer harnesses: linked with the engine, except fuzz_compdb (the C/C++ frontend alone,
# with the fact recorder). Built only by the fuzz targets, into build-fuzz/ (build-cov/ for
# the coverage build).
SECONDS ?= 60
FUZZ_CC_FLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
COV_FLAGS = -fprofile-instr-generate -fcoverage-mapping
FUZZ_BINS := $(patsubst src/fuzz/%.c,$(BUILD)/fuzz/%,$(wildcard src/fuzz/fuzz_*.c))
FUZZ_LANG_BINS := $(BUILD)/fuzz/fuzz_compdb
FUZZ_ENGINE_BINS := $(filter-out $(FUZZ_LANG_BINS),$(FUZZ_BINS))

.PHONY: all deps libclang-soname run test unit-tests core-test rules-test golden sanitize clean install uninstall \
	lint-headers lint-clock lint-funcs lint-paddle lint-stderr lint-paths rules-doc fuzz fuzz-bins fuzz-build fuzz-regress fuzz-explore fuzz-coverage valgrind \
	dist deb deb-test image

all: $(BUILD)/sunset

deps:
	@sh scripts/install-deps.sh

$(BUILD)/sunset: $(OBJS) $(GRAMMAR_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/obj/%.o: %.c $(HDRS) VERSION | $(GRAMMAR_SRC)/parser.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# The commit built from (a checkout of sunset itself only; "-dirty" with uncommitted edits),
# for --version and the helpUri. The two objects that print it depend on a stamp that changes
# only when it (or SUNSET_URL) does, so a new commit rebuilds them and nothing else.
GIT_COMMIT = $(if $(filter $(abspath $(CURDIR)),$(abspath $(shell git rev-parse --show-toplevel 2>/dev/null))),$(shell \
	git rev-parse --short=12 HEAD 2>/dev/null)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty))
BUILD_ID = $(GIT_COMMIT) $(SUNSET_URL)
$(BUILD)/build-id: FORCE
	@mkdir -p $(BUILD)
	@echo '$(BUILD_ID)' | cmp -s - $@ || echo '$(BUILD_ID)' >$@
$(BUILD)/obj/src/cmd/cli.o $(BUILD)/obj/src/report/sarif.o: $(BUILD)/build-id
$(BUILD)/obj/src/cmd/cli.o $(BUILD)/obj/src/report/sarif.o: override CFLAGS += \
	-DSUNSET_GIT_COMMIT='"$(GIT_COMMIT)"' -DSUNSET_URL='"$(SUNSET_URL)"'
FORCE:
# libclang is opened on the first C/C++ parse (src/lang/clang/libclang.h), by the soname of
# the one built against: its lib/libclang.so's SONAME (readelf), else that file's own name.
LIBCLANG_SONAME ?= $(or $(shell readelf -d $(LIBCLANG_DIR)/lib/libclang.so 2>/dev/null | \
	sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p'),libclang.so)
$(BUILD)/obj/src/lang/clang/libclang.o: override CFLAGS += -DSUNSET_LIBCLANG_SONAME='"$(LIBCLANG_SONAME)"'
# for debian/rules, whose package depends on the one that ships it (dlopen hides it from dh_shlibdeps)
libclang-soname:
	@echo $(LIBCLANG_SONAME)

# one recipe makes both (a grouped target): two parallel fetches into one directory raced under -j2
$(GRAMMAR_SRC)/parser.c $(GRAMMAR_SRC)/scanner.c &: scripts/tree-sitter-python.sha256 scripts/fetch-grammar.sh $(GRAMMAR_TARBALL)
	sh scripts/fetch-grammar.sh $(GRAMMAR_DIR) $(GRAMMAR_TARBALL)

# The grammar is third-party generated code: built with its own flags, warnings off.
$(GRAMMAR_DIR)/%.o: $(GRAMMAR_SRC)/%.c
	$(CC) -O2 -g -std=c11 -w -fPIC $(filter -fsanitize=%,$(CFLAGS)) -I$(GRAMMAR_SRC) -c -o $@ $<

# test_lang_NAME links lang_objs of NAME: the prerequisite list is expanded a second time,
# once the stem is known.
.SECONDEXPANSION:
$(LANG_TESTS): $(BUILD)/test/test_lang_%: src/test/test_lang_%.c $$(call lang_objs,$$*) $(LANG_TEST_OBJS) $(LEAKCHECK)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# the frontends' facts as data (testdata/facts/): every frontend, with the recorder
$(BUILD)/test/test_lang_facts: $(CLANG_OBJS) $(call lang_objs,python) $(call lang_objs,text)

$(ENGINE_TESTS): $(BUILD)/test/test_%: src/test/test_%.c $(LIB_OBJS) $(LEAKCHECK) $(GRAMMAR_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

$(FUZZ_ENGINE_BINS): $(BUILD)/fuzz/%: src/fuzz/%.c src/fuzz/fuzz_engine.h $(LIB_OBJS) $(GRAMMAR_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.h,$^) $(LDLIBS)

$(FUZZ_LANG_BINS): $(BUILD)/fuzz/%: src/fuzz/%.c $(CLANG_OBJS) $(LANG_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-bins: $(FUZZ_BINS)

run: deps
	@$(MAKE) --no-print-directory $(BUILD)/sunset
	@mkdir -p reports
	$(BUILD)/sunset scan testdata/paddle-mini --format json --output reports/paddle-mini.json
	$(BUILD)/sunset scan testdata/paddle-mini --no-color --output reports/paddle-mini.txt
	sh scripts/sample-history.sh $(BUILD)/sample-history
	$(BUILD)/sunset history --no-config -q --repo $(BUILD)/sample-history -f csv -o reports/history.csv
	$(BUILD)/sunset history --no-config -q --repo $(BUILD)/sample-history -f json -o reports/history.json
	$(BUILD)/sunset history --no-config -q --repo $(BUILD)/sample-history -f svg -o reports/history.svg
	$(BUILD)/sunset report testdata/paddle-mini -q --batches --burndown reports/history.svg --out-dir reports
	@echo "reports written: reports/paddle-mini.json reports/paddle-mini.txt reports/history.{csv,json,svg} reports/tracking.{md,json,html}"

test: deps
	@$(MAKE) --no-print-directory lint-headers lint-clock lint-funcs lint-paddle lint-stderr lint-paths
	@$(MAKE) --no-print-directory $(BUILD)/sunset unit-tests
	@$(MAKE) --no-print-directory core-test rules-test

# Every test runs sunset without the wall-clock time limit (SUNSET_PARSE_BUDGET=0): only the
# deterministic limits apply, so no machine's load can decide an outcome; a time limit is
# tested through the fake clock (src/test/fakeclock.h).
TEST_ENV = SUNSET_PARSE_BUDGET=0

unit-tests: $(UNIT_TESTS) $(BUILD)/sunset
	@set -e; for t in $(UNIT_TESTS); do echo "== $$t"; $(TEST_ENV) SUNSET_BIN=$(BUILD)/sunset $$t; done

$(BUILD)/core/obj/%.o: %.c $(HDRS) VERSION
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -c -o $@ $<

$(CORE_TESTS): $(BUILD)/core/test_%: src/test/test_%.c $(CORE_OBJS) $(BUILD)/core/obj/src/test/leakcheck.o
	$(CC) $(CORE_CFLAGS) $(LDFLAGS) -o $@ $^ $(CORE_LDLIBS)

core-test: $(CORE_TESTS)
	@set -e; for t in $(CORE_TESTS); do echo "== $$t"; $$t; done

rules-test: $(BUILD)/sunset
	$(TEST_ENV) $(BUILD)/sunset rules test
	@$(BUILD)/sunset rules show --no-config -f markdown | cmp -s - rules/RULES.md || \
		{ echo "rules/RULES.md is not what 'sunset rules show -f markdown' writes: run make rules-doc"; exit 1; }

# rules/RULES.md, the rule reference SARIF's helpUri points at, generated from rules/*.json
rules-doc: $(BUILD)/sunset
	$(BUILD)/sunset rules show --no-config -f markdown -o rules/RULES.md

# SAN_ENV: clang 14's sanitizer runtime (up to LLVM 16) takes a dynamic TLS block whose start
# lies sizeof(a glibc 2.19 TLS header) past a page for such a header and reads two words before
# it as the block's bounds; LeakSanitizer's tracer then faults at exit ("Tracer caught signal
# 11"). libclang is opened with dlopen (lang/clang/libclang.c), so libLLVM's thread_locals are
# dynamic TLS and where they land decides it: a run of test_history failed every time.
# intercept_tls_get_addr=0 keeps the runtime out of dynamic TLS; nothing of sunset's lives there.
SAN_ENV = ASAN_OPTIONS="$${ASAN_OPTIONS:+$$ASAN_OPTIONS:}intercept_tls_get_addr=0"

sanitize:
	@SUNSET_WITH_CLANG=1 sh scripts/install-deps.sh
	@$(SAN_ENV) $(MAKE) --no-print-directory BUILD=build-san CC=clang \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" build-san/sunset unit-tests rules-test

# The fuzz targets (scripts/fuzz.sh). fuzz-regress is the gate: each harness replays its
# committed seeds and crash inputs (testdata/fuzz/<harness>/, regress-* included) and a fixed
# number of mutations from -seed=1, no clock involved, so a commit always gets the same
# verdict. fuzz-explore is the open-ended search for a person or a scheduled job; see the
# README ("Fuzzing") for turning what it finds into a regression input. `make fuzz` is
# fuzz-regress.
fuzz-build:
	@SUNSET_WITH_CLANG=1 sh scripts/install-deps.sh
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang CFLAGS="-O1 -g $(FUZZ_CC_FLAGS)" \
		LDFLAGS="-fsanitize=fuzzer,address,undefined" fuzz-bins

fuzz-regress fuzz: fuzz-build
	$(SAN_ENV) sh scripts/fuzz.sh regress build-fuzz

fuzz-explore: fuzz-build
	$(SAN_ENV) sh scripts/fuzz.sh explore build-fuzz $(SECONDS)

# Coverage build (no sanitizers, llvm source-based coverage), then per-harness line counts.
fuzz-coverage:
	@SUNSET_WITH_CLANG=1 sh scripts/install-deps.sh
	@$(MAKE) --no-print-directory BUILD=build-cov CC=clang CFLAGS="-O1 -g $(COV_FLAGS) -fsanitize=fuzzer-no-link" \
		LDFLAGS="-fsanitize=fuzzer -fprofile-instr-generate" fuzz-bins
	sh scripts/fuzz-coverage.sh build-cov

# Memcheck on a full scan (-j2: the worker threads too). Suppressions: libclang's own leak
# on failed parses only (testdata/valgrind.supp).
valgrind: $(BUILD)/sunset
	@SUNSET_WITH_VALGRIND=1 sh scripts/install-deps.sh
	valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--suppressions=testdata/valgrind.supp -q \
		$(BUILD)/sunset scan testdata/paddle-mini --no-config --no-cache -q -j2 --format json --output /dev/null

# Regenerate the golden files from the tool's own output; review the diff line by line
# (testdata/paddle-mini.EXPECTED.md is the checklist) before committing.
golden: $(BUILD)/sunset rules-doc
	@mkdir -p testdata/golden
	$(TEST_ENV) $(BUILD)/sunset scan testdata/paddle-mini --no-config -q -j1 --format json --output testdata/golden/paddle-mini.json
	@for d in testdata/cli/*/; do \
		$(TEST_ENV) SUNSET=$(BUILD)/sunset sh -c "$$(cat $$d/cmd)" >$${d}stdout 2>$${d}stderr </dev/null; \
		echo $$? >$${d}exit; done
	@$(MAKE) --no-print-directory $(BUILD)/test/test_tracking
	$(TEST_ENV) SUNSET_UPDATE_GOLDEN=1 SUNSET_BIN=$(BUILD)/sunset $(BUILD)/test/test_tracking >/dev/null
	@$(MAKE) --no-print-directory $(BUILD)/test/test_facts $(BUILD)/test/test_lang_facts
	SUNSET_UPDATE_GOLDEN=1 $(BUILD)/test/test_facts >/dev/null
	SUNSET_UPDATE_GOLDEN=1 $(BUILD)/test/test_lang_facts >/dev/null
	@echo "golden files rewritten; review: git diff testdata/"

# The layering (README "Architecture"): which folder may include which, no include cycle, no
# .c file over 1,200 lines, at most three .c files loose in src/, no comment naming a file that
# does not exist, in src/ or among the checkout's scripts, rules, testdata, queries (the
# fixtures testdata/lint-headers/ and lint-headers-other/ show it still rejects one of each).
# Run by `make test`.
lint-headers:
	@sh scripts/lint-headers.sh src
	@if sh scripts/lint-headers.sh testdata/lint-headers >/dev/null; then \
		echo "lint-headers: accepts testdata/lint-headers/, whose comment names files that do not exist"; exit 1; fi
	@if sh scripts/lint-headers.sh testdata/lint-headers-other >/dev/null; then \
		echo "lint-headers: accepts testdata/lint-headers-other/, whose comment names a script that does not exist"; exit 1; fi

# Every function in src/ outside tests under 100 lines (scripts/lint-funcs.sh), but for the
# exceptions scripts/lint-funcs.allow still names; the fixture testdata/lint-funcs/ shows the
# lint still rejects a longer one. Run by `make test`.
lint-funcs:
	@sh scripts/lint-funcs.sh --allow scripts/lint-funcs.allow 100 src
	@if sh scripts/lint-funcs.sh 100 testdata/lint-funcs >/dev/null; then \
		echo "lint-funcs: accepts testdata/lint-funcs/, whose long_dispatch is over the limit"; exit 1; fi

# No Paddle macro, CMake wrapper or keyword, or task bound in src/ outside the settings loader
# and tests (scripts/lint-paddle.sh): Paddle is data, rules/00-settings.json. The exceptions
# scripts/lint-paddle.allow still names stay; the fixture testdata/lint-paddle/ shows the lint
# still rejects each kind (4 lines), and not the comments. Run by `make test`.
lint-paddle:
	@sh scripts/lint-paddle.sh --allow scripts/lint-paddle.allow src
	@n=$$(sh scripts/lint-paddle.sh --list testdata/lint-paddle | wc -l); if [ "$$n" -ne 4 ]; then \
		echo "lint-paddle: finds $$n lines in testdata/lint-paddle/, not its 4"; exit 1; fi

# No test reads the clock for its verdict (README "Tests and benchmarks"); the fixture
# testdata/lint-clock/ shows the lint still rejects what it should. Run by `make test`.
# Nothing below cmd/ writes to stderr (scripts/lint-stderr.sh): errors are returned as a
# sunset_error, notes go through sunset_note; the fixture testdata/lint-stderr/ shows the lint
# still rejects a library function that prints. Run by `make test`.
lint-stderr:
	@sh scripts/lint-stderr.sh
	@if sh scripts/lint-stderr.sh testdata/lint-stderr >/dev/null; then \
		echo "lint-stderr: accepts testdata/lint-stderr/, which prints to stderr"; exit 1; fi

# No tracked symbolic link to an absolute path or out of the tree, no tracked file naming the
# checkout's absolute path (scripts/lint-paths.sh); a fixture repository made under $(BUILD)/
# shows it still rejects each of the three. Run by `make test`.
lint-paths:
	@sh scripts/lint-paths.sh .
	@f=$(BUILD)/lint-paths; rm -rf $$f && mkdir -p $$f/in && cd $$f/in && git init -q . && \
		ln -s /etc/hostname abs && ln -s ../../outside out && echo "see $$(pwd -P)/x" > named && \
		git add abs out named && n=$$(sh $(CURDIR)/scripts/lint-paths.sh . | wc -l); \
		cd $(CURDIR) && rm -rf $$f; if [ "$$n" -ne 3 ]; then \
		echo "lint-paths: finds $$n problems in its fixture repository, not its 3"; exit 1; fi

lint-clock:
	@sh scripts/lint-clock.sh src/test
	@if sh scripts/lint-clock.sh testdata/lint-clock >/dev/null; then \
		echo "lint-clock: accepts testdata/lint-clock/, which reads the clock"; exit 1; fi

clean:
	rm -rf $(BUILD) build-san build-fuzz build-cov build-deb

install: $(BUILD)/sunset
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/sunset/rules \
		$(DESTDIR)$(PREFIX)/share/sunset/queries/python $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/sunset $(DESTDIR)$(PREFIX)/bin/sunset
	install -m 644 rules/*.json rules/SCHEMA.md rules/RULES.md $(DESTDIR)$(PREFIX)/share/sunset/rules/
	install -d $(DESTDIR)$(PREFIX)/share/sunset/rules/tracking
	install -m 644 rules/tracking/*.json $(DESTDIR)$(PREFIX)/share/sunset/rules/tracking/
	install -m 644 queries/python/*.scm $(DESTDIR)$(PREFIX)/share/sunset/queries/python/
	install -m 644 src/sunset.1 $(DESTDIR)$(PREFIX)/share/man/man1/sunset.1
	@# the CI integrations (those this checkout has), and the docs
	install -d $(DESTDIR)$(PREFIX)/share/sunset/ci $(DESTDIR)$(PREFIX)/share/doc/sunset
	for f in action.yml .pre-commit-hooks.yaml scripts/sunset-gate.yml; do \
		if [ -f $$f ]; then install -m 644 $$f $(DESTDIR)$(PREFIX)/share/sunset/ci/; fi; done
	if [ -f scripts/pre-commit ]; then install -m 755 scripts/pre-commit $(DESTDIR)$(PREFIX)/share/sunset/ci/; fi
	install -m 644 README.md CHANGELOG.md LICENSE $(DESTDIR)$(PREFIX)/share/doc/sunset/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sunset $(DESTDIR)$(PREFIX)/share/man/man1/sunset.1
	rm -rf $(DESTDIR)$(PREFIX)/share/sunset $(DESTDIR)$(PREFIX)/share/doc/sunset

# Releases (README "Installing"). dist: the source tarball, which carries the grammar and
# builds offline. deb: the Debian package, built by dpkg-buildpackage from that tarball
# unpacked in $(BUILD)/deb (git kept from finding this checkout around it), its tests run
# unless DEB_BUILD_OPTIONS=nocheck, then lintian. deb-test: scripts/test-deb.sh, the package
# installed, used from / and removed in a fresh debootstrap'ed chroot. image: the Dockerfile.
DIST_TARBALL = $(BUILD)/sunset-$(VERSION).tar.gz
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null)
DEB = $(BUILD)/sunset_$(VERSION)_$(DEB_ARCH).deb

dist: $(GRAMMAR_SRC)/parser.c
	sh scripts/dist.sh $(BUILD) $(GRAMMAR_DIR)/$(GRAMMAR_TGZ)

deb: dist
	@SUNSET_WITH_DEB=1 sh scripts/install-deps.sh
	rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb
	tar xzf $(DIST_TARBALL) -C $(BUILD)/deb
	cd $(BUILD)/deb/sunset-$(VERSION) && GIT_CEILING_DIRECTORIES=$(abspath $(BUILD)/deb) \
		dpkg-buildpackage -b -us -uc -Jauto
	lintian --fail-on error,warning,info,pedantic --info --pedantic \
		$(BUILD)/deb/sunset_$(VERSION)_$(DEB_ARCH).changes
	cp $(BUILD)/deb/sunset_$(VERSION)_$(DEB_ARCH).deb $(DEB)
	@echo "package written: $(DEB)"

deb-test:
	@test -f $(DEB) || { echo "$(DEB) is missing: run make deb first"; exit 2; }
	sh scripts/test-deb.sh $(DEB)

image: $(GRAMMAR_SRC)/parser.c
	@eng=$$(for e in docker podman; do command -v $$e >/dev/null 2>&1 && $$e info >/dev/null 2>&1 && \
		{ echo $$e; break; }; done); \
	[ -n "$$eng" ] || { echo "make image: no docker or podman that answers here"; exit 2; }; \
	set -x; $$eng build --build-arg VERSION=$(VERSION) --build-arg REVISION=$(GIT_COMMIT) \
		--build-arg SOURCE=$(SUNSET_URL) -t sunset:$(VERSION) -t sunset:latest .

-include $(OBJS:.o=.d)
