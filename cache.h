/*
 * cache.h: the map of the library every dircache tool links.
 *
 * One section per library file, lowest layer first, as the Makefile
 * lists them; a file calls only the sections above its own (the store
 * does not parse commits, the thread pool does not know the store).
 * `make check-layers` checks it on the objects (t/check-layers.py).
 * Files whose prototypes are in a side header are named here, with it:
 *
 * The base
 *   usage.c       messages, exits, memory, plain I/O, the fault model
 *   cpu.c         the CPU extensions our own code may use
 *   sha1dc.c      SHA-1, with collision detection
 *   hash.c        the repository's hash: SHA-1 or SHA-256, its sizes
 *   mbuf.c        the one growing string buffer
 *   hex.c         ids and type names as text
 *   path.c        path rules, leading symlinks, the pathspec matcher
 *   config.c      git's config files read
 *   alt-chain.c   the alternate object directories, every level
 *   setup.c       what main() does first: environment, fds, the store,
 *                 gitfiles and worktrees, the repository's format
 *   parallel.c    the thread pool
 *   lockfile.c    replacing a file under <file>.lock
 *   csum-file.c   files that end in the SHA-1 of their bytes
 *   nameless.c    files that get their name only once whole
 *   date.c        dates
 * git's formats
 *   inflate.c     a zlib stream inflated whole (inflate.h: its tables,
 *                 inflate-table.c, and decode loops, inflate-huffman.c;
 *                 rfc1951.h: what it shares with deflate.c and
 *                 deflate-block.c)
 *   deflate.c     zlib streams written (deflate.h: deflate-block.c)
 *   stream.c      an object's bytes in and out of zlib, checked
 *   patch-delta.c git's delta format
 *   base85.c      git's base-85 (binary patches)
 *   diff-delta.c  making deltas in it
 * The object store
 *   loose.c       loose objects: names, walks, listings, their files
 *   alternates.c  other object directories' loose objects
 *   pack.h        pack files: the idx (pack-idx.c), the delta-base
 *                 cache (pack-cache.c), the pack mapped (pack-map.c),
 *                 the store's packs (pack-list.c), objects out of
 *                 packs (pack-read.c), a pack verified (pack-check.c)
 *   object-read.c the one reader over its sources
 *   object-write.c loose objects written, the collision check
 *   pack-write.c  new objects as one pack file and its idx; the idx
 *                 writer and the placement of new packs
 *   pack-delta.c  (pack.h) pack-objects' delta search
 *   promise.c     write_sha1_file: now, or at the next flush
 *   promisor.c    partial clones: promisor remotes and packs
 *   pack.h        a pack read whole with no idx, deltas resolved
 *                 (pack-resolve.c: index-pack, unpack-objects)
 * Objects, refs, the work tree
 *   object.c      trees, commits and tags; walking n trees in step
 *   refs.c        reading and writing refs
 *   fsck.c        checking objects as git fsck does
 *   sha1_name.c   ids from the command line
 *   worktree.c    work-tree files in and out of the store
 *   check-later.c objects read now, checked on another core
 *   diff-ahead.c  a diff's trees read from its far end, on another core
 *   tree-diff.c   the files two trees hold differently, by pathspec
 * The index
 *   cache-tree.c  the index's cache tree (TREE): trees of directories
 *   read-cache.c  the index's entries in memory, their stat data
 *   index-internal.h the index file's parts: one entry on disk
 *                 (index-ondisk.c), a file's bytes checked into entries
 *                 (index-parse.c), the split index (index-split.c)
 *   index-read.c  read_cache: the index file loaded
 *   index-write.c commit_index: the index file written
 *   index.c       the index in memory: lookup, insertion, stat data
 *   exclude.h     git's globs (wildmatch.c), exclude patterns
 *                 (exclude.c), the files the index does not know (dir.c)
 *   fsck-cache.h  fsck-cache's phases: the table of the store's
 *                 objects (fsck-table.c), each read and verified
 *                 (fsck-read.c), copies merged and reachability
 *                 (fsck-reach.c)
 * Trees, merges and history
 *   checkout.h    index entries written into the work tree (checkout.c)
 *   tree-merge.h  trees read whole into lists (tree-list.c), and
 *                 read-tree's merges on them (tree-merge.c)
 *   history.h     commits in memory, merge bases (history.c), and the
 *                 walk in rev-list's order (revision.c), with trees
 *                 read ahead of it on another core (tree-ahead.c)
 * Diffs, patches, mails
 *   diff.h        the diff engine (diff-slide.c, diff.c, diff-search.c;
 *                 diff-internal.h), path quoting (quote.c), git's
 *                 patches (diff-print.c), the three-way merge (merge.c),
 *                 renames found as git finds them (diff-rename.c)
 *   patch.h       patches read and applied (patch-place.c,
 *                 patch-name.c, patch-binary.c, patch-parse.c,
 *                 patch-apply.c, patch-stat.c, patch-check.c,
 *                 patch-write.c; patch-internal.h)
 *   mail.h        mailboxes and mails (mail-decode.c, mbox.c, mail.c,
 *                 mail-message.c)
 *   commit-write.h identities (ident.c), trees from the index and
 *                 commits (commit-write.c), resetting to a tree (reset.c)
 *   am-state.h    the state files of an applymbox run (am-state.c), the
 *                 paths changed since its checkpoint (am-touched.c)
 *   log.h         what log-tree shows of a commit's changes: the files
 *                 changed, git's diffstat, patches in git's colours
 *                 (log-diff.c); the ref names after an id (decorate.c)
 *
 * Conventions: functions that can fail return a negative value or NULL
 * after printing one "tool: what: why" line with error(), or fill a
 * struct fault and print nothing where the caller must tell kinds of
 * failure apart.  Only tools call die(); the x* allocators are the one
 * exception (they die when memory runs out, as git's do).  Returned
 * buffers are malloc'd and owned by the caller unless the comment says
 * "static buffer".  All on-disk formats are git's.
 */
#ifndef CACHE_H
#define CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <zlib.h>

/*
 * SHA-1 from libcrypto, reached only through sha1dc.c (below): the one
 * SHA-1 of the tools, with collision detection.  OpenSSL 3 keeps the
 * SHA1_* functions, marked deprecated, so ask for the 1.1 API.
 */
#define OPENSSL_API_COMPAT 0x10100000L
#include <openssl/sha.h>
/*
 * Not the one-shot SHA1(): in OpenSSL 3 it fetches an EVP provider and
 * loads openssl.cnf, about a millisecond of every tool's start-up.
 * hash_buffer (stream.c) is the same digest without that, and with the
 * collision detection the SHA1_* calls would bypass (use sha1_*).
 */
#define SHA1(d, n, md) use_hash_buffer_not_SHA1(d, n, md)
#define SHA1_Init(c) use_sha1_init_not_SHA1_Init(c)
#define SHA1_Update(c, p, n) use_sha1_update_not_SHA1_Update(c, p, n)
#define SHA1_Final(md, c) use_sha1_final_not_SHA1_Final(md, c)

/* ---- usage.c: messages and exits ---- */

/* Set once from main(); prefixes every message. */
void set_progname(const char *argv0);
const char *progname(void);

