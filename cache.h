/*
 * cache.h: the one interface shared by every dircache tool.
 *
 * The object store (sha1_file.c), the index (read-cache.c), object
 * parsing (object.c), dates (date.c), the diff engine (diff.c) and
 * error reporting (usage.c) are linked into every tool.  All on-disk
 * formats are git's: loose objects, trees, commits and index v2.
 *
 * Conventions: functions that can fail return a negative value or
 * NULL after printing one "tool: what: why" line with error(); only
 * tools call die().  Returned buffers are malloc'd and owned by the
 * caller unless the comment says "static buffer".
 */
#ifndef CACHE_H
#define CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/stat.h>

/*
 * SHA-1 from libcrypto.  The one-call SHA1_* functions are the fastest
 * way to hash many small objects; OpenSSL 3 keeps them, marked
 * deprecated, so ask for the 1.1 API explicitly.
 */
#define OPENSSL_API_COMPAT 0x10100000L
#include <openssl/sha.h>

#define DEFAULT_GIT_DIR ".dircache"

/* Environment variables; the 2005 name comes first where there is one. */
#define DB_ENVIRONMENT "SHA1_FILE_DIRECTORY"
#define OBJECT_DIR_ENVIRONMENT "GIT_OBJECT_DIRECTORY"
#define INDEX_ENVIRONMENT "GIT_INDEX_FILE"
#define GIT_DIR_ENVIRONMENT "GIT_DIR"
#define NO_SYNC_ENVIRONMENT "DIRCACHE_NO_SYNC"

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
/* If argv[1] is -h or --help, print the usage to stdout and exit 0. */
void handle_help(int argc, char **argv, const char *usage_line);

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
};

struct fault {
	enum fault_code code;
	int err;
	char msg[256];		/* what is wrong, without the object id */
};

