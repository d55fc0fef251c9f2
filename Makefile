# The dircache tools.  `make` builds every tool here, `make test` runs
# t/ under prove, `make test SANITIZE=1` does both under ASan+UBSan.

CC ?= cc
CFLAGS ?= -O2 -g -Wall -Wextra
LDLIBS = -lz -lcrypto -lpthread
prefix ?= /usr/local
bindir = $(prefix)/bin
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
	checkout-cache show-diff diff-tree cat-file fsck-cache
LIB_OBJS = read-cache.o sha1_file.o object.o date.o diff.o quote.o usage.o
LIB = libcache.a
HDRS = cache.h diff.h

all: $(PROGRAMS)

# Objects are rebuilt when the flags change (SANITIZE=1 and back).
BUILD-FLAGS: FORCE
	@echo '$(CC) $(CFLAGS) $(LDFLAGS)' > BUILD-FLAGS.new
	@cmp -s BUILD-FLAGS.new BUILD-FLAGS && rm BUILD-FLAGS.new || \
		mv BUILD-FLAGS.new BUILD-FLAGS

%.o: %.c $(HDRS) BUILD-FLAGS
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(PROGRAMS): %: %.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

test: all
	$(PROVE) $(PROVE_OPTS) t/t[0-9]*.sh

demo: all
	@sh t/demo.sh

bench: all
	@sh bench/run

install: all
	$(INSTALL) -d $(DESTDIR)$(bindir)
	$(INSTALL) -m 755 $(PROGRAMS) $(DESTDIR)$(bindir)

clean:
	rm -f $(PROGRAMS) *.o $(LIB) BUILD-FLAGS BUILD-FLAGS.new
	rm -rf t/trash-*

.PHONY: all test demo bench install clean FORCE