/* Exit 128 after "tool: msg" (plus ": strerror(errno)" for _errno). */
void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void die_errno(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* Print "tool: msg" and return -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "usage: ..." to stderr, exit 129. */
void usage(const char *usage_line) __attribute__((noreturn));
/*
 * Exit 0 after the usage on stdout when argv[1] is -h, or after the
 * tool's manual page (man -l, plain text when stdout is no terminal)
 * when it is --help, or the usage when no page or no man is found.
 */
void handle_help(int argc, char **argv, const char *usage_line);

/* malloc, calloc, realloc, strdup that die when memory runs out. */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
/* Grow *ptr (of *alloc elements of elem bytes) to hold at least nr. */
void *grow_array(void *ptr, size_t nr, size_t *alloc, size_t elem);
#define ALLOC_GROW(p, nr, alloc) \
	((p) = grow_array((p), (nr), &(alloc), sizeof(*(p))))

/* write(2) all of buf, retrying on EINTR and short writes. */
int write_in_full(int fd, const void *buf, size_t len);
/* read(2) until len bytes or EOF; returns bytes read or -1. */
ssize_t read_in_full(int fd, void *buf, size_t len);
/*
 * The bytes of the regular file at path (malloc'd, NUL added, their
 * number in *len), or NULL with errno set: it cannot be opened, is no
 * regular file (EISDIR, EINVAL), or has max bytes or more (EFBIG).
 */
char *read_small_file(const char *path, size_t max, size_t *len);
/* pwrite(2) all of buf at offset: 0, or -1 with errno. */
int pwrite_in_full(int fd, const void *buf, size_t len, uint64_t offset);
/* pread(2) all len bytes at offset: 0, or -1 with errno (EIO: EOF). */
int pread_in_full(int fd, void *buf, size_t len, uint64_t offset);
/*
 * Progress on stderr for work on at least PROGRESS_MIN items, only
 * when stderr is a terminal ("Adding files:  45% (34000/75000)").
 * start_progress returns NULL (and the others do nothing) otherwise.
 * Not thread-safe: call display_progress from one thread at a time.
 */
#define PROGRESS_MIN 2000
struct progress;
struct progress *start_progress(const char *title, size_t total);
void display_progress(struct progress *p, size_t done);
void stop_progress(struct progress **p);
/* 1: progress whatever stderr is (--progress); -1: never (-q); 0: as above. */
void set_progress_mode(int mode);

/*
 * The one error model of the library's readers: a caller that must
 * tell "missing" from "corrupt" from "the system refused" passes a
 * struct fault, which the failing function fills; it prints nothing,
 * and the caller (a tool) decides whether to report, skip or die.
 */
enum fault_code {
	FAULT_NONE = 0,
	FAULT_MISSING,		/* not in any source */
	FAULT_CORRUPT,		/* bytes that do not parse, or that lie */
	FAULT_HASH_MISMATCH,	/* content that does not hash to its id */
	FAULT_IO,		/* the system refused: err holds errno */
	FAULT_CONFLICT,		/* a change that does not fit what it changes */
};

struct fault {
	enum fault_code code;
	int err;
	char msg[512];		/* what is wrong, without the object id */
	const char *path;	/* the path at fault, borrowed (or NULL) */
	unsigned long line;	/* the line at fault, 1-based (or 0) */
};

/* Fill f (code, message) and return -1. */
int set_fault(struct fault *f, enum fault_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The same with the path (which f borrows: it must outlive f's use)
 * and the line at fault (0 for none); set_fault and set_fault_errno
 * leave both empty.
 */
int set_fault_at(struct fault *f, enum fault_code code, const char *path,
		 unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* FAULT_IO with errno and ": strerror(errno)" after the message; -1. */
int set_fault_errno(struct fault *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Flush and check stdout; die if the write failed (full disk, EPIPE). */
void finish_stdout(void);

/* ---- cpu.c: the CPU extensions our own code may use ---- */

/* AVX2 there and not hidden by OPENSSL_ia32cap (CPU=baseline hides it). */
int cpu_has_avx2(void);
/* BMI2 there, not hidden, and AVX2 kept (a CPU without AVX2 lacks it). */
int cpu_has_bmi2(void);

/* ---- sha1dc.c: SHA-1, with collision detection ---- */

/*
 * Every SHA-1 the tools compute: OpenSSL's on ordinary blocks, and on a
 * block that meets the unavoidable conditions of a known attack's
 * disturbance vector, the counter-cryptanalysis test of Stevens and
 * Shumow (2017).  A detection makes sha1_final return -1: the caller
 * refuses the object or file ("<what>: SHA-1 collision attack
 * detected", sha1_collision_error) and writes nothing.
 */
struct sha1_ctx {
	SHA_CTX h;		/* OpenSSL's; h0..h4 is the chaining value */
	uint64_t len;		/* bytes hashed */
	unsigned int used;	/* bytes waiting in buf */
	int attack;		/* a block's twin collided with it */
	int fired;		/* the test switch fired */
	unsigned long flagged;	/* blocks that met some DV's conditions */
	unsigned char buf[64];
};

/* Start a hash. */
void sha1_init(struct sha1_ctx *c);
/* Hash len more bytes. */
void sha1_update(struct sha1_ctx *c, const void *p, size_t len);
/* The 20-byte id into md; -1 if it looks like a collision attack. */
int sha1_final(unsigned char *md, struct sha1_ctx *c);
/* error("<what>: SHA-1 collision attack detected"): -1. */
int sha1_collision_error(const char *what);
/* "avx2", "sse2" or "generic": the UBC check's code (OPENSSL_ia32cap). */
const char *sha1_ubc_simd(void);
/*
 * TEST ONLY: DIRCACHE_TEST_SHA1DC_FIRE makes sha1_final report an attack
 * where there is none, so that t/ can see every path refuse: "all" on
 * every hash, "id:<hex>" on ids starting with <hex>, "data:<bytes>" on
 * hashes fed <bytes> within one sha1_update call.  Never set it else.
 * DIRCACHE_TEST_SHA1DC_NO_UBC tests every DV's twin on every block (the
 * detection without its UBC filter: the reference, t1435).
 */
/* TEST ONLY: n blocks' UBC masks vs the table's; mismatches (+flagged). */
int sha1_ubc_selfcheck(const unsigned char *p, size_t n, size_t *flagged);

/* ---- hash.c: the repository's hash, SHA-1 or SHA-256 ---- */

#define HASH_MAX_RAWSZ 32
#define HASH_MAX_HEXSZ 64

/* An object-naming algorithm and its sizes. */
struct hash_algo {
	const char *name;		/* as extensions.objectformat says it */
	uint32_t format_id;		/* "sha1" or "s256", big-endian */
	unsigned int rawsz, hexsz;	/* an id's bytes, its hex digits */
	const unsigned char *empty_tree;
};
extern const struct hash_algo hash_sha1, hash_sha256;
/* The repository's algorithm: SHA-1 until setup reads another. */
extern const struct hash_algo *the_hash;

/* The algorithm extensions.objectformat calls name, or NULL. */
const struct hash_algo *hash_algo_by_name(const char *name);

struct hash_ctx {
	const struct hash_algo *algo;
	union {
		struct sha1_ctx sha1;
		SHA256_CTX sha256;
	} u;
};
/* Start a hash with algo. */
void hash_init(struct hash_ctx *c, const struct hash_algo *algo);
/* Hash len more bytes. */
void hash_update(struct hash_ctx *c, const void *p, size_t len);
/* The id (algo->rawsz bytes) into md; -1 on a SHA-1 collision attack. */
int hash_final(unsigned char *md, struct hash_ctx *c);

/*
 * Ids of the_hash's size.  The two sizes are spelled out so that the
 * compiler inlines each comparison, as it did for the constant 20.
 */
static inline int hashcmp(const unsigned char *a, const unsigned char *b)
{
	if (the_hash->rawsz == 20)
		return memcmp(a, b, 20);
	return memcmp(a, b, HASH_MAX_RAWSZ);
}

static inline int hasheq(const unsigned char *a, const unsigned char *b)
{
	if (the_hash->rawsz == 20)
		return !memcmp(a, b, 20);
	return !memcmp(a, b, HASH_MAX_RAWSZ);
}

static inline void hashcpy(unsigned char *dst, const unsigned char *src)
{
	memcpy(dst, src, the_hash->rawsz);
}

static inline void hashclr(unsigned char *id)
{
	memset(id, 0, the_hash->rawsz);
}

static inline int is_null_hash(const unsigned char *id)
{
	static const unsigned char zero[HASH_MAX_RAWSZ];

	return hasheq(id, zero);
}

/* ---- mbuf.c: the one growing string buffer ---- */

/*
 * Bytes, always NUL-terminated once written to.  Out of memory is a
 * return of -1, never a death: the buffer keeps what it held, and is
 * marked failed so that every later write fails too (a caller may
 * write a whole text and check the last call, or b->failed, once).
 */
struct mbuf {
	char *buf;		/* NULL until the first write */
	size_t len, alloc;
	int failed;		/* a write ran out of memory */
};

#define MBUF_INIT { NULL, 0, 0, 0 }

/*
 * Test only: DIRCACHE_TEST_MBUF_FAIL_AFTER=<n> makes every mbuf
 * allocation after the first n fail, "<n>:once" only the one after
 * them, to show that a caller reports running out of memory.
 */

/* An empty buffer (as MBUF_INIT). */
void mbuf_init(struct mbuf *b);
/* Room for extra more bytes (and the NUL): 0, or -1. */
int mbuf_grow(struct mbuf *b, size_t extra);
/* Append len bytes of data, a byte, a string: 0, or -1. */
int mbuf_add(struct mbuf *b, const void *data, size_t len);
int mbuf_addch(struct mbuf *b, int c);
int mbuf_addstr(struct mbuf *b, const char *s);
/* Append src's bytes: 0, or -1 (b failed too) when src had failed. */
int mbuf_addbuf(struct mbuf *b, const struct mbuf *src);
/* Append what printf would print: 0, or -1. */
int mbuf_addf(struct mbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Cut to len bytes (not longer), to none: 0, or -1. */
int mbuf_setlen(struct mbuf *b, size_t len);
int mbuf_reset(struct mbuf *b);
/* Free the bytes; b is empty (and not failed) again. */
void mbuf_release(struct mbuf *b);
/*
 * The bytes (malloc'd, the caller's; length in *len when len is not
 * NULL), b emptied; NULL (and b released) when a write had failed.
 */
char *mbuf_detach(struct mbuf *b, size_t *len);
/* Remove len bytes at pos; insert data at pos: 0, or -1. */
int mbuf_remove(struct mbuf *b, size_t pos, size_t len);
int mbuf_insert(struct mbuf *b, size_t pos, const void *data, size_t len);
/* Drop whitespace (isspace) at the end; at both ends: 0, or -1. */
int mbuf_rtrim(struct mbuf *b);
int mbuf_trim(struct mbuf *b);
/* The text, "" before the first write (never NULL). */
const char *mbuf_str(const struct mbuf *b);

/* ---- hex.c: ids and type names ---- */

/*
 * The element of table (nr elements of size bytes, sorted by id, each
 * beginning with its 20-byte id) whose id is sha1, or NULL.
 */
void *find_sha1_in_table(const unsigned char *sha1, const void *table,
			 size_t nr, size_t size);
/* Sort such a table by id (qsort: copies of one id in any order). */
void sort_sha1_table(void *table, size_t nr, size_t size);

enum object_type {
	OBJ_BAD = -1,
	OBJ_NONE = 0,
	OBJ_COMMIT = 1,
	OBJ_TREE = 2,
	OBJ_BLOB = 3,
	OBJ_TAG = 4,
};

/* "commit", "tree", "blob", "tag", or "bad" for any other value. */
const char *type_name(enum object_type type);
/* Exact match of a type name of len bytes; OBJ_BAD when unknown. */
enum object_type type_from_string(const char *name, size_t len);
/*
 * Hex ids.  sha1_to_hex returns one of four rotating static buffers
 * (per thread: the object store may be used from several threads).
 */
char *sha1_to_hex(const unsigned char *sha1);
/* the_hash's hex digits (either case) at hex into sha1; -1 when not. */
int get_sha1_hex(const char *hex, unsigned char *sha1);
/* The value of one hex digit, or -1. */
int hexval(int c);
/* 1 when the len bytes at s are all lowercase hex digits. */
int is_lower_hex(const char *s, size_t len);
/* The hex digits the n bytes at a and b share from the start (2n: all). */
int common_hex_digits(const unsigned char *a, const unsigned char *b,
		      size_t n);
/*
 * The id of the loose object file dir/file (dir "xx", file 38 digits,
 * all lowercase hex, as the store names them), or -1 for any other name.
 */
int parse_loose_name(const char *dir, const char *file, unsigned char *sha1);

/* ---- path.c: paths, and the one pathspec matcher ---- */

/* dir, a slash and file (malloc'd). */
char *path_join(const char *dir, const char *file);
/*
 * DOTGIT or DOTDIRCACHE when a path component would open .git or
 * .dircache on some file system: any case; on NTFS with trailing dots
 * or spaces, an ":stream" suffix, a "\\" after it, or as the 8.3 name
 * (git~1, dircac~1); on HFS+ with ignorable code points inside (git's
 * core.protectNTFS and core.protectHFS, both always on here).  Else 0.
 */
#define DOTGIT 1
#define DOTDIRCACHE 2
int is_dotgit_name(const char *name, size_t len);
/*
 * 1 when the path is fit to enter the index: relative, no empty, "."
 * or ".." component, none that is_dotgit_name, no trailing slash.
 */
int verify_path(const char *path, size_t len);
/*
 * verify_path for a path whose first start bytes (0, or up to just
 * after a '/') are those of a path that passed it already: only the
 * components from start on are checked.
 */
int verify_path_from(const char *path, size_t len, size_t start);
/*
 * A command-line path in index form (malloc'd): "./" components and
 * repeated slashes dropped, so "./a//b" is "a/b".  ".." is kept, for
 * verify_path to refuse.
 */
char *normalize_path(const char *path);

/* A path in C quotes at p (to end), unquoted (malloc'd); *taken: bytes read. */
char *unquote_c(const char *p, const char *end, size_t *taken);
/*
 * 1 when a leading directory of path (len bytes) is a symlink, 2 when
 * it is something else that is not a directory (a file), so that
 * opening path would leave the work tree or go through a link, or
 * find nothing there (ENOTDIR); 0 when every
 * leading directory is a directory or does not exist; -1 on an lstat
 * error other than ENOENT/ENOTDIR.
 */
int has_symlink_leading_path(const char *path, size_t len);
/*
 * lstat a work-tree path named by the index or the command line: one
 * beyond a symlink (or a file) in a leading directory does not exist
 * (-1, ENOENT), as in git, so no tool reads through a link.  The
 * directories found real are remembered, per thread; a tool that
 * changes directories calls forget_known_dirs() after.
 */
int lstat_work_path(const char *path, struct stat *st);
void forget_known_dirs(void);
/*
 * The same lstat for many paths in index order, with each leading
 * directory opened once (without following a link) and kept open while
 * the paths stay below it: each path is then one fstatat of its last
 * component, not a walk of its whole path.  path is NUL-terminated,
 * len its length.  A work_dirs is one thread's; init before, close
 * after (it holds file descriptors).
 */
#define WORK_DIRS_DEPTH 32
struct work_dirs {
	int depth;			/* directories open */
	int fd[WORK_DIRS_DEPTH];
	size_t end[WORK_DIRS_DEPTH];	/* bytes of path each one names */
	char path[4096];
};
/* Start wd empty; lstat path through it; close what it holds open. */
void init_work_dirs(struct work_dirs *wd);
int lstat_in_work_dirs(struct work_dirs *wd, const char *path, size_t len,
		       struct stat *st);
void close_work_dirs(struct work_dirs *wd);
/* Create leading directories of path (not path itself); -1 with errno. */
int create_leading_dirs(char *path);
/* Remove the leading directories of path that are empty, deepest first. */
void remove_empty_leading_dirs(const char *path);
/*
 * What stands where the file path is to be written: WAY_CLEAR when
 * nothing does, or only what may_go(name, len, data) lets go (a file
 * the caller's index tracks and replaces); else a leading directory
 * that is a file, a file at path (not asked about: the caller
 * decides), or a file under a directory at path, with *found the path
 * in the way (malloc'd).  Not thread-safe: nftw(3) takes no data.
 */
enum in_the_way {
	WAY_CLEAR = 0,
	WAY_LEADING_FILE,
	WAY_FILE,
	WAY_UNDER_DIR,
};
enum in_the_way find_in_the_way(const char *path,
				int (*may_go)(const char *name, size_t len,
					      void *data),
				void *data, char **found);

/*
 * Pathspecs, with git's rules: a path names itself and, as a
 * directory, everything below it; "dir/" names a directory only; "."
 * names everything; "*", "?" and "[...]" are globs ("*" crosses "/").
 */
struct pathspec_item {
	char *match;		/* normalized */
	size_t len;
	size_t literal_len;	/* bytes before the first glob character */
	int dir_only;		/* given with a trailing '/' */
};

struct pathspec {
	struct pathspec_item *items;
	size_t nr, alloc;
	int match_all;		/* no paths, or "." among them */
};

/* How much of an entry a pathspec selects. */
enum interest {
	NOT_INTERESTING = 0,
	ALL_INTERESTING = 1,	/* the entry and everything below it */
	SOME_INTERESTING = 2,	/* a directory that may hold a selected path */
};

/*
 * Parse argc command-line paths into ps (free with clear_pathspec).
 * -1 after error() for an empty path or one outside the tree.
 */
int parse_pathspec(struct pathspec *ps, char *const *argv, int argc);
void clear_pathspec(struct pathspec *ps);
/* How much of path (len bytes; a directory when is_dir) ps selects. */
enum interest pathspec_interest(const struct pathspec *ps, const char *path,
				size_t len, int is_dir);
/* 1 when ps selects the file path (len bytes). */
int match_pathspec(const struct pathspec *ps, const char *path, size_t len);

/* ---- config.c: git's config files ---- */

/*
 * Called for each variable in the file's order: key is "section.name"
 * or "section.subsection.name" (section and name lowercased), value
 * NULL for a name alone (git's true).  A non-zero return stops.
 */
typedef int (*config_fn)(const char *key, const char *value, void *data);
/*
 * Read the config file at path with git's syntax: 0 when all of it was
 * read (or there is no such file), fn's non-zero return, or -1 after
 * error() when it cannot be read or git would refuse a line.
 */
int config_from_file(const char *path, config_fn fn, void *data);
/* git's integer (a k, m or g suffix scales it) into *v: 0, or -1. */
int config_int(const char *value, long *v);
/* git's boolean (NULL, a bare key, is true): 1, 0, or -1 if not one. */
int config_bool(const char *value);

/* ---- alt-chain.c: the alternates as git 2.39 follows them ---- */

/*
 * The alternate object directories of the store at object_dir: those
 * of GIT_ALTERNATE_OBJECT_DIRECTORIES, then of its info/alternates,
 * each followed at once by those its own info/alternates names
 * (relative to it), nested to depth 5; real paths, each once, never
 * the store itself; one that is missing is skipped after error().
 * Read once (not thread-safe: callers hold their lock); the
 * NULL-terminated list is alt-chain.c's until forget_alternate_chain.
 */
const char *const *read_alternate_chain(const char *object_dir);
/* The i-th as its list named it (its real path below the first level). */
const char *alternate_chain_name(size_t i);
/* Drop the list: the next read_alternate_chain reads it again. */
void forget_alternate_chain(void);

/* ---- setup.c: what every tool does first ---- */

#define DEFAULT_GIT_DIR ".dircache"

/* Environment variables; the 2005 name comes first where there is one. */
#define DB_ENVIRONMENT "SHA1_FILE_DIRECTORY"
#define OBJECT_DIR_ENVIRONMENT "GIT_OBJECT_DIRECTORY"
#define INDEX_ENVIRONMENT "GIT_INDEX_FILE"
#define GIT_DIR_ENVIRONMENT "GIT_DIR"
#define COMMON_DIR_ENVIRONMENT "GIT_COMMON_DIR"
#define NO_SYNC_ENVIRONMENT "DIRCACHE_NO_SYNC"

/*
 * The first call of every main(): makes sure fds 0, 1 and 2 are open
 * (on /dev/null if not, so that no file we open takes their number and
 * receives our messages), sets the program name and reads the
 * environment.
 */
void setup_tool(const char *argv0);
/* Read GIT_DIR and the rest again (setup_tool does it once). */
void setup_environment(void);
/*
 * For tools that need a store: 0 when the object directory exists and
 * the repository's format is one we read, else -1 after one line:
 * "not a dircache repository (or GIT_DIR): <dir>" (and, from inside a
 * work tree, where its top is: the tools run there), git's words for
 * a gitfile that names no repository, the format's problem, or a
 * store of another hash than the common directory's (a worktree's git
 * directory or detached HEAD, GIT_OBJECT_DIRECTORY, an alternate).
 */
int setup_repository(void);
/* 0, or -1 after git's words when $GIT_DIR is a gitfile naming nothing. */
int check_git_dir(void);
/*
 * 0 when the common directory's config (if any) gives a format this
 * library reads: version 0 or 1, no extension it does not know (as
 * git 2.39 decides; sha1 or sha256, which becomes the_hash); else -1 after
 * error() naming what is not known.
 */
int check_repository_format(void);
/*
 * $GIT_DIR (a gitfile, "gitdir: <dir>", is followed), the common
 * directory (GIT_COMMON_DIR, or what $GIT_DIR/commondir names, or
 * $GIT_DIR itself) holding refs, packed-refs, config and shallow, the
 * object directory (objects/ in the common one) and the index
 * ($GIT_DIR/index), as read at setup.  Without GIT_DIR, the git
 * directory is .dircache, or .git when only that exists.
 */
const char *get_git_dir(void);
const char *get_common_dir(void);
const char *get_object_directory(void);
const char *get_index_file(void);
/*
 * Call fn for every setting of the system's config (/etc/gitconfig or
 * $GIT_CONFIG_SYSTEM, unless GIT_CONFIG_NOSYSTEM), the user's
 * ($XDG_CONFIG_HOME/git/config then ~/.gitconfig, or $GIT_CONFIG_GLOBAL),
 * then the repository's (config in the common directory), git's order; a non-zero return stops and is returned.  -1
 * after error() for a malformed file; a missing one is empty.
 */
int for_each_config(config_fn fn, void *data);
/*
 * The last value of key ("core.abbrev"): 1 with *value malloc'd (NULL
 * for a bare "key" line), 0 when unset, -1 after error().
 */
int config_get(const char *key, char **value);
/*
 * The directory the gitfile at path names (malloc'd; read relative to
 * the file's directory, returned absolute, as git names it), or NULL
 * with f filled: "invalid gitfile format: <path>", "not a git
 * repository: <dir>" (git's words), or the errno.
 */
char *read_gitfile(const char *path, struct fault *f);
/*
 * The common directory of git directory dir (malloc'd): what its
 * commondir file names (absolute), or dir itself when it has none.
 */
char *common_dir_of(const char *dir);
/* 0 when DIRCACHE_NO_SYNC asks for no syncs, else 1. */
int sync_wanted(void);

/* ---- parallel.c: the thread pool ---- */

/*
 * Call fn(data, i) for every i in [start, end) on every core (up to 8
 * threads; only the caller's when there are few items), so fn must be
 * safe to run on many threads at once.  fn returns the units of work it
 * did (files, say, for an item that is a group of them): progress (may
 * be NULL) moves on by them from done.  Returns done plus all units.
 */
size_t run_parallel(size_t start, size_t end,
		    size_t (*fn)(void *data, size_t i), void *data,
		    struct progress *progress, size_t done);
/* The same on nr_threads threads (at most 64), however few the items. */
size_t run_parallel_threads(int nr_threads, size_t start, size_t end,
			    size_t (*fn)(void *data, size_t i), void *data,
			    struct progress *progress, size_t done);
/*
 * The same on nr_threads new threads while the caller waits, each with
 * a copy of the file table of its own (unshare CLONE_FILES): for fn
 * that passes fds it opened itself to many calls (fstatat on directory
 * fds), which then take no reference on them.  The fds fn opens are
 * its thread's alone; fn closes them.  Returns the units fn did.
 */
size_t run_parallel_own_fds(int nr_threads, size_t start, size_t end,
			    size_t (*fn)(void *data, size_t i), void *data);

/* ---- lockfile.c: replacing a file ---- */

/*
 * hold_lock_file creates <target>.lock with O_EXCL; the caller writes
 * to fd; commit_lock_file closes it and renames it over target;
 * rollback_lock_file removes it.  Only a lock this process created is
 * ever removed (on rollback, exit, SIGINT, SIGTERM, SIGHUP, SIGPIPE).
 * A struct lock_file must outlive its hold (static, or until commit or
 * rollback); zero it before the first hold.
 */
struct lock_file {
	char *path;		/* "<target>.lock" while held, else NULL */
	char *target;
	int fd;
	struct lock_file *next;
};

/* -1 after error() (naming the lock when another process holds it). */
int hold_lock_file(struct lock_file *lk, const char *target);
/*
 * fn runs on SIGINT, SIGTERM, SIGHUP and SIGPIPE, after the held locks
 * are removed and before the signal kills us (at most 4; call from the
 * main thread).  fn must be async-signal-safe: unlink, no malloc.
 */
void at_signal_cleanup(void (*fn)(void));
/* -1 after error(); the lock is rolled back then. */
int commit_lock_file(struct lock_file *lk);
void rollback_lock_file(struct lock_file *lk);

/* ---- csum-file.c: files that end in the SHA-1 of their bytes ---- */

/* The big-endian bytes of v at p (4 or 8 of them). */
static inline void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void put_be64(unsigned char *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

/*
 * A file written through a buffer and hashed as it goes (the index, a
 * pack, an idx): hashfd starts one on fd (the caller still owns fd),
 * hashwrite appends bytes, hashfile_finish appends the SHA-1 of them
 * all and frees f.  total is the bytes appended so far.
 */
struct hashfile {
	int fd;
	int failed;		/* a write failed: all later calls fail */
	const char *name;	/* the file, for messages (NULL: unnamed) */
	struct hash_ctx ctx;
	uint64_t total;
	size_t used;
	unsigned char buf[128 * 1024];
};

/* A new writer on fd (freed by hashfile_finish). */
struct hashfile *hashfd(int fd);
/* hashwrite for what does not fit in the buffer, or after a failure. */
int hashwrite_slow(struct hashfile *f, const void *buf, size_t len);
/* Append len bytes: 0, or -1 with errno (and every later call fails). */
static inline int hashwrite(struct hashfile *f, const void *buf, size_t len)
{
	if (len < sizeof(f->buf) - f->used) {
		memcpy(f->buf + f->used, buf, len);
		f->used += len;
		f->total += len;
		return 0;
	}
	return hashwrite_slow(f, buf, len);
}
/*
 * Flush, append the SHA-1 (also stored in sha1 unless NULL) and free
 * f, which is freed on failure too: 0, or -1 with errno (EBADMSG after
 * sha1_collision_error when the bytes look like a collision attack).
 */
int hashfile_finish(struct hashfile *f, unsigned char *sha1);

/* ---- nameless.c: files that get their name only once whole ---- */

/*
 * open_nameless makes a file with no name (O_TMPFILE) in the directory
 * of path (its first dirlen bytes, '/' included; 0 for the current
 * directory): the fd, or -1 (errno).  link_nameless gives it the name
 * path, never replacing one: 0, or -1 (errno EEXIST when the name is
 * taken).  Once either fails for want of support (no O_TMPFILE, no way
 * to link), nameless_files_work() is false for the rest of the process
 * and the caller writes under a temporary name instead.  Thread-safe.
 */
int open_nameless(const char *path, size_t dirlen, unsigned int mode);
int link_nameless(int fd, const char *path);
/*
 * The same in the directory open as dirfd (AT_FDCWD: the current one;
 * O_PATH will do), the link's name relative to it: no walk of the
 * directory's path for each file.
 */
int open_nameless_at(int dirfd, unsigned int mode);
int link_nameless_at(int fd, int dirfd, const char *name);
int nameless_files_work(void);
/*
 * A file in dir for reading and writing that never gets a name, gone
 * when closed (O_TMPFILE, else a name unlinked at once): the fd, or -1
 * (errno).
 */
int open_scratch_file(const char *dir);

/* ---- date.c: dates ---- */

/*
 * Parse a user-supplied date into "<epoch> <+hhmm>" (static buffer).
 * Accepts "<epoch> <+hhmm>", "@<epoch> <+hhmm>", RFC 2822 and ISO 8601.
 * Returns NULL when the text is none of those.
 */
const char *parse_date(const char *date);
/* The current time and local zone as "<epoch> <+hhmm>" (static). */
const char *now_date(void);

/* ---- inflate.c: a zlib stream inflated whole, in memory ---- */

/* Bytes past size that inflate_whole may write into (then overwrite). */
#define INFLATE_SLACK 8
/*
 * Objects (pack entries, loose objects) of up to this size are inflated
 * whole by inflate_whole; bigger ones are streamed through zlib, so that
 * none needs its size in memory.
 */
#define WHOLE_INFLATE_MAX ((size_t)1 << 20)
enum {
	INFLATE_CORRUPT = -1,	/* not a stream zlib would inflate */
	INFLATE_TRUNCATED = -2,	/* cut short */
	INFLATE_LONGER = -3,	/* it gives more than size bytes */
	INFLATE_SHORTER = -4,	/* it ends before size bytes */
	INFLATE_NOMEM = -5,
	INFLATE_CHECKSUM = -6,	/* the Adler-32 is wrong (when checked) */
	INFLATE_WINDOW = -7,	/* a block gives more than the window holds */
};
/*
 * Inflate the zlib stream at the start of in (len bytes) into out
 * (size + INFLATE_SLACK bytes): 0 when it gives exactly size bytes,
 * with *used its length, trailer included (what follows it is the
 * caller's); an INFLATE_ error otherwise, out then meaning nothing.
 * Accepts what zlib's inflate() accepts; checks the Adler-32 only when
 * check is set or set_inflate_checksum(1) asked for it (for the whole
 * process): readers hash the result against its id; fsck-cache asks.
 */
int inflate_whole(const void *in, size_t len, unsigned char *out,
		  size_t size, size_t *used, int check);
/*
 * The first bytes of the zlib stream at in (len bytes), up to want of
 * them, into out (want + INFLATE_SLACK bytes), *got how many: fewer
 * when the stream ends first, and maybe fewer when a match runs past
 * want.  0, or an INFLATE_ error (*got then counts what is good).  No
 * check of what follows: a reader learns an object's header by it.
 */
int inflate_prefix(const void *in, size_t len, unsigned char *out,
		   size_t want, size_t *got);
/*
 * The zlib stream at the start of in (len bytes), which must give size
 * bytes, inflated in windows: fn(data, p, n) is handed the result in
 * order, a piece at a time, and stops the inflate by returning anything
 * but 0 (a positive value, returned as is).  buf (room +
 * INFLATE_SLACK bytes, room at least 64 KiB) is all the memory it
 * takes, however big the object: for the collision check on a big one.
 * 0 with *used as inflate_whole's, an INFLATE_ error, or fn's value;
 * INFLATE_WINDOW when one block gives more than room less 32 KiB
 * (zlib's stream can read it).  No Adler-32 check: the caller compares bytes.
 */
typedef int (*inflate_sink)(void *data, const unsigned char *p, size_t n);
int inflate_windows(const void *in, size_t len, size_t size, size_t *used,
		    unsigned char *buf, size_t room, inflate_sink fn,
		    void *data);
void set_inflate_checksum(int on);
/* What an INFLATE_ error means, in the words of the other readers. */
const char *inflate_error(int ret);

/* ---- deflate.c: zlib streams written ---- */

/*
 * A zlib stream (git's loose objects, pack entries) deflated by our
 * own compressor, a chunk at a time, into fd, or with fd -1 into
 * memory (deflate_writer_result).  Never fails to start.
 */
struct deflate_writer;
struct deflate_writer *deflate_writer_start(int fd);
/* Deflate len bytes; last finishes the stream.  -1 with errno (write). */
int deflate_writer_add(struct deflate_writer *w, const void *buf, size_t len,
		       int last);
/* The stream written into memory (malloc'd, the caller's), *len bytes. */
unsigned char *deflate_writer_result(struct deflate_writer *w, size_t *len);
/* Frees w (NULL allowed). */
void deflate_writer_end(struct deflate_writer *w);

/* ---- stream.c: an object's bytes, in and out of zlib ---- */

/* Header "<type> <size>\0": type <= 6 bytes, size <= 20 digits. */
#define MAX_HEADER_LEN 32
/* The piece size of every streamed read, write and comparison. */
#define OBJECT_CHUNK (64 * 1024)

/* Write "<type> <len>\0" into hdr (MAX_HEADER_LEN); returns its length. */
int format_object_header(char *hdr, enum object_type type, size_t len);
/*
 * Parse a header from avail bytes: the size is decimal without leading
 * zeros and fits in size_t.  Returns the length with the NUL, or -1.
 */
int parse_object_header(const unsigned char *hdr, size_t avail,
			enum object_type *type, size_t *size);
/* SHA-1 of the len bytes at buf. */
int hash_buffer(const void *buf, size_t len, unsigned char *sha1);
/*
 * SHA-1 of "<type> <len>\0" followed by buf.  Both: 0, or -1 (and the id
 * still in sha1) when it looks like a collision attack; they print
 * nothing, the caller refuses with sha1_collision_error().
 */
int hash_sha1_file(const void *buf, size_t len, enum object_type type,
		   unsigned char *sha1);

/*
 * An object's content, handed out a piece at a time and checked as it
 * goes.  type and size are known once it is open; read_object_stream
 * returns 0 only after the checks at the end: the zlib stream ended
 * exactly there with nothing after it, and (when verified) the content
 * hashed to the id.  The other fields are the opener's and stream.c's.
 */
struct object_stream {
	enum object_type type;
	size_t size;
	size_t left;		/* content not yet handed out */
	z_stream z;
	size_t zlen;		/* bytes of the zlib stream */
	size_t zin_left;	/* of them, not yet given to zlib */
	int zlen_bound;		/* zlen is a bound: bytes may follow it */
	int inflating, ended, done, verify;
	unsigned char early[MAX_HEADER_LEN];	/* inflated with the header */
	size_t early_pos, early_len;
	const unsigned char *mem;	/* content already in memory */
	struct hash_ctx ctx;
	unsigned char sha1[HASH_MAX_RAWSZ];
	void (*release)(struct object_stream *st);	/* the source's */
	void (*fed)(struct object_stream *st);	/* the source's: zlib has
						   used up a piece of it */
	void *source;
	int zlib_check_off;	/* set_zlib_check(st, 0) */
	unsigned char *whole;	/* the object inflated whole, if it was */
	unsigned char *owned;	/* mem, malloc'd (size and a NUL): freed at
				   close, or taken by read_object_stream_whole */
	const unsigned char *zbuf;	/* the zlib stream, when zlib_later */
	int zlib_later;		/* header read by inflate.c; the content is
				   inflated (whole, or by zlib) when read */
};

/*
 * Open a stream on a loose object's bytes (zbuf, len: zlib of header
 * and content; they must outlive the stream).  -1 with f on a bad
 * header or a size the bytes cannot hold.  Close it in any case.
 */
int open_loose_stream(struct object_stream *st, const void *zbuf,
		      size_t len, struct fault *f);
/*
 * The same on the first avail bytes of a loose object of len bytes,
 * for its type and size alone (the content must not be read).  When
 * avail < len, a bad header may only mean too few bytes.
 */
int open_loose_prefix(struct object_stream *st, const void *zbuf,
		      size_t avail, size_t len, struct fault *f);
/*
 * The same on zlib of the content alone, type and size known (packs):
 * len bytes, exactly the stream's when exact, else a bound on them.
 */
int open_raw_stream(struct object_stream *st, const void *zbuf, size_t len,
		    int exact, enum object_type type, size_t size,
		    struct fault *f);
/* A stream on content in memory (buf must outlive it). */
void open_memory_stream(struct object_stream *st, const void *buf,
			enum object_type type, size_t size);
/* Check at the end that the content hashes to sha1. */
void verify_object_stream(struct object_stream *st, const unsigned char *sha1);
/*
 * Check zlib's own checksum (adler32, a fifth of inflate's time) or
 * leave it out (on = 0) when every byte it covers is checked another
 * way: compared with a copy known to be good, or hashed against the
 * id.  The stream's shape is checked to its end in any case (the four
 * bytes of the checksum must be there).  fsck-cache checks it, as git.
 */
void set_zlib_check(struct object_stream *st, int on);
/* Up to len bytes into buf: their count, 0 at the checked end, -1 (f). */
ssize_t read_object_stream(struct object_stream *st, void *buf, size_t len,
			   struct fault *f);
/* All of the content (malloc'd, NUL after it), checked; NULL (f). */
void *read_object_stream_whole(struct object_stream *st, struct fault *f);
/*
 * All of a stream not yet read, in memory and checked, when that is
 * cheap: 0 with *buf (st->size bytes, st's until it is closed); 1 when
 * it is not (over WHOLE_INFLATE_MAX, or a stream only zlib takes):
 * nothing read, read it a piece at a time; -1 (f) on a failed check.
 */
int read_object_stream_in_memory(struct object_stream *st,
				 const unsigned char **buf, struct fault *f);
/*
 * Read a stream to its end for a checker, every check made: a blob is
 * drained a piece at a time and never held (*buf NULL), anything else
 * is handed back whole in *buf (malloc'd, NUL after it) for its
 * parser.  -1 (f) on a failed check.  The two gates, fsck-cache and
 * verify-objects, read every object through it.
 */
int check_object_stream(struct object_stream *st, char **buf,
			struct fault *f);
void close_object_stream(struct object_stream *st);

/* Deflate a whole object (header, then buf) into fd; -1 with errno. */
int deflate_object(int fd, enum object_type type, const void *buf,
		   size_t len);

/*
 * len bytes deflated as deflate_object does, into a buffer of its own
 * (malloc'd, *zlen bytes used): a pack's entry.  NULL with errno on
 * failure.
 */
unsigned char *deflate_to_memory(const void *buf, size_t len, size_t *zlen);

/* ---- patch-delta.c: git's delta format ---- */

/*
 * The base and result sizes a delta starts with; returns the bytes
 * they take, or -1 when the header is cut short.
 */
int get_delta_sizes(const void *delta, size_t len, size_t *base_size,
		    size_t *result_size);
/*
 * Apply delta (delta_len bytes) to base.  Returns the result
 * (malloc'd, with a NUL after it) and its length, or NULL with *why
 * (static text) when the delta is malformed: a size that does not
 * match, a copy beyond the base, a write beyond the result, a cut
 * instruction, the reserved opcode 0, or a short result.
 */
void *apply_delta(const void *base, size_t base_len, const void *delta,
		  size_t delta_len, size_t *result_len, const char **why);
/* A run of a delta's base copied into its result. */
struct delta_copy {
	size_t to, from, len;	/* in the result, in the base, its bytes */
};
/*
 * The copies of delta (len bytes), in the order of the result, into
 * *copies (grown as ALLOC_GROW does, *alloc its room; the caller
 * frees it), *nr of them; -1 when the delta is malformed (*nr then
 * means nothing).
 */
int delta_copies(const void *delta, size_t len, struct delta_copy **copies,
		 size_t *nr, size_t *alloc);

/* ---- base85.c: git's base-85, for binary patches ---- */

/* len bytes as (len + 3) / 4 * 5 digits at out (no NUL). */
void encode_85(char *out, const unsigned char *data, size_t len);
/*
 * The (len + 3) / 4 * 5 digits at text into len bytes at out; -1 when
 * a digit is not one or a group is past 2^32.
 */
int decode_85(unsigned char *out, const char *text, size_t len);

/* ---- diff-delta.c: making git's deltas ---- */

/*
 * A delta in git's format that turns base into target (apply_delta()
 * undoes it): copies of base runs found through an index of its
 * blocks, literal bytes between.  Returns it (malloc'd) and its size,
 * or NULL when it would pass max_size bytes (0: no limit) or the base
 * is 4 GiB or more.
 */
void *create_delta(const void *base, size_t base_size, const void *target,
		   size_t target_size, size_t max_size, size_t *delta_size);
/*
 * The same in two steps, for one base and many targets: the index of
 * the base's blocks (it points into base, which must outlive it; NULL
 * when the base is 4 GiB or more), read only by the second step, so
 * any number of threads may share it.  Free with free_delta_index.
 */
struct delta_index;
struct delta_index *create_delta_index(const void *base, size_t size);
/* A delta from the indexed base to target, as create_delta. */
void *create_delta_from_index(const struct delta_index *ix,
			      const void *target, size_t target_size,
			      size_t max_size, size_t *delta_size);
/* The bytes the index takes (its memory). */
size_t sizeof_delta_index(const struct delta_index *ix);
void free_delta_index(struct delta_index *ix);

/* ---- loose.c: loose objects, their names and files ---- */

/* objects/xx/yyyy... (static buffer, per thread); NULL when too long. */
const char *sha1_file_name(const unsigned char *sha1);
/* 1 when sha1 is a loose object of the store (one stat). */
int has_loose_object(const unsigned char *sha1);
/*
 * Call fn for each loose object of one fan-out directory (first byte
 * first) or of the whole store, in no set order, and garbage (when not
 * NULL) for every other name there but "." files.  A non-zero return
 * from fn stops the walk and is returned.
 */
typedef int (*loose_fn)(const unsigned char *sha1, void *data);
typedef void (*loose_garbage_fn)(const char *path, const char *name,
				 void *data);
int for_each_loose_in_fanout(unsigned int first, loose_fn fn,
			     loose_garbage_fn garbage, void *data);
int for_each_loose_object(loose_fn fn, loose_garbage_fn garbage, void *data);
/* The loose objects of another object directory (an alternate). */
int for_each_loose_in_dir(const char *objdir, loose_fn fn, void *data);
/*
 * The listings: each fan-out directory is listed once, sorted, the
 * first time one of these asks about it.  list_loose_objects makes
 * them all now, on every core: after it, the others only read them and
 * may run on many threads at once; before it they are not thread-safe.
 */
void list_loose_objects(void);
/* 1 when sha1 was in its directory's listing (made once). */
int loose_listed(const unsigned char *sha1);
/* len, or one digit past what sha1 shares with a listed neighbour. */
int loose_abbrev_len(const unsigned char *sha1, int len);
/* open(2) of a loose object's file, read-only, O_NOATIME where allowed. */
int open_object_fd(const char *path);
/*
 * The bytes of the loose object file at path, *len of them, read or
 * (*mapped, big ones) mapped: the caller frees or unmaps; NULL (f).
 */
void *load_object_file(const char *path, size_t *len, int *mapped,
		       struct fault *f);
/* Open a stream on the loose object file at path (fsck, collisions). */
int open_object_file_stream(struct object_stream *st, const char *path,
			    struct fault *f);
/* The loose-object source: a stream on sha1's file (FAULT_MISSING). */
int open_loose_object(struct object_stream *st, const unsigned char *sha1,
		      struct fault *f);
/*
 * Type and size of a loose object from the first bytes of its file: 0,
 * -1 (f), or 1 when those bytes were too few (open the stream then).
 */
int loose_prefix_info(const unsigned char *sha1, enum object_type *type,
		      size_t *size, struct fault *f);

/* ---- alternates.c: other object directories' loose objects ---- */

/*
 * The alternate object directories: alt-chain.c's read_alternate_chain,
 * copied once (thread-safe).  A NULL-terminated list, made once.
 */
const char *const *alternate_object_dirs(void);
/* The loose-object source on the alternates (FAULT_MISSING). */
int open_alternate_loose(struct object_stream *st, const unsigned char *sha1,
			 struct fault *f);
/* 1 when sha1 is a loose object of an alternate. */
int has_alternate_loose(const unsigned char *sha1);
/* Loose ids with a hex prefix in the alternates (abbreviations). */
int for_each_alternate_loose_prefix(const char *hex, size_t len,
				    int (*fn)(const unsigned char *sha1,
					      void *data), void *data);

/*
 * pack.h: pack-idx.c, pack-cache.c, pack-map.c, pack-list.c,
 * pack-read.c and pack-check.c, the packed source, come here.
 */

/* ---- object-read.c: the object store's one reader ---- */

/*
 * The one reader.  Every lookup asks the sources in turn (pack files,
 * loose objects, the alternates' loose objects), so a new source
 * changes no tool; every object handed out is verified against its
 * id.  A lookup that misses looks for new packs once.
 */
int open_object_stream(struct object_stream *st, const unsigned char *sha1,
		       struct fault *f);
/* The same without the check against the id (the collision check). */
int open_object_unverified(struct object_stream *st,
			   const unsigned char *sha1, struct fault *f);
/* 1 when some source has sha1 (nothing is read). */
int has_sha1_file(const unsigned char *sha1);
/*
 * How many hex digits name sha1 (stored or not) without naming another
 * object (loose, packed or in an alternate), at least min: git's
 * abbreviation, one digit past what its nearest neighbours share.
 * From the listings (loose.c) and the idx files; not thread-safe,
 * unless list_loose_objects was called first.
 */
int unique_abbrev_len(const unsigned char *sha1, int min);
/* Lengths for find_abbrev_len besides a number of digits. */
#define ABBREV_DEFAULT 0	/* core.abbrev, else ABBREV_AUTO */
#define ABBREV_AUTO (-1)	/* git's rule from the count of objects */
/*
 * git's abbreviation of sha1 at len digits (4 to 40, or one of the
 * above), lengthened until unique as unique_abbrev_len does.
 */
int find_abbrev_len(const unsigned char *sha1, int len);
/* core.abbrev (once read): 4 to 40, or ABBREV_AUTO when unset or bad. */
int default_abbrev(void);
/* Type and size from the header only (cheap): -1 (f) on failure. */
int object_info(const unsigned char *sha1, enum object_type *type,
		size_t *size, struct fault *f);
/* Read and verify a whole object (malloc'd, NUL after it); NULL (f). */
void *read_object(const unsigned char *sha1, enum object_type *type,
		  size_t *size, struct fault *f);
/* Print the one-line error for a fault on sha1; returns -1. */
int report_object_fault(const unsigned char *sha1, const struct fault *f);
/* object_info, reporting its failure with report_object_fault. */
int sha1_object_info(const unsigned char *sha1, enum object_type *type,
		     size_t *size);
/* read_object, reporting its failure with report_object_fault. */
void *read_sha1_file(const unsigned char *sha1, enum object_type *type,
		     size_t *size);
/* As read_sha1_file, but also refuses an object of another type. */
void *read_object_of_type(const unsigned char *sha1,
			  enum object_type want, size_t *size);

/* ---- object-write.c: loose objects written, the collision check ---- */

/*
 * Store buf, whose id sha1 the caller computed, as a loose object.  If
 * an object of that name exists, it must hold these bytes (the
 * collision check): another content is refused, nothing overwritten.
 * -1 after error().
 */
int write_hashed_object(const void *buf, size_t len, enum object_type type,
			const unsigned char *sha1);
/*
 * write_hashed_object for an object sha1_file_unlisted said is new: no
 * lookup first.  Its file is made nameless and linked, which never
 * replaces, so one that came meanwhile is found then and checked as
 * write_sha1_file checks.  Thread-safe.
 */
int write_new_object(const void *buf, size_t len, enum object_type type,
		     const unsigned char *sha1);
/*
 * The collision check on content too big for memory (a big file): the
 * stored object sha1 against type, size and the bytes next(data, buf,
 * n) fills in, n at a time (0, or -1 after error()).  1 when they
 * differ, 0 when not, -1 after error().  next is called for every
 * byte, even after a difference, so that the caller can hash all of
 * it and tell a collision (report_collision: -1) from a file that
 * changed while it was read.
 */
typedef int (*piece_fn)(void *data, unsigned char *buf, size_t n);
int compare_stored_pieces(const unsigned char *sha1, enum object_type type,
			  size_t size, piece_fn next, void *data);
/* The error for an object that exists with other bytes; returns -1. */
int report_collision(const unsigned char *sha1);
/*
 * Objects whose name is known only once written (big files streamed
 * in): open_tmp_object makes dir/tmp_obj_XXXXXX (*tmp, malloc'd; -1
 * after error()), a name that can never be an object's.
 */
int open_tmp_object(const char *dir, char **tmp);
/*
 * Rename the finished file tmp (fd, closed here) to sha1's name, or,
 * when that exists, run the collision check and remove it.  -1 after
 * error().
 */
int place_tmp_object(const char *tmp, int fd, const unsigned char *sha1);
/*
 * While on, new loose objects (up to 256) are written whole with no
 * name and get their names only at sync_written_objects, after a
 * syncfs has made their bytes durable: a crash never leaves a name
 * with no bytes.  Until then no reader finds them.  Not thread-safe.
 */
void hold_object_names(int on);
/*
 * One syncfs(2) of the object store when this process wrote loose
 * objects since the last, then fsync(fd) when fd >= 0; nothing when
 * sync_wanted() says no.  Objects held (hold_object_names) are synced,
 * named, in the order they were written, and synced again.  -1 after
 * error().  (flush_to_disk, promise.c, is what tools call.)
 */
int sync_written_objects(int fd);

/* ---- pack-write.c: new objects as one pack ---- */

/*
 * An object to store: its id (computed by the caller) and its len
 * bytes of content, in buf, or when buf is NULL at offset in file fd.
 */
struct pack_object {
	unsigned char sha1[HASH_MAX_RAWSZ];
	enum object_type type;
	void *buf;
	size_t len;
	int fd;
	uint64_t offset;
};
/*
 * The content of o: o->buf itself (*to_free NULL), or read from its
 * file into a NUL-terminated buffer the caller frees (*to_free).  NULL
 * after error().
 */
const void *pack_object_content(const struct pack_object *o,
				void **to_free);
/*
 * Store the nr objects (none twice) as one new pack, objects/pack/
 * pack-<id>.pack, whole objects deflated on every core, and its idx
 * v2.  Each file is written under a temporary name, synced (unless
 * DIRCACHE_NO_SYNC) and renamed, the pack first and the idx last, then
 * the directory is synced: no reader and no crash sees an idx without
 * its whole pack.  0, or -1 after error() (no idx left behind).
 */
int write_pack_objects(const struct pack_object *objs, size_t nr);
struct pack_tmp;
/*
 * write_pack_objects in two steps, so that a caller can do other work
 * while the pack's pages go to disk: the pack and its idx written
 * under temporary names in t, their write-back started (0, or -1
 * after error(): then remove_pack_tmp(t)); then synced and renamed
 * into place, the directory synced, t removed (0, or -1 after
 * error()).
 */
int write_pack_objects_unplaced(struct pack_tmp *t, unsigned char *pack_sha1,
				const struct pack_object *objs, size_t nr);
int place_new_pack(struct pack_tmp *t, const unsigned char *pack_sha1);
/*
 * The header of a pack entry into hdr (32 bytes): type and size, and
 * for an OFS_DELTA how far back its base starts.  Its length.
 */
int pack_entry_header(unsigned char *hdr, int type, uint64_t size,
		      uint64_t base_distance);
/*
 * Append the content of object sha1 (of the type and size the caller
 * was told) to hf as the zlib data of a pack entry, deflated at level
 * a piece at a time as it is read and checked: an object of any size,
 * never held whole.  *crc goes on over the bytes written.  0, or -1
 * (f: the object's fault, or FAULT_IO for zlib or the write).
 */
int write_streamed_entry(struct hashfile *hf, const unsigned char *sha1,
			 enum object_type type, size_t size, int level,
			 uint32_t *crc, struct fault *f);
/* An object of a pack, as its idx lists it. */
struct pack_idx_entry {
	unsigned char sha1[HASH_MAX_RAWSZ];
	uint32_t crc;		/* of its entry's bytes */
	uint64_t offset;	/* of its entry in the pack */
};
/*
 * The idx v2 of the nr entries (sorted by id) of the pack whose
 * trailer is pack_sha1 into fd: 0, or -1 with errno.
 */
int write_pack_idx(int fd, const struct pack_idx_entry *ents, size_t nr,
		   const unsigned char *pack_sha1);
/*
 * A new pack under a temporary name, for <base>-<hex>.pack and .idx:
 * open_pack_tmp makes pack_fd (a temporary file in base's directory,
 * made if need be) for the caller to write the pack into;
 * finish_pack_tmp sorts ents, writes the idx and renames both into
 * place (pack first, each synced; -1 after error()); remove_pack_tmp
 * removes whatever temporary file is left and frees t (always call it).
 */
struct pack_tmp {
	char *dir, *base;
	char *tmp_pack, *tmp_idx;
	int pack_fd, idx_fd;
};
int open_pack_tmp(struct pack_tmp *t, const char *base_name);
int finish_pack_tmp(struct pack_tmp *t, struct pack_idx_entry *ents,
		    size_t nr, const unsigned char *pack_sha1);
void remove_pack_tmp(struct pack_tmp *t);
/*
 * finish_pack_tmp's two halves: the idx written beside the pack (the
 * write-back of both started), then both synced and renamed into
 * place and the directory synced.  Each 0, or -1 after error().
 */
int write_pack_tmp_idx(struct pack_tmp *t, struct pack_idx_entry *ents,
		       size_t nr, const unsigned char *pack_sha1);
int place_pack_tmp(struct pack_tmp *t, const unsigned char *pack_sha1);
/*
 * The pieces, for index-pack's other names: sort ents by id (-1 with
 * the id found twice in dup, rawsz bytes); a new file <dir>/<prefix>XXXXXX
 * (dir made if need be: its fd, the name in *tmp, malloc'd; -1 after
 * error()); make *tmp (fd, closed here) read-only, synced unless
 * DIRCACHE_NO_SYNC, and rename it to path (0 and *tmp freed and NULL,
 * or -1 after error() with *tmp left for the caller to remove); fsync
 * a directory unless DIRCACHE_NO_SYNC (-1 after error()).
 */
int sort_pack_idx(struct pack_idx_entry *ents, size_t nr,
		  unsigned char *dup);
int open_pack_tmp_file(const char *dir, const char *prefix, char **tmp);
int place_pack_file(char **tmp, int *fd, const char *path);
int sync_pack_dir(const char *dir);

/* ---- promise.c: write_sha1_file, now or at the next flush ---- */

/*
 * Store buf as a loose object and put its name in sha1, with the
 * collision check of write_hashed_object; while promise_writes(1) is
 * on, promise it instead (below).  -1 after error().
 */
int write_sha1_file(const void *buf, size_t len, enum object_type type,
		    unsigned char *sha1);
/*
 * Make what this process wrote durable: the promised objects written
 * (write_promised_objects), then sync_written_objects(fd): one
 * syncfs(2) of the object store when objects were written, then
 * fsync(fd) when fd >= 0.  DIRCACHE_NO_SYNC=1 skips the syncs, for
 * scratch work.  -1 after error().
 */
int flush_to_disk(int fd);
/*
 * has_sha1_file for many lookups in a row: each fan-out directory is
 * listed once and searched (loose.c), instead of one stat per object
 * (write-tree checks every blob of the index); a promised object
 * counts.  A name not listed is looked for again, as it may have come
 * since.  Not thread-safe, unless list_loose_objects was called first.
 */
int has_sha1_file_listed(const unsigned char *sha1);
/*
 * 1 when the listings say sha1 is new to the store: not a listed loose
 * object, not packed, not promised, and no alternate to ask (so
 * write_new_object may store it without a lookup).  Not thread-safe.
 */
int sha1_file_unlisted(const unsigned char *sha1);


/*
 * A run that makes many objects and syncs them only now and then
 * (applymbox) hashes each at once and writes them together, on every
 * core, when flush_to_disk is next called: promise_object keeps a copy
 * of buf and gives its id (an object already stored is not kept).  The
 * copies go to a nameless scratch file in the object directory, not
 * to memory: a run holds tens of megabytes between flushes, which the
 * kernel may then write back rather than the process keep.
 * Until then the object is not in the store: has_sha1_file_listed
 * counts it, promised_object says so (and its size),
 * read_promised_object gives its content, and no other reader sees
 * it; the content stays at hand after the flush, until drop_promises.
 * A process that exits without the flush loses them, as it loses any
 * write not yet synced.  -1 after error() (the scratch file full).
 */
int promise_object(const void *buf, size_t len, enum object_type type,
		   unsigned char *sha1);
/* From now on write_sha1_file promises (on) or writes (off). */
void promise_writes(int on);
int promising_writes(void);
/* 1 when sha1 is promised (its size in *len if len), else 0. */
int promised_object(const unsigned char *sha1, size_t *len);
/*
 * The content of a promised object, NUL-terminated, in a buffer the
 * caller frees, its size in *len; NULL when sha1 is not promised or
 * after error().  Safe on many threads at once.
 */
void *read_promised_object(const unsigned char *sha1, size_t *len);
/* Store what was promised since (flush_to_disk calls it first). */
int write_promised_objects(void);
/* Forget the promises, written or not (their content goes too). */
void drop_promises(void);

/* ---- promisor.c: partial clones ---- */

struct packed_git;
/* Does a remote promise objects (promisor, a filter, partialClone)? */
int promisor_remote_configured(void);
/* Has p a ".promisor" file beside it (fetched from a promisor remote)? */
int is_promisor_pack_file(const struct packed_git *p);

/* ---- object.c: trees, commits and tags ---- */

#define S_IFGITLINK 0160000
#define S_ISGITLINK(m) (((m) & S_IFMT) == S_IFGITLINK)

struct tree_desc {
	const unsigned char *buf;
	size_t size;
};

struct name_entry {
	const char *path;
	size_t pathlen;
	unsigned int mode;
	const unsigned char *sha1;
};

/* Start reading the size bytes of a tree at buf (they must outlive desc). */
void init_tree_desc(struct tree_desc *desc, const void *buf, size_t size);
/*
 * Take the next entry: 1 when one was taken, 0 at the end, -1 when the
 * bytes are malformed (no error printed: callers name the tree).  The
 * mode is canonical (canon_mode), as git reads it.
 */
int tree_entry_next(struct tree_desc *desc, struct name_entry *entry);
/* The same with the mode as written, for fsck. */
int tree_entry_raw(struct tree_desc *desc, struct name_entry *entry);
/*
 * The mode git reads a tree entry's mode as: any regular file 100644
 * or 100755 by its owner's x bit, 120000, 40000, else 160000.
 */
unsigned int canon_mode(unsigned int mode);

/* Compare two tree entry names in git's order (a tree sorts as "name/"). */
int base_name_compare(const char *n1, size_t l1, unsigned int m1,
		      const char *n2, size_t l2, unsigned int m2);

/* The object type that a tree entry of this mode names. */
enum object_type object_type_of_mode(unsigned int mode);

struct commit_info {
	unsigned char tree[HASH_MAX_RAWSZ];
	unsigned char (*parents)[HASH_MAX_RAWSZ];	/* malloc'd; free with the struct */
	size_t nr_parents;
};
/* Parse the tree and parent lines of a commit; -1 when malformed. */
int parse_commit_buffer(const void *buf, size_t size, struct commit_info *ci);
void free_commit_info(struct commit_info *ci);
/*
 * 1 when sha1 is listed in the common directory's shallow file (a
 * shallow clone's boundary): git sees such a commit as having no
 * parents, and so must every walk.  Read once; thread-safe.
 */
int is_shallow_commit(const unsigned char *sha1);
/* The object and type lines of a tag; -1 when malformed. */
int parse_tag_buffer(const void *buf, size_t size, unsigned char *sha1,
		     enum object_type *type);
/*
 * Read sha1 as a want, peeling as git does: a tag gives the object it
 * names, a commit its tree (when want is a tree).  The content
 * (malloc'd) and, when peeled is not NULL, the id it came from; NULL
 * after error() when it cannot be peeled to want.
 */
void *read_object_peeled(const unsigned char *sha1, enum object_type want,
			 size_t *size, unsigned char *peeled);
/*
 * The id read_object_peeled would read, into peeled, without reading
 * the object itself (a blob of any size is not held): 0, or -1 after
 * error().
 */
int peel_object(const unsigned char *sha1, enum object_type want,
		unsigned char *peeled);

/*
 * A file "a" and a directory "a" cannot both be in one tree, and in
 * git's order they need not be neighbours ("a-b" and "a.c" sort
 * between them).  Fed the names of one tree in order, a df_check
 * remembers the files that a later directory could clash with.
 */
struct df_name {
	const char *name;
	size_t len;
};

struct df_check {
	struct df_name *files;
	size_t nr, alloc;
};

/* Note a file (name must stay valid while c is used). */
void df_check_file(struct df_check *c, const char *name, size_t len);
/* 1 when a file of this name came before the directory name. */
int df_check_dir(struct df_check *c, const char *name, size_t len);
void df_check_clear(struct df_check *c);

/*
 * A tree-ish: the tree itself, or the tree a commit names, through
 * any tags (peeled as git peels them).  Returns
 * the tree's content and puts the tree's id in tree_sha1; NULL after
 * error().
 */
void *read_tree_ish(const unsigned char *sha1, size_t *size,
		    unsigned char *tree_sha1);

/*
 * Walk n (at most MAX_TRAVERSE_TREES) trees in step, in git's tree
 * order: fn gets, for each name, the entry of every tree that has it
 * (NULL where a tree has none).  A blob "a" and a tree "a" are
 * different names in that order, so they come in separate calls.  A
 * non-zero return from fn stops the walk and is returned; -1 when an
 * entry is malformed (check the trees first to say which).
 */
#define MAX_TRAVERSE_TREES 4
typedef int (*traverse_fn)(int n, const struct name_entry **entries,
			   void *data);
int traverse_trees(int n, struct tree_desc *t, traverse_fn fn, void *data);
/*
 * traverse_trees(2, t, fn, data) for a diff: fn is called only for the
 * names whose entries differ (present on one side, or another mode or
 * id); a run of entries the two trees hold byte for byte the same is
 * stepped over without being parsed.
 */
int traverse_tree_changes(struct tree_desc *t, traverse_fn fn, void *data);

/* ---- refs.c: reading and writing refs ---- */

/*
 * 0 when name may be a ref: "HEAD" or "refs/..." without "..", "//",
 * a component starting with ".", control or special characters, "@{",
 * or a ".lock" or "/" or "." at the end; else -1.
 */
int check_ref_name(const char *name);
/*
 * The id a ref names, following "ref: <name>" (at most 5 deep), loose
 * files first, then packed-refs.  0, or -1 when it names nothing.
 * With resolved (may be NULL), the name of the last ref followed
 * (malloc'd), also for a symbolic ref to a branch not yet born.
 */
int resolve_ref(const char *name, unsigned char *sha1, char **resolved);
int read_ref(const char *name, unsigned char *sha1);
/*
 * The id HEAD names in the repository of the submodule at path
 * (path/.git, a directory or a "gitdir: " file).  0, or -1 when there
 * is none (no repository, or an unborn branch).  Thread-safe.
 */
int resolve_gitlink_head(const char *path, unsigned char *sha1);
/*
 * The file of ref name (malloc'd): HEAD and refs/bisect, refs/worktree
 * and refs/rewritten in $GIT_DIR (a worktree's own), every other ref
 * in the common directory, as git places them.
 */
char *ref_path(const char *name);
typedef int (*each_ref_fn)(const char *name, const unsigned char *sha1,
			   void *data);
/*
 * Call fn for every ref under refs/ (loose and packed, a loose one
 * hiding its packed copy) in name order; a non-zero return stops the
 * walk and is returned.  Directories are walked without recursion.
 */
int for_each_ref(each_ref_fn fn, void *data);
/*
 * Call fn for the HEAD of every other worktree of the repository
 * ("main-worktree/HEAD", then "worktrees/<id>/HEAD" in name order)
 * that names an object, as git rev-list --all adds them; a non-zero
 * return stops and is returned.
 */
int for_each_other_head(each_ref_fn fn, void *data);
/*
 * Point ref name (not HEAD) at sha1 under <ref>.lock, after syncing
 * the objects.  With old_sha1, only if the ref still holds it (all
 * zeros: only if it does not exist).  -1 after error().
 */
int update_ref(const char *name, const unsigned char *sha1,
	       const unsigned char *old_sha1);

/* ---- fsck.c: checking objects as git fsck does ---- */

/* Info is printed as a warning; a warning is an error under --strict. */
enum fsck_level {
	FSCK_INFO = 1,
	FSCK_WARN,
	FSCK_ERROR,
};

/*
 * report (may be NULL) gets each problem as "msgId: text", at its
 * level after strict; first is set to the id of the first error.
 */
struct fsck_options {
	int strict;
	void (*report)(void *data, enum fsck_level level, const char *msg);
	void *data;
	const char *first;
	int walkable;		/* fsck_object_stream: trees pass check_tree */
};

/*
 * Check an object's content as git fsck does; each returns 1 when an
 * error-level problem was found (commits and tags stop at the first).
 * fsck_tag also gives the id and type the tag names.
 */
int fsck_tree(const void *buf, size_t size, struct fsck_options *o);
int fsck_commit(const void *buf, size_t size, struct fsck_options *o);
int fsck_tag(const void *buf, size_t size, struct fsck_options *o,
	     unsigned char *sha1, enum object_type *type);
/*
 * For tools that read trees: NULL when the tree may be walked (every
 * entry parses, sorted, no duplicates, no name that is /-separated,
 * ".", ".." or a .git or .dircache in disguise), else a static
 * "msgId: text" such as "duplicateEntries: contains duplicate file
 * entries".  Old modes (100664, zero-padded) are fine: they are read
 * as git reads them.
 */
const char *check_tree(const void *buf, size_t size);

/*
 * The skeleton of the two gates (fsck-cache, verify-objects): a table
 * of objects, each read whole and checked on its own (on every core),
 * its links kept for the walk that follows.  A tool's object struct
 * begins with a struct fsck_object, so that the table is searched with
 * find_sha1_in_table and sorted with sort_sha1_table.
 */
struct fsck_link {
	unsigned char sha1[HASH_MAX_RAWSZ];
	signed char type;	/* what the referrer says it is */
};
struct fsck_object {
	unsigned char sha1[HASH_MAX_RAWSZ];
	signed char type;	/* OBJ_NONE until read, OBJ_BAD if unreadable */
	struct fsck_link *links;	/* malloc'd; the tool frees them */
	size_t nr_links, alloc_links;
};
/* Add a link from o to sha1, which o says is a type. */
void fsck_add_link(struct fsck_object *o, const unsigned char *sha1,
		   int type);
/*
 * Read the object st streams to its end, every check made (zlib
 * stream, header, SHA-1 against o->sha1: verify_object_stream is done
 * here), set o->type, check a tree, commit or tag with opt (its
 * problems go to opt->report; with walkable, a tree must pass
 * check_tree first) and add its links to o: a tree's entries but
 * gitlinks, a commit's tree and parents, what a tag names.  0, and
 * *buf the object's bytes (malloc'd, NULL for a blob); or -1 with f
 * when it is unreadable (o->type OBJ_BAD).  Thread-safe for distinct
 * objects.
 */
int fsck_object_stream(struct fsck_object *o, struct object_stream *st,
		       struct fsck_options *opt, char **buf, struct fault *f);
/*
 * The same, each link given to link(opt->data, sha1, type) instead of
 * added to o (link NULL: added), so that a tool need not hold them all.
 * A tree's .gitmodules or .gitattributes file (not a symlink) comes
 * with FSCK_LINK_GITMODULES or FSCK_LINK_GITATTRIBUTES or'ed into its
 * type, for git fsck's check that those blobs can be read.
 */
#define FSCK_LINK_GITMODULES 0x10
#define FSCK_LINK_GITATTRIBUTES 0x20
int fsck_object_links(struct fsck_object *o, struct object_stream *st,
		      struct fsck_options *opt,
		      void (*link)(void *data, const unsigned char *sha1,
				   int type),
		      char **buf, struct fault *f);

/* ---- sha1_name.c: ids from the command line ---- */

/*
 * A command-line id as git reads it: 40 hex digits, a ref name (x,
 * refs/x, refs/tags/x, refs/heads/x, refs/remotes/x, and
 * refs/remotes/x/HEAD, in that order; git's warning when ambiguous),
 * or a unique abbreviation of at least four digits ("@" is HEAD);
 * then git's suffixes ^{type}, ^{}, ^{/<text>}, ^<n>, ~<n>, and
 * ":<path>" (the object at path in the tree); or ":/<text>", the
 * youngest commit whose message matches.  Prints an error and returns
 * -1 when it names nothing or more than one object.
 */
int get_sha1(const char *name, unsigned char *sha1);
/*
 * The path of "<rev>:<path>" or ":<path>" from the top: as given, or,
 * for "./" and "../" paths, from where the porcelain ran
 * (DIRCACHE_PREFIX), "." and ".." resolved.  Malloc'd; NULL when the
 * path leaves the top.
 */
char *name_path_from_top(const char *path);

/* ---- worktree.c: work-tree files in and out of the store ---- */

/* 0 for a regular file or a symlink; else -1 after "unsupported file type". */
int check_work_file_type(const char *path, const struct stat *st);
/*
 * The content of a work-tree path that lstat described as st: a
 * regular file's bytes or a symlink's target (malloc'd, NUL after it).
 * NULL after error() for any other type and for a file that changes
 * size or type while it is read.
 */
char *read_work_file(const char *path, const struct stat *st, size_t *size);
/* read_work_file that prints nothing: NULL with f (for a worker). */
char *read_work_file_f(const char *path, const struct stat *st,
		       size_t *size, struct fault *f);
/*
 * Hash a file or symlink as index_path(..., 0, ...) does, printing
 * nothing; with keep, hand back the bytes as index_path_keep does.  0,
 * or -1 with f.  Thread-safe.
 */
int hash_work_file(const char *path, const struct stat *st,
		   unsigned char *sha1, char **keep, size_t *size,
		   struct fault *f);
/* Hash a file or symlink the way update-cache stores it (write_object: store it). */
int index_path(const char *path, const struct stat *st, int write_object,
	       unsigned char *sha1);
/*
 * index_path that hands back the bytes it read and hashed in *keep
 * (malloc'd, *size bytes; NULL for a big file, which is hashed a piece
 * at a time), for a caller that needs them next (show-diff's patch).
 */
int index_path_keep(const char *path, const struct stat *st,
		    int write_object, unsigned char *sha1, char **keep,
		    size_t *size);
/* Is path's content the blob sha1?  1 yes, 0 no, -1 error. */
int path_matches_sha1(const char *path, const struct stat *st,
		      const unsigned char *sha1);
/*
 * Write blob sha1 into fd (path names it in messages) a piece at a
 * time, so memory stays flat whatever the blob's size.  Every check of
 * the reader is made, the hash when the stream ends: on -1 (reported)
 * the bytes already written are not the blob and the caller must throw
 * them away.  When fd is a new empty file, whole pieces of zeros are
 * left as holes (a sparse file reads back the same bytes).
 */
int stream_blob_to_fd(int fd, const char *path, const unsigned char *sha1);
/*
 * The same into fd, a regular file just created (empty, at offset 0),
 * without the fstat and lseek that find that out.
 */
int stream_blob_to_new_file(int fd, const char *path,
			    const unsigned char *sha1);

/* ---- check-later.c: objects read now, checked on another core ---- */

struct check_later;
struct later_job;

/* An object read by read_later: buf (size bytes, NUL after them). */
struct later_obj {
	void *buf;
	size_t size;
	struct later_job *job;	/* its check, NULL when done inline */
};

/* A thread that checks what read_later reads; NULL: none (inline). */
struct check_later *start_check_later(void);
/*
 * Read sha1, of type want, into o: unverified and queued on cl's
 * thread for its hash (and check_tree for a tree, named by path in
 * the message when not NULL), or with cl NULL verified and checked
 * now.  0, or -1 after error().  o->buf is
 * usable at once but not trusted until wait_check_later says so;
 * give it back with release_later, never free().
 */
int read_later(struct check_later *cl, const unsigned char *sha1,
	       enum object_type want, const char *path, struct later_obj *o);
void release_later(struct check_later *cl, struct later_obj *o);
/* Wait for every check queued: 0, or -1 after error() for the first bad. */
int wait_check_later(struct check_later *cl);
/* Stop the thread (after the checks queued); NULL allowed. */
void stop_check_later(struct check_later *cl);
/* How many objects read_later has queued on cl so far: a mark. */
uint64_t later_mark(struct check_later *cl);
/*
 * The mark below which every object has passed by now, without
 * waiting: what output made of them can go.
 */
uint64_t later_passed_mark(struct check_later *cl);

/*
 * Output held (in memory, behind out) until the objects it was made of
 * have passed cl's checks, then written to stdout.  ends: where each
 * piece that may go alone ends in buf, and later_mark there.
 */
struct held_output {
	struct check_later *checker;
	FILE *out;
	char *buf;
	size_t len, sent;
	struct held_end {
		size_t at;
		uint64_t mark;
	} *ends;
	size_t nr_ends, alloc_ends;
};
/* Hold what is written to h->out from now on: 0, or -1 after error(). */
int hold_output(struct held_output *h, struct check_later *cl);
/* The output so far may go once every object read by now passed. */
void held_mark_end(struct held_output *h);
/* Bytes written to h->out and not yet sent. */
size_t held_unsent(struct held_output *h);
/*
 * Write to stdout the pieces whose objects passed: all that were marked
 * when wait (waiting for the checks), else those passed by now.  0; 1
 * when a check failed (its error() said which, the pieces before it
 * went); -1 after error().  h->out may change: use it afresh.
 */
int send_held(struct held_output *h, int wait);
/* Mark the end, wait, send and free: as send_held, h->out is gone. */
int stop_holding(struct held_output *h);

/* ---- diff-ahead.c: a diff's trees read from its far end, on another core ---- */

struct diff_ahead;

/* A pair of subtrees that differ (has_one/has_two: which sides have it). */
struct ahead_pair {
	unsigned char one[HASH_MAX_RAWSZ], two[HASH_MAX_RAWSZ];
	unsigned char has_one, has_two;
};

/*
 * The pairs of subtrees that differ between two trees (either may be
 * empty), in the order a diff walks them: *pairs malloc'd, *nr of
 * them; traverse_trees' result.
 */
int diff_tree_pairs(const void *buf1, size_t size1, const void *buf2,
		    size_t size2, struct ahead_pair **pairs, size_t *nr);
/* A thread that reads a diff's trees from its far end; NULL: none. */
struct diff_ahead *start_diff_ahead(void);
/*
 * The walk enters a directory whose pairs (diff_tree_pairs'; da
 * frees them) it will walk in order; pop when it leaves.  Popping the
 * first level ends the diff: what was read and not taken is freed.
 */
void ahead_push_level(struct diff_ahead *da, struct ahead_pair *pairs,
		      size_t nr);
void ahead_pop_level(struct diff_ahead *da);
/*
 * The walk goes into the next pair of its level: 0 when the walk
 * reads it, else the ticket of the thread, which reads it and all
 * below it.
 */
uint64_t ahead_claim(struct diff_ahead *da);
/*
 * A tree of a pair the thread took (its ticket), into o (hash and
 * check_tree passed; o->job NULL): 0, waiting for it if need be; -1
 * when the thread did not read it (the caller reads it itself).
 */
int ahead_take(struct diff_ahead *da, uint64_t ticket,
	       const unsigned char *sha1, struct later_obj *o);
/* Stop the thread and free what it holds (NULL allowed). */
void stop_diff_ahead(struct diff_ahead *da);

/* ---- tree-diff.c: the files two trees hold differently ---- */

/*
 * Called for each file (blob, symlink or gitlink) whose mode or id
 * differs between the trees, in git's tree order, with its full path
 * (len bytes, NUL-terminated; valid during the call only) and its
 * entry on each side (NULL where the side has none).  A change of
 * type comes as one call with both.  Non-zero stops the walk.
 */
typedef int (*tree_change_fn)(const char *path, size_t len,
			      const struct name_entry *one,
			      const struct name_entry *two, void *data);
/*
 * Walk trees old and new (NULL: the empty tree) recursively, only
 * where ps (NULL: everything) selects, calling fn for each change.
 * fn's first non-zero return is returned; -1 after error() when a
 * tree is missing, malformed or nested too deep.
 */
int diff_trees(const unsigned char *old, const unsigned char *new,
	       const struct pathspec *ps, tree_change_fn fn, void *data);
/* 1 when the trees differ where ps selects, 0 when not; -1 after error(). */
int trees_differ(const unsigned char *old, const unsigned char *new,
		 const struct pathspec *ps);
/*
 * Trees read from now on by diff_trees and trees_differ are read
 * unverified and checked on cl (check-later.c): the caller holds what
 * it makes of them until wait_check_later passes.  NULL: checked as
 * read again (the trees kept from cl are let go: call it so before
 * stop_check_later).
 */
void tree_diff_check_later(struct check_later *cl);

/* ---- cache-tree.c: the index's cache tree (TREE extension) ---- */

struct cache_tree;
struct cache_entry;
struct mbuf;

/* An empty, invalid node (the caller frees it with cache_tree_free). */
struct cache_tree *cache_tree_new(void);
void cache_tree_free(struct cache_tree *it);
/* A TREE extension's payload parsed (caller frees); NULL when corrupt. */
struct cache_tree *cache_tree_parse(const unsigned char *buf, size_t len);
/* Append the TREE payload of it to b: 0, or -1 out of memory. */
int cache_tree_write(struct mbuf *b, const struct cache_tree *it);
/* Mark invalid every directory above path (len bytes), as git does. */
void cache_tree_invalidate_path(struct cache_tree *it, const char *path,
				size_t len);
/*
 * The tree of directory dir (len bytes, no '/' at its end; "" is the
 * root) and the index entries it covers: 1 when it is valid, else 0.
 */
int cache_tree_lookup(struct cache_tree *it, const char *dir, size_t len,
		      unsigned char *sha1, unsigned int *nr);
/*
 * Record dir's tree and entry count (-1: invalid, as when it holds an
 * "add -N" entry), creating its node; the nodes above are untouched.
 */
void cache_tree_set(struct cache_tree *it, const char *dir, size_t len,
		    const unsigned char *sha1, int nr);
/*
 * write-tree's pass, as git's: clear the marks, mark what it sets or
 * keeps (dir's node and all below it), then drop the directories it
 * did not meet, which the index no longer has.
 */
void cache_tree_clear_used(struct cache_tree *it);
void cache_tree_keep(struct cache_tree *it, const char *dir, size_t len);
void cache_tree_drop_unused(struct cache_tree *it);
/* Is every node valid, its tree in the store?  (NULL: no.) */
int cache_tree_fully_valid(const struct cache_tree *it);
/*
 * A new cache tree of the nr entries (sorted) as git's read-tree leaves
 * it after a merge (cache_tree_update, "repair"): each directory's tree
 * hashed and kept where the store has it, else invalid; the nodes above
 * a directory with neither stay invalid and their later subtrees are
 * not made.  NULL (no TREE) when an entry is unmerged or a path is both
 * a file and a directory.  The caller frees it.
 */
struct cache_tree *cache_tree_repair(struct cache_entry **ces,
				     unsigned int nr);

/* ---- read-cache.c: the index's entries in memory ---- */

struct cache_time {
	uint32_t sec;
	uint32_t nsec;
};

struct cache_entry {
	struct cache_time ce_ctime;
	struct cache_time ce_mtime;
	uint32_t ce_dev;
	uint32_t ce_ino;
	uint32_t ce_mode;
	uint32_t ce_uid;
	uint32_t ce_gid;
	uint32_t ce_size;
	unsigned char sha1[HASH_MAX_RAWSZ];
	uint16_t ce_flags;	/* stage in CE_STAGEMASK, as on disk */
	uint16_t ce_ext_flags;	/* index v3 extended flags */
	uint16_t ce_state;	/* in memory only: CE_UPTODATE */
	uint32_t ce_namelen;
	char name[];		/* NUL-terminated */
};

#define CE_NAMEMASK 0x0fff
#define CE_STAGEMASK 0x3000
#define CE_EXTENDED 0x4000
#define CE_VALID 0x8000
#define CE_STAGESHIFT 12
/* In ce_ext_flags, as git: "git add -N" and sparse checkout. */
#define CE_INTENT_TO_ADD 0x2000
#define CE_SKIP_WORKTREE 0x4000
/* Stat data was just taken from a file known to hold this content. */
#define CE_UPTODATE 0x0001

static inline unsigned int ce_stage(const struct cache_entry *ce)
{
	return (ce->ce_flags & CE_STAGEMASK) >> CE_STAGESHIFT;
}

/* A sparse index's directory entry ("dir/", mode 040000, a tree). */
static inline int ce_sparse_dir(const struct cache_entry *ce)
{
	return ce->ce_mode == 040000;
}

extern struct cache_entry **active_cache;
extern unsigned int active_nr;
extern size_t active_alloc;
/* The index's cache tree, or NULL; dropped by discard_cache. */
extern struct cache_tree *active_cache_tree;

/* The index mode for a file of this stat mode. */
unsigned int ce_mode_from_stat(unsigned int st_mode);

/* A new entry for name (len bytes), zeroed but for name and namelen. */
struct cache_entry *make_cache_entry(const char *name, size_t len);
/* Free an entry that left the index (entries read from disk stay). */
void free_cache_entry(struct cache_entry *ce);
/*
 * Could ce have changed after it was hashed without its stat data
 * showing it (its mtime is not older than the index file's)?
 */
int ce_is_racy(const struct cache_entry *ce);
void fill_stat_cache_info(struct cache_entry *ce, const struct stat *st);
/* Differences between an entry and what lstat saw. */
#define MTIME_CHANGED 0x0001
#define CTIME_CHANGED 0x0002
#define OWNER_CHANGED 0x0004
#define MODE_CHANGED 0x0008
#define INODE_CHANGED 0x0010
#define DATA_CHANGED 0x0020
#define TYPE_CHANGED 0x0040
/* Compare stat data only. */
unsigned int ce_match_stat_basic(const struct cache_entry *ce,
				 const struct stat *st);
/*
 * Stat data, and for a "racily clean" entry (modified in the second
 * the index was written) the content too; a gitlink by its directory
 * and the HEAD of the repository there, as git.  0 means unchanged.
 */
unsigned int ce_match_stat(const struct cache_entry *ce,
			   const struct stat *st);

/* ---- index-read.c: read_cache ---- */

/*
 * Load the index (no file means an empty index): versions 2, 3 and 4.
 * Verifies signature, version, checksum, every path and the order of
 * entries.  A split index ("link") is read whole with its shared
 * index; a sparse one's directory entries ("sdir") are kept.  Of the
 * other extensions, TREE becomes active_cache_tree and REUC is kept;
 * UNTR, FSMN, EOIE and IEOT are dropped (git reads that as "not
 * cached"); another required (lower-case) one is refused.  Returns the
 * number of entries or -1.
 */
int read_cache(void);
/*
 * read_cache, but a big index's checksum may still be computed, on a
 * thread of its own, when it returns: the caller works on the entries
 * (lstat, say) meanwhile, and calls finish_index_check before it
 * prints or writes anything that depends on them.
 */
int read_cache_overlapped(void);
/*
 * Wait for the checksum read_cache_overlapped left running: 0, or -1
 * after error() when it was bad (and on every later call).
 */
int finish_index_check(void);
void discard_cache(void);
/*
 * Make ces (nr of alloc, sorted; the index takes them) the index's
 * entries, the old ones freed; what the read kept stays (the cache
 * tree, invalidated where the paths differ when written; the split
 * index; the version).
 */
void replace_cache_entries(struct cache_entry **ces, unsigned int nr,
			   size_t alloc);
/* Load the index from an index file's bytes (name for messages). */
int read_index_from_buffer(const void *buf, size_t size, const char *name);
/* Forget the index's resolve-undo record (REUC), as read-tree does. */
void drop_resolve_undo(void);
/*
 * The cache tree, its directories whose paths changed since the read
 * marked invalid (so valid nodes can be trusted now), or NULL.
 */
struct cache_tree *index_cache_tree(void);
/* The same, a new empty one made first when the index has none. */
struct cache_tree *index_cache_tree_or_new(void);
/*
 * Called before the read by a tool that changes no entry's path, mode,
 * id or stage (stat data at most): the cache tree stays valid without
 * the digest of every entry kept to find what changed (8 bytes an
 * entry).
 */
void index_entries_kept(void);
/*
 * Called before the read by a tool that never writes the index: what
 * only a write keeps (the cache tree, REUC, UNTR) is skipped, unparsed.
 */
void index_read_only(void);
/*
 * ce leaves the index (remove_cache_entry_at): its directories' trees
 * in the cache tree are no longer valid.
 */
void index_entry_removed(const struct cache_entry *ce);
/*
 * The cache tree was just brought up to date with the index as it is
 * now (write_index_tree): only later changes invalidate it.
 */
void index_cache_tree_synced(void);

/* ---- index-write.c: commit_index ---- */

/*
 * Writing: take index.lock (lockfile.c), write, then commit it over
 * the index.  The lock is removed on failure, die() and signals.  The
 * index is written in the version it was read in (v2 and v3 as the
 * entries need, as git); a new one in GIT_INDEX_VERSION's or
 * index.version's, else v2.  A split index is written split (a new
 * shared index when much changed), and core.splitIndex true or false
 * splits or joins it, as git.  The cache tree is written with the
 * directories of every path that changed since the read invalidated.
 */
int hold_index_lock(void);
int commit_index(void);
/*
 * commit_index in two steps, for a caller with other work to sync
 * first: the index written to index.lock (-1 after error(), the lock
 * rolled back), then synced and renamed over the index (as
 * commit_index).
 */
int write_index_lock(void);
int commit_written_index(void);
/* index.lock's bytes synced now, before the commit (-1 after error()). */
int sync_index_lock(void);
void rollback_index_lock(void);

/* ---- index.c: the index in memory ---- */

/* Compare names as the index sorts them: bytes, then length, then stage. */
int cache_name_compare(const char *n1, size_t l1, unsigned int s1,
		       const char *n2, size_t l2, unsigned int s2);
/* Position of (name, stage 0): >= 0 when present, else -(insert pos)-1. */
int cache_name_pos(const char *name, size_t len);
/*
 * The first position in [lo, hi) whose entry, at any stage, does not
 * sort before name (len bytes); every entry there starts with the
 * first skip bytes of name, which are not compared again.  A directory
 * "d/" holds the entries from the bound of "d/" to that of "d0".
 */
unsigned int index_lower_bound(unsigned int lo, unsigned int hi,
			       const char *name, size_t len, size_t skip);
/* Is name (len bytes) in the index at any stage? */
int index_has_path(const char *name, size_t len);

/*
 * The length of a leading directory of name that stands in the index
 * as a file (a file/directory clash, which only a hostile index
 * holds), or 0.
 */
size_t index_has_file_above(const char *name);

#define ADD_CACHE_OK_TO_ADD 1
#define ADD_CACHE_OK_TO_REPLACE 2	/* drop entries in a D/F clash */
/* A stage-0 file clashes only with stage-0 entries below it, as in git. */
#define ADD_CACHE_STAGE_DF 4
/*
 * Insert ce (the index takes ownership), replacing an entry of the
 * same name and stage; a stage-0 entry resolves its path (the stages
 * of a merge there are dropped, as in git).  Refuses a path not in the
 * index at any stage without OK_TO_ADD, and a file/directory clash
 * without OK_TO_REPLACE.
 */
int add_cache_entry(struct cache_entry *ce, int option);
/*
 * Add many entries at once: ces must be sorted (sort_cache_entries)
 * and unique.  Paths and OK_TO_ADD are checked before anything
 * changes; a file/directory clash is found after the merge, so on that
 * error the in-memory index holds the new entries (callers die).
 */
int add_cache_entries(struct cache_entry **ces, unsigned int nr, int option);
void sort_cache_entries(struct cache_entry **ces, unsigned int nr);
void remove_cache_entry_at(unsigned int pos);
/* Remove every stage of path; returns 1 when something was removed. */
int remove_file_from_cache(const char *path);

/*
 * lstat the stage-0 entries that wanted() accepts (every one when it
 * is NULL) on every core, and mark CE_UPTODATE those whose stat data
 * match and are not racy: the rest is all a caller need look at.
 * Returns how many entries it left not marked (active_nr when the
 * index is too small to preload): 0 says the work tree matches.
 */
unsigned int preload_index(int (*wanted)(const char *name));
/*
 * Refresh the stage-0 entry ce from its work-tree file, as git's
 * refresh does: 0 when it is up to date (CE_UPTODATE, and new stat data
 * when only they had changed), 1 when it needs an update-cache.  A
 * skip-worktree entry is up to date without a look (unless flags has
 * REFRESH_IGNORE_SKIP_WORKTREE); an "add -N" one never is; a gitlink is
 * never hashed: up to date while a directory is at its path, unless it
 * holds a repository whose HEAD is another commit.  Thread-safe for
 * distinct entries.
 */
#define REFRESH_IGNORE_SKIP_WORKTREE 0x1
int refresh_cache_entry(struct cache_entry *ce, unsigned int flags);

/*
 * A sparse index made whole, as git's ensure_full_index: each directory
 * entry becomes the entries of its tree (skip-worktree, no stat data).
 * 0, or -1 after error() with the index as it was.
 */
int expand_sparse_index(void);
/* Is path (len bytes) below one of the index's sparse directories? */
int path_in_sparse_dir(const char *path, size_t len);

#endif
