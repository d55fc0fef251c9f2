# The dircache tools.  `make` builds every tool here, `make test` runs
# t/ under prove, `make test SANITIZE=1` does both under ASan+UBSan.

CC ?= cc
CFLAGS ?= -O2 -g -Wall -Wextra
# libcrypto and zlib are linked statically: the dynamic libcrypto's
# relocations alone cost each tool about half a millisecond at every
# start, and scripts run tools by the thousand.  STATIC_LIBS= links
# them dynamically.
STATIC_LIBS ?= 1
ifeq ($(STATIC_LIBS),1)
LDLIBS = -Wl,-Bstatic -lcrypto -lz -Wl,-Bdynamic -lpthread
else
LDLIBS = -lz -lcrypto -lpthread
endif
prefix ?= /usr/local
bindir = $(prefix)/bin
# The manual pages: the tools and the front end look for theirs in
# ../share/man/man1 beside themselves, so keep mandir there.
mandir = $(prefix)/share/man
man1dir = $(mandir)/man1
DESTDIR ?=
INSTALL ?= install
PROVE ?= prove
PROVE_OPTS ?= -j2

ifeq ($(SANITIZE),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

PROGRAMS = init-db update-cache write-tree commit-tree read-tree \
	checkout-cache show-diff diff-tree cat-file fsck-cache merge-file
PROGRAMS += merge-cache merge-one-file
PROGRAMS += verify-pack unpack-objects
PROGRAMS += index-pack prune-packed prune
PROGRAMS += pack-objects show-index

# The library, libcache.a, lowest layer first: a file calls only files
# listed before it (cache.h's map is in the same order), which `make
# check-layers` checks on the objects.
#
# The base: messages and memory, ids as text, path rules, setup, the
# thread pool, lock files, nameless files, dates.
LIB_OBJS = usage.o cpu.o sha1dc.o hash.o mbuf.o hex.o path.o
LIB_OBJS += config.o
LIB_OBJS += alt-chain.o
LIB_OBJS += setup.o parallel.o lockfile.o csum-file.o nameless.o date.o
# git's formats: zlib (our inflate and deflate), object streams, deltas,
# base 85.
LIB_OBJS += inflate-table.o inflate-huffman.o inflate.o deflate-block.o \
	deflate.o stream.o patch-delta.o base85.o diff-delta.o
# The object store: loose objects, the alternates, packs (idx, delta-base
# cache, mapping, list, reading, checking), the one reader, writing,
# packs written, and write_sha1_file with its promises on top.
LIB_OBJS += loose.o alternates.o pack-idx.o pack-cache.o pack-map.o \
	pack-list.o pack-read.o pack-check.o object-read.o object-write.o \
	pack-write.o promise.o
LIB_OBJS += pack-resolve.o
LIB_OBJS += pack-delta.o
LIB_OBJS += promisor.o
# Objects parsed, refs, fsck's checks, names; work-tree files in the store.
LIB_OBJS += object.o refs.o fsck.o sha1_name.o worktree.o
LIB_OBJS += check-later.o
LIB_OBJS += diff-ahead.o
LIB_OBJS += tree-diff.o
# The index, and what the work tree holds beside it (globs, excludes).
LIB_OBJS += cache-tree.o
LIB_OBJS += read-cache.o index-ondisk.o index-parse.o index-split.o index-read.o \
	index-write.o
LIB_OBJS += index.o wildmatch.o exclude.o dir.o
# fsck-cache's phases: the table of objects, reading them, reachability.
LIB_OBJS += fsck-table.o fsck-read.o fsck-reach.o
# Trees into the index and the work tree; read-tree's merges; history.
LIB_OBJS += tree-ahead.o
LIB_OBJS += checkout.o tree-list.o tree-merge.o history.o revision.o
# Diffs and merges of files, and quoted paths in them.
LIB_OBJS += diff-slide.o diff-search.o diff.o quote.o diff-print.o merge.o
LIB_OBJS += diff-rename.o
LIB_OBJS += log-diff.o
LIB_OBJS += decorate.o
# Patches: parsed, placed, applied, written, counted.
LIB_OBJS += patch-place.o patch-name.o patch-binary.o patch-parse.o \
	patch-apply.o patch-stat.o patch-write.o patch-check.o
# Mail and commits: mailboxes, commits made in process, resets, am state.
LIB_OBJS += mail-decode.o mbox.o mail.o mail-message.o ident.o \
	commit-write.o reset.o am-state.o am-touched.o
# The porcelain (issue 13): the gate and ref tools it needs, and the
# dircache front end, POSIX shell scripts built from dircache*.sh.
PROGRAMS += verify-objects update-ref rev-parse mktag
PROGRAMS += reset-cache var
SCRIPT_SH = dircache.sh $(wildcard dircache-*.sh)
SCRIPTS = $(filter-out dircache-lib,$(SCRIPT_SH:.sh=))
LIB = libcache.a
HDRS = cache.h diff.h diff-internal.h
HDRS += checkout.h tree-merge.h index-internal.h fsck-cache.h
# The listing tools (issue 12).
PROGRAMS += ls-tree rev-list merge-base ls-files diff-cache
HDRS += history.h exclude.h
HDRS += pack.h deflate.h inflate.h rfc1951.h
PROGRAMS += apply
HDRS += patch.h patch-internal.h
PROGRAMS += mailsplit mailinfo applymbox
PROGRAMS += wt-status add-files
PROGRAMS += log-tree
PROGRAMS += diff-stat
HDRS += mail.h commit-write.h am-state.h
HDRS += log.h

# What dircache --version says.
DIRCACHE_VERSION = 0.30

all: $(PROGRAMS) $(SCRIPTS)

$(SCRIPTS): %: %.sh Makefile
	rm -f $@ $@+
	sed 's/@@DIRCACHE_VERSION@@/$(DIRCACHE_VERSION)/' $< >$@+
	chmod +x $@+
	mv $@+ $@

# Objects are rebuilt when the flags change (SANITIZE=1 and back).
BUILD-FLAGS: FORCE
	@echo '$(CC) $(CFLAGS) $(LDFLAGS) $(LDLIBS)' > BUILD-FLAGS.new
	@cmp -s BUILD-FLAGS.new BUILD-FLAGS && rm BUILD-FLAGS.new || \
		mv BUILD-FLAGS.new BUILD-FLAGS

%.o: %.c $(HDRS) BUILD-FLAGS
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(PROGRAMS): %: %.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# The unit tests' driver of the library (t/t0100-library.sh).
TEST_TOOL = t/helper/test-tool

$(TEST_TOOL): $(TEST_TOOL).c $(LIB) $(HDRS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# The layers of the library (t/check-layers.py): no cycle of calls
# between its files, and (LAYER_ORDER) none to a file listed later.
PYTHON ?= python3
LAYER_ORDER = --order
# Pairs of files allowed to call each other (a.o:b.o ...): none.
LAYER_CYCLES_ALLOWED =

check-layers: $(LIB_OBJS)
	$(PYTHON) t/check-layers.py $(LAYER_ORDER) \
		$(addprefix --allow ,$(LAYER_CYCLES_ALLOWED)) $(LIB_OBJS)

# The trash directories go on tmpfs when there is one with room for
# them (two tests at once take 300 MB; a small /dev/shm, as a container
# has, would fail the full-disk tests with the wrong error), one
# directory a work tree (TEST_ROOT= keeps them in t/): on disk, creating
# and removing the tests' files costs more than the tools' work.
SHM_NEEDED_KB = 1048576
TEST_ROOT ?= $(shell test -d /dev/shm && test -w /dev/shm && \
	test "$$(df -Pk /dev/shm | awk 'NR == 2 { print $$4 }')" -ge \
		$(SHM_NEEDED_KB) 2>/dev/null && echo \
	/dev/shm/dircache-test-$$(printf %s '$(CURDIR)' | cksum | cut -d' ' -f1))

# VALGRIND=1 runs every tool under valgrind (slow).  HASH=sha256 runs
# the suite on SHA-256 stores (ours and git's alike).
test: all $(TEST_TOOL)
	$(MAKE) -s check-layers
	TEST_ROOT='$(TEST_ROOT)' TEST_VALGRIND=$(VALGRIND) \
		DIRCACHE_TEST_DEFAULT_HASH=$(HASH) \
		$(PROVE) $(PROVE_OPTS) t/t[0-9]*.sh

print-programs:
	@echo $(PROGRAMS)

demo: all
	@sh t/demo.sh

bench: all
	@QUICK=$(QUICK) CPU=$(CPU) HASH=$(HASH) sh bench/run

# libFuzzer targets (clang): `make fuzz` builds them, `make fuzz-run
# FUZZ_SECONDS=600` runs each on its seed corpus under ASan and UBSan.
FUZZERS = fuzz/fuzz-index fuzz/fuzz-object fuzz/fuzz-tree \
	fuzz/fuzz-commit fuzz/fuzz-date fuzz/fuzz-delta fuzz/fuzz-merge
FUZZERS += fuzz/fuzz-wildmatch
FUZZERS += fuzz/fuzz-idx
FUZZERS += fuzz/fuzz-patch
FUZZERS += fuzz/fuzz-mail
FUZZERS += fuzz/fuzz-inflate fuzz/fuzz-deflate
FUZZ_CC ?= clang
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_SECONDS ?= 60
LIB_SRCS = $(LIB_OBJS:.o=.c)

fuzz: $(FUZZERS)

fuzz/fuzz-%: fuzz/fuzz-%.c $(LIB_SRCS) $(HDRS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(LIB_SRCS) $(LDLIBS)

fuzz-run: fuzz
	@for f in $(FUZZERS); do \
		n=$${f#fuzz/fuzz-}; mkdir -p fuzz/work-$$n && \
		echo "== $$n" && \
		$$f -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=2 \
			-print_final_stats=1 fuzz/work-$$n fuzz/corpus/$$n \
			2>&1 | grep -E "^(stat::|#[0-9]+ *DONE|==[0-9]+==ERROR)|SUMMARY" \
			|| exit 1; \
	done

install: all
	$(INSTALL) -d $(DESTDIR)$(bindir)
	$(INSTALL) -m 755 $(PROGRAMS) $(DESTDIR)$(bindir)
	$(INSTALL) -m 755 $(SCRIPTS) $(DESTDIR)$(bindir)
	$(INSTALL) -m 644 dircache-lib.sh $(DESTDIR)$(bindir)
	$(INSTALL) -d $(DESTDIR)$(man1dir)
	$(if $(MAN_PAGES),$(INSTALL) -m 644 $(MAN_PAGES) $(DESTDIR)$(man1dir))

# The manual pages, one Documentation/<name>.1 (man(7)) for each tool
# and porcelain command: `make doc-lint` checks them with mandoc and
# groff, warnings included (t/t0010-man.sh does too).
MAN_PAGES = $(wildcard Documentation/*.1)
MANDOC ?= mandoc
GROFF ?= groff

doc-lint:
	$(MANDOC) -T lint -W warning $(MAN_PAGES)
	@for f in $(MAN_PAGES); do \
		$(GROFF) -man -ww -z $$f 2>&1 | sed "s|^|$$f: |" | \
			grep . && exit 1; \
	done; exit 0

clean:
	rm -f $(PROGRAMS) *.o $(LIB) $(TEST_TOOL) BUILD-FLAGS BUILD-FLAGS.new
	rm -f $(SCRIPTS)
	rm -rf t/trash-* t/valgrind-bin t/python-bin $(FUZZERS) fuzz/work-*

.PHONY: all test demo bench install clean fuzz fuzz-run print-programs FORCE \
	check-layers doc-lint