/* Fill f (code, message) and return -1. */
int set_fault(struct fault *f, enum fault_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* FAULT_IO with errno and ": strerror(errno)" after the message; -1. */
int set_fault_errno(struct fault *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Flush and check stdout; die if the write failed (full disk, EPIPE). */
void finish_stdout(void);

/* ---- sha1_file.c: the object store ---- */

enum object_type {
	OBJ_BAD = -1,
	OBJ_NONE = 0,
	OBJ_COMMIT = 1,
	OBJ_TREE = 2,
	OBJ_BLOB = 3,
	OBJ_TAG = 4,
};

const char *type_name(enum object_type type);
/* Exact match of a type name of len bytes; OBJ_BAD when unknown. */
enum object_type type_from_string(const char *name, size_t len);

/* The .dircache directory, its objects/ and its index (static). */
const char *get_git_dir(void);
const char *get_object_directory(void);
const char *get_index_file(void);

/*
 * Hex ids.  sha1_to_hex returns one of four rotating static buffers
 * (per thread: the object store may be used from several threads).
 */
char *sha1_to_hex(const unsigned char *sha1);
int get_sha1_hex(const char *hex, unsigned char *sha1);
/* The value of one hex digit, or -1. */
int hexval(int c);
/* dir, a slash and file (malloc'd). */
char *path_join(const char *dir, const char *file);
/*
 * A command-line id: 40 hex digits, a unique abbreviation of at least
 * four, HEAD, or a ref name (refs/heads/x, heads/x, x).  Prints an
 * error and returns -1 when it names nothing or more than one object.
 */
int get_sha1(const char *name, unsigned char *sha1);

/* objects/xx/yyyy... (static buffer, per thread). */
const char *sha1_file_name(const unsigned char *sha1);
int has_sha1_file(const unsigned char *sha1);
/*
 * The same for many lookups in a row: each fan-out directory is listed
 * once and searched, instead of one stat per object (write-tree checks
 * every blob of the index).  A name not listed is looked for again with
 * stat, as it may have come since.  Not thread-safe.
 */
int has_sha1_file_listed(const unsigned char *sha1);
/*
 * The id of the loose object file dir/file (dir "xx", file 38 digits,
 * all lowercase hex, as the store names them), or -1 for any other name.
 */
int parse_loose_name(const char *dir, const char *file, unsigned char *sha1);

/* SHA-1 of "<type> <len>\0" followed by buf. */
void hash_sha1_file(const void *buf, size_t len, enum object_type type,
		    unsigned char *sha1);
/*
 * Store buf as a loose object (zlib level 1) unless an object with
 * that name already exists; the name is returned in sha1.
 */
int write_sha1_file(const void *buf, size_t len, enum object_type type,
		    unsigned char *sha1);
/*
 * Read and verify an object: zlib stream complete, header well formed,
 * size equal to the inflated length, SHA-1 equal to the name.  Returns
 * the content (malloc'd, with a NUL after it), its type and size, or
 * NULL after an error that names the id.
 */
void *read_sha1_file(const unsigned char *sha1, enum object_type *type,
		     size_t *size);
/*
 * The silent reader under read_sha1_file, for fsck-cache: on failure
 * returns NULL with *code one of the OBJECT_* faults below and *why a
 * description (static, per thread).
 */
#define OBJECT_MISSING 1
#define OBJECT_CORRUPT 2
#define OBJECT_HASH_MISMATCH 3
#define OBJECT_UNREADABLE 4
#define OBJECT_NOT_BLOB 5
void *read_sha1_file_quiet(const unsigned char *sha1, enum object_type *type,
			   size_t *size, int *code, const char **why);
/*
 * Inflate and check a loose object's bytes (zbuf, len): header, size
 * and stream as read_sha1_file does, without the hash.  NULL and *why
 * when they are bad.  For fsck-cache and the fuzzers.
 */
void *unpack_object_buffer(const void *zbuf, size_t len,
			   enum object_type *type, size_t *size,
			   const char **why);
/* As read_sha1_file, but also refuses an object of another type. */
void *read_object_of_type(const unsigned char *sha1,
			  enum object_type want, size_t *size);
/*
 * Write blob sha1 into fd (path names it in messages) a piece at a
 * time, hashing as it goes, so memory stays flat whatever the blob's
 * size.  The checks of read_sha1_file are all made, the hash when the
 * stream ends: on -1 (reported) the bytes already written are not the
 * blob and the caller must throw them away.
 */
int stream_blob_to_fd(int fd, const char *path, const unsigned char *sha1);
/*
 * Its quiet core, for fsck-cache: fd < 0 only checks the blob.  Returns
 * 0, an OBJECT_* fault with *why, OBJECT_NOT_BLOB (nothing read past
 * the header, *type says what it is) or -2 when a write failed.
 */
int stream_blob_quiet(const unsigned char *sha1, int fd,
		      enum object_type *type, const char **why);
/* The same on an object file's bytes (zbuf, len), for the fuzzer. */
int stream_blob_buffer(const void *zbuf, size_t len,
		       const unsigned char *sha1, int fd,
		       enum object_type *type, const char **why);
/* The type and size from the header only (cheap); -1 on error. */
int sha1_object_info(const unsigned char *sha1, enum object_type *type,
		     size_t *size);
/*
 * A tree-ish: the tree itself, or the tree a commit names.  Returns
 * the tree's content and puts the tree's id in tree_sha1.
 */
void *read_tree_ish(const unsigned char *sha1, size_t *size,
		    unsigned char *tree_sha1);

/* Hash a file or symlink the way update-cache stores it. */
int index_path(const char *path, const struct stat *st, int write_object,
	       unsigned char *sha1);
/* Is fd's or path's content the blob sha1?  1 yes, 0 no, -1 error. */
int path_matches_sha1(const char *path, const struct stat *st,
		      const unsigned char *sha1);

/*
 * Make what this process wrote durable: one syncfs(2) of the object
 * store when objects were written, then fsync(fd) when fd >= 0.
 * DIRCACHE_NO_SYNC=1 skips both, for scratch work.
 */
int flush_to_disk(int fd);

/* Create leading directories of path (not path itself). */
int create_leading_dirs(char *path);

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

/* ---- object.c: parsing trees and commits ---- */

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

void init_tree_desc(struct tree_desc *desc, const void *buf, size_t size);
/*
 * Take the next entry: 1 when one was taken, 0 at the end, -1 when the
 * bytes are malformed (no error printed: callers name the tree).
 */
int tree_entry_next(struct tree_desc *desc, struct name_entry *entry);

/*
 * Check a whole tree: every entry parses, modes are canonical
 * (100644, 100755, 120000, 40000, 160000), names are valid and the
 * entries are sorted in git's order without duplicates.  Returns NULL
 * when the tree is good, else a static message such as
 * "duplicateEntries: contains duplicate file entries".
 */
const char *check_tree(const void *buf, size_t size);

/* Compare two tree entry names in git's order (a tree sorts as "name/"). */
int base_name_compare(const char *n1, size_t l1, unsigned int m1,
		      const char *n2, size_t l2, unsigned int m2);

/* The object type that a tree entry of this mode names. */
enum object_type object_type_of_mode(unsigned int mode);

struct commit_info {
	unsigned char tree[20];
	unsigned char (*parents)[20];	/* malloc'd; free with the struct */
	size_t nr_parents;
};
/*
 * Check a commit as git fsck does: tree and parent lines with valid
 * ids, author and committer as "Name <email> epoch +hhmm", no NUL in
 * the header.  NULL when good, else a static "msgId: text".
 */
const char *check_commit(const void *buf, size_t size);
/* The object line and type line of a tag; NULL when good. */
const char *check_tag(const void *buf, size_t size, unsigned char *sha1,
		      enum object_type *type);
/* Parse the tree and parent lines of a commit; -1 when malformed. */
int parse_commit_buffer(const void *buf, size_t size, struct commit_info *ci);
void free_commit_info(struct commit_info *ci);

/* ---- date.c ---- */

/*
 * Parse a user-supplied date into "<epoch> <+hhmm>" (static buffer).
 * Accepts "<epoch> <+hhmm>", "@<epoch> <+hhmm>", RFC 2822 and ISO 8601.
 * Returns NULL when the text is none of those.
 */
const char *parse_date(const char *date);
/* The current time and local zone as "<epoch> <+hhmm>" (static). */
const char *now_date(void);

/* ---- read-cache.c: the index ---- */

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
	unsigned char sha1[20];
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
/* Stat data was just taken from a file known to hold this content. */
#define CE_UPTODATE 0x0001

static inline unsigned int ce_stage(const struct cache_entry *ce)
{
	return (ce->ce_flags & CE_STAGEMASK) >> CE_STAGESHIFT;
}

/* The index mode for a file of this stat mode. */
unsigned int ce_mode_from_stat(unsigned int st_mode);

extern struct cache_entry **active_cache;
extern unsigned int active_nr;
extern size_t active_alloc;

/* A new entry for name (len bytes), zeroed but for name and namelen. */
struct cache_entry *make_cache_entry(const char *name, size_t len);
void fill_stat_cache_info(struct cache_entry *ce, const struct stat *st);

/*
 * Load the index (no file means an empty index).  Verifies signature,
 * version, checksum, every path and the order of entries.  Returns the
 * number of entries or -1.
 */
int read_cache(void);
void discard_cache(void);
/* Load the index from an index file's bytes (name for messages). */
int read_index_from_buffer(const void *buf, size_t size, const char *name);

/* Compare names as the index sorts them: bytes, then length, then stage. */
int cache_name_compare(const char *n1, size_t l1, unsigned int s1,
		       const char *n2, size_t l2, unsigned int s2);
/* Position of (name, stage 0): >= 0 when present, else -(insert pos)-1. */
int cache_name_pos(const char *name, size_t len);

#define ADD_CACHE_OK_TO_ADD 1
#define ADD_CACHE_OK_TO_REPLACE 2	/* drop entries in a D/F clash */
/*
 * Insert ce (the index takes ownership), replacing an entry of the
 * same name and stage.  Refuses a new path without OK_TO_ADD, and a
 * file/directory clash without OK_TO_REPLACE.
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
 * 1 when the path is fit to enter the index: relative, no empty, ".",
 * ".." or ".dircache"/".git" (any case) component, no trailing slash.
 */
int verify_path(const char *path, size_t len);
/*
 * 1 when a leading directory of path (len bytes) exists as something
 * other than a real directory (a symlink or a file), so that opening
 * path would leave the work tree or go through a link; 0 when every
 * leading directory is a directory or does not exist; -1 on an lstat
 * error other than ENOENT/ENOTDIR.
 */
int has_symlink_leading_path(const char *path, size_t len);
/*
 * A command-line path in index form (malloc'd): "./" components and
 * repeated slashes dropped, so "./a//b" is "a/b".  ".." is kept, for
 * verify_path to refuse.
 */
char *normalize_path(const char *path);

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
 * the index was written) the content too.  0 means unchanged.
 */
unsigned int ce_match_stat(const struct cache_entry *ce,
			   const struct stat *st);
/*
 * lstat the stage-0 entries that wanted() accepts (every one when it
 * is NULL) on every core, and mark CE_UPTODATE those whose stat data
 * match and are not racy: the rest is all a caller need look at.
 */
void preload_index(int (*wanted)(const char *name));

/*
 * Writing: take index.lock (O_CREAT|O_EXCL), write, then commit it
 * over the index.  The lock is removed on failure, die() and signals.
 */
int hold_index_lock(void);
int commit_index(void);
void rollback_index_lock(void);

#endif
