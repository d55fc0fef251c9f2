/*
 * sha1_name.c: naming objects on the command line as git does.  An id
 * is the hash's hex digits (40, or 64 in a SHA-256 store), a ref name
 * by git's rules (as given, then under refs/, refs/tags/, refs/heads/,
 * refs/remotes/, and refs/remotes/<name>/HEAD; loose or packed), or a
 * unique abbreviation of at least 4 digits, in that order, with git's
 * warning when a name could be read two ways; "@" is HEAD.  Then any
 * of git's suffixes: ^{type}, ^{}, ^<n>, ~<n>; and "<rev>:<path>",
 * the blob or tree at path in rev's tree ("<rev>:" the tree itself).
 * ":/<text>" is the youngest commit reachable from a ref or HEAD whose
 * message matches the extended regular expression text, and
 * "<rev>^{/<text>}" the youngest reachable from rev, as in git.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pack.h"


/*
 * git's rules for a short ref name, in the order tried: the first that
 * names a readable ref (symbolic refs followed) wins.
 */
static const char *const ref_rules[] = {
	"%.*s", "refs/%.*s", "refs/tags/%.*s", "refs/heads/%.*s",
	"refs/remotes/%.*s", "refs/remotes/%.*s/HEAD",
};

/*
 * How many rules name a ref for the len bytes of name (git's
 * dwim_ref); sha1 gets the first one's id.
 */
static int dwim_ref(const char *name, size_t len, unsigned char *sha1)
{
	unsigned char found_sha1[HASH_MAX_RAWSZ];
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(ref_rules) / sizeof(*ref_rules); i++) {
		char *full = xmalloc(strlen(ref_rules[i]) + len + 1);

		sprintf(full, ref_rules[i], (int)len, name);
		if (!read_ref(full, found_sha1) && !found++)
			hashcpy(sha1, found_sha1);
		free(full);
	}
	return found;
}

struct abbrev {
	const char *hex;	/* lowercase */
	size_t len;
	unsigned char sha1[HASH_MAX_RAWSZ];
	int found;
};

static int match_abbrev(const unsigned char *sha1, void *data)
{
	struct abbrev *a = data;

	if (strncmp(sha1_to_hex(sha1), a->hex, a->len))
		return 0;
	if (a->found && !hashcmp(a->sha1, sha1))
		return 0;	/* the same object, loose and packed */
	hashcpy(a->sha1, sha1);
	return ++a->found > 1;	/* a second one: stop, it is ambiguous */
}

/* The objects whose names start with the hex prefix: 0, 1 or 2. */
static int find_abbrev(const char *hex, size_t len, unsigned char *sha1)
{
	struct abbrev a = { hex, len, { 0 }, 0 };

	if (!for_each_loose_in_fanout(hexval(hex[0]) << 4 | hexval(hex[1]),
				      match_abbrev, NULL, &a) &&
	    !for_each_packed_prefix(hex, len, match_abbrev, &a))
		for_each_alternate_loose_prefix(hex, len, match_abbrev, &a);
	hashcpy(sha1, a.sha1);
	return a.found;
}

static int is_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (hexval(s[i]) < 0)
			return 0;
	return 1;
}

/*
 * A hex prefix of 4 digits to a whole id naming one object: 0, 1 or 2
 * (ambiguous).
 */
static int get_short_sha1(const char *name, size_t len, unsigned char *sha1)
{
	char lower[HASH_MAX_HEXSZ + 1];
	size_t i;

	if (len < 4 || len > the_hash->hexsz || !is_hex(name, len))
		return 0;
	for (i = 0; i < len; i++)
		lower[i] = name[i] | 0x20;
	lower[len] = '\0';
	return find_abbrev(lower, len, sha1);
}

/*
 * A name without suffixes, as git's get_oid_basic: a whole hex id, a
 * ref by git's rules, else a unique abbreviation.  A ref that could
 * also be read otherwise gets git's warning.
 */
static int get_sha1_basic(const char *name, size_t len, unsigned char *sha1)
{
	unsigned char other[HASH_MAX_RAWSZ];
	int refs, n;

	if (len == 1 && *name == '@') {
		name = "HEAD";
		len = 4;
	}
	if (len == the_hash->hexsz && !get_sha1_hex(name, sha1)) {
		if (dwim_ref(name, len, other))
			warning("refname '%.*s' is ambiguous", (int)len, name);
		return 0;
	}
	refs = len ? dwim_ref(name, len, sha1) : 0;
	if (refs) {
		if (refs > 1 || get_short_sha1(name, len, other) == 1)
			warning("refname '%.*s' is ambiguous", (int)len, name);
		return 0;
	}
	n = get_short_sha1(name, len, sha1);
	if (n > 1)
		return error("short object id '%.*s' is ambiguous", (int)len,
			     name);
	if (!n)
		return error("not a valid object name: '%.*s'", (int)len, name);
	return 0;
}

/* The nth parent of the commit sha1 (n >= 1), in sha1: 0, or -1. */
static int nth_parent(unsigned char *sha1, unsigned long n)
{
	struct commit_info ci;
	unsigned char commit[HASH_MAX_RAWSZ];
	size_t size;
	void *buf = read_object_peeled(sha1, OBJ_COMMIT, &size, commit);
	int ret = -1;

	if (!buf)
		return -1;
	if (parse_commit_buffer(buf, size, &ci) < 0) {
		free(buf);
		return error("bad commit %s", sha1_to_hex(commit));
	}
	if (n <= ci.nr_parents) {
		hashcpy(sha1, ci.parents[n - 1]);
		ret = 0;
	}
	free_commit_info(&ci);
	free(buf);
	return ret;
}

/* "^{type}", "^{}": sha1 peeled to type (any non-tag for "^{}"). */
static int peel_to(unsigned char *sha1, const char *type, size_t len)
{
	static const char *const names[] = { "commit", "tree", "blob", "tag" };
	static const enum object_type types[] = { OBJ_COMMIT, OBJ_TREE,
						  OBJ_BLOB, OBJ_TAG };
	enum object_type want = OBJ_NONE, have;
	unsigned char peeled[HASH_MAX_RAWSZ];
	size_t i, size;
	void *buf;

	for (i = 0; i < 4; i++)
		if (strlen(names[i]) == len && !memcmp(type, names[i], len))
			want = types[i];
	if (len && want == OBJ_NONE)
		return -1;
	if (want == OBJ_TAG)
		return sha1_object_info(sha1, &have, &size) < 0 ||
		       have != OBJ_TAG ? -1 : 0;
	while (want == OBJ_NONE) {
		if (sha1_object_info(sha1, &have, &size) < 0)
			return -1;
		if (have != OBJ_TAG)
			return 0;
		buf = read_object_of_type(sha1, OBJ_TAG, &size);
		if (!buf || parse_tag_buffer(buf, size, sha1, &have) < 0) {
			free(buf);
			return -1;
		}
		free(buf);
	}
	buf = read_object_peeled(sha1, want, &size, peeled);
	if (!buf)
		return -1;
	free(buf);
	hashcpy(sha1, peeled);
	return 0;
}

/* ---- ":/<text>": commits by their message ---- */

struct dated {
	unsigned long date;
	unsigned char sha1[HASH_MAX_RAWSZ];
};

/*
 * The walk of ":/<text>": commits queued by committer date (the end of
 * queue the youngest, a later one of equal date after those queued
 * first, as git's list), the ids seen in an open-addressed table.
 */
struct message_walk {
	struct dated *queue;
	size_t nr, alloc;
	unsigned char (*seen)[HASH_MAX_RAWSZ];
	size_t seen_nr, seen_size;	/* size: a power of two */
};

static size_t seen_slot(const struct message_walk *w, const unsigned char *sha1)
{
	size_t i = ((size_t)sha1[0] << 16 | sha1[1] << 8 | sha1[2]) &
		   (w->seen_size - 1);

	while (!is_null_hash(w->seen[i]) && hashcmp(w->seen[i], sha1))
		i = (i + 1) & (w->seen_size - 1);
	return i;
}

/* Mark sha1 seen: 1 when it was new. */
static int mark_seen(struct message_walk *w, const unsigned char *sha1)
{
	size_t i, old_size = w->seen_size;
	unsigned char (*old)[HASH_MAX_RAWSZ] = w->seen;

	if (is_null_hash(sha1))
		return 0;
	if (2 * (w->seen_nr + 1) > w->seen_size) {
		w->seen_size = old_size ? 2 * old_size : 256;
		w->seen = xcalloc(w->seen_size, sizeof(*w->seen));
		for (i = 0; i < old_size; i++)
			if (!is_null_hash(old[i]))
				hashcpy(w->seen[seen_slot(w, old[i])], old[i]);
		free(old);
	}
	i = seen_slot(w, sha1);
	if (!is_null_hash(w->seen[i]))
		return 0;
	hashcpy(w->seen[i], sha1);
	w->seen_nr++;
	return 1;
}

/* The committer date of a commit's text, or 0. */
static unsigned long committer_date(const char *buf, const char *end)
{
	const char *line = buf, *nl, *gt;

	for (; line < end && *line != '\n'; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			return 0;
		if (nl - line < 10 || memcmp(line, "committer ", 10))
			continue;
		for (gt = nl; gt > line && *gt != '>'; gt--)
			;
		return *gt == '>' ? strtoul(gt + 1, NULL, 10) : 0;
	}
	return 0;
}

/* Queue commit sha1 (of that date) after those of its date queued. */
static void queue_commit(struct message_walk *w, const unsigned char *sha1,
			 unsigned long date)
{
	size_t lo = 0, hi = w->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->queue[mid].date < date)
			lo = mid + 1;
		else
			hi = mid;
	}
	ALLOC_GROW(w->queue, w->nr + 1, w->alloc);
	memmove(w->queue + lo + 1, w->queue + lo,
		(w->nr - lo) * sizeof(*w->queue));
	w->queue[lo].date = date;
	hashcpy(w->queue[lo].sha1, sha1);
	w->nr++;
}

/* Queue what sha1 peels to when it is a commit; 0, or -1 if unreadable. */
static int queue_start(struct message_walk *w, const unsigned char *sha1)
{
	unsigned char commit[HASH_MAX_RAWSZ];
	enum object_type type;
	size_t size;
	void *buf;

	hashcpy(commit, sha1);
	if (peel_to(commit, "", 0) < 0 ||
	    sha1_object_info(commit, &type, &size) < 0)
		return -1;
	if (type != OBJ_COMMIT)
		return 0;
	buf = read_object_of_type(commit, OBJ_COMMIT, &size);
	if (!buf)
		return -1;
	mark_seen(w, commit);
	queue_commit(w, commit, committer_date(buf, (char *)buf + size));
	free(buf);
	return 0;
}

static int queue_ref(const char *name, const unsigned char *sha1, void *data)
{
	(void)name;
	return queue_start(data, sha1) < 0 ? -1 : 0;
}

/* Queue the parents of the commit in buf not seen yet. */
static int queue_parents(struct message_walk *w, const void *buf,
			 size_t size)
{
	struct commit_info ci;
	size_t i, psize;

	if (parse_commit_buffer(buf, size, &ci) < 0)
		return error("bad commit");
	for (i = 0; i < ci.nr_parents; i++) {
		void *pbuf;

		if (!mark_seen(w, ci.parents[i]))
			continue;
		pbuf = read_object_of_type(ci.parents[i], OBJ_COMMIT, &psize);
		if (!pbuf) {
			free_commit_info(&ci);
			return -1;
		}
		queue_commit(w, ci.parents[i],
			     committer_date(pbuf, (char *)pbuf + psize));
		free(pbuf);
	}
	free_commit_info(&ci);
	return 0;
}

/*
 * Pop the youngest commit until one's message matches re (or, when
 * negative, does not): 1 with its id in sha1, 0 when none does, -1.
 */
static int walk_messages(struct message_walk *w, const regex_t *re,
			 int negative, unsigned char *sha1)
{
	while (w->nr) {
		struct dated c = w->queue[--w->nr];
		size_t size;
		char *buf = read_object_of_type(c.sha1, OBJ_COMMIT, &size);
		char *msg;
		int match;

		if (!buf)
			return -1;
		msg = strstr(buf, "\n\n");
		match = msg && !regexec(re, msg + 2, 0, NULL, 0);
		if (match != negative) {
			free(buf);
			hashcpy(sha1, c.sha1);
			return 1;
		}
		if (!is_shallow_commit(c.sha1) &&
		    queue_parents(w, buf, size) < 0) {
			free(buf);
			return -1;
		}
		free(buf);
	}
	return 0;
}

/*
 * The youngest commit reachable from start (NULL: every ref and HEAD)
 * whose message matches text (len bytes; "!-" negates it, "!!" is a
 * literal "!"), into sha1: 0, or -1 after error().
 */
static int get_sha1_by_message(const char *text, size_t len,
			       const unsigned char *start,
			       unsigned char *sha1)
{
	struct message_walk w;
	unsigned char head[HASH_MAX_RAWSZ];
	char *pattern;
	int negative = 0, found = -1, code;
	regex_t re;

	if (len && text[0] == '!') {
		if (len > 1 && text[1] == '-')
			negative = 1;
		else if (len < 2 || text[1] != '!')
			return error("':/!%.*s': unknown :/! modifier",
				     (int)(len - 1), text + 1);
		text += 1 + negative;	/* "!!x" is "!x" */
		len -= 1 + negative;
	}
	pattern = xmalloc(len + 1);
	memcpy(pattern, text, len);
	pattern[len] = '\0';
	code = regcomp(&re, pattern, REG_EXTENDED);
	free(pattern);
	if (code)
		return error("'%.*s': not a regular expression", (int)len,
			     text);
	memset(&w, 0, sizeof(w));
	if (start) {
		found = queue_start(&w, start);
	} else {
		found = !resolve_ref("HEAD", head, NULL) ?
			queue_start(&w, head) : 0;
		if (!found)
			found = for_each_ref(queue_ref, &w);
	}
	if (!found)
		found = walk_messages(&w, &re, negative, sha1);
	regfree(&re);
	free(w.queue);
	free(w.seen);
	if (found < 0)
		return -1;
	return found ? 0 : -2;
}

/* "<rev>^{/<text>}" (text at i + 1): the search from rev's commit. */
static int message_suffix(const char *name, size_t len, size_t i,
			  unsigned char *sha1)
{
	unsigned char start[HASH_MAX_RAWSZ];
	int ret;

	hashcpy(start, sha1);
	if (peel_to(start, "commit", 6) < 0)
		return error("'%.*s' is not a commit", (int)(i - 2), name);
	ret = get_sha1_by_message(name + i + 1, len - i - 2, start, sha1);
	if (ret == -2)
		return error("not a valid object name: '%.*s'", (int)len,
			     name);
	return ret;
}

/*
 * name's first len bytes, with git's suffixes taken from the end:
 * "^{type}", "^<n>" (the nth parent, "^" the first, "^0" the commit
 * itself) and "~<n>" (n first parents up).
 */
static int get_sha1_1(const char *name, size_t len, unsigned char *sha1)
{
	size_t digits = 0, i;
	unsigned long n = 0;
	char kind;

	if (len > 2 && name[len - 1] == '}') {
		for (i = len - 1; i >= 2; i--)
			if (name[i - 1] == '{' && name[i - 2] == '^')
				break;
		if (i < 2)
			return get_sha1_basic(name, len, sha1);
		if (get_sha1_1(name, i - 2, sha1) < 0)
			return -1;
		if (i < len - 1 && name[i] == '/')
			return message_suffix(name, len, i, sha1);
		if (peel_to(sha1, name + i, len - 1 - i) < 0)
			return error("'%.*s' cannot be peeled so", (int)len, name);
		return 0;
	}
	while (digits < len && name[len - 1 - digits] >= '0' &&
	       name[len - 1 - digits] <= '9')
		digits++;
	if (digits == len || (name[len - 1 - digits] != '^' &&
			      name[len - 1 - digits] != '~'))
		return get_sha1_basic(name, len, sha1);
	kind = name[len - 1 - digits];
	for (i = len - digits; i < len; i++)
		n = n * 10 + (name[i] - '0');
	if (!digits)
		n = 1;
	if (get_sha1_1(name, len - 1 - digits, sha1) < 0)
		return -1;
	if (kind == '^' && !n)
		return peel_to(sha1, "commit", 6) < 0 ?
		       error("'%.*s' is not a commit", (int)len, name) : 0;
	if (kind == '^')
		return nth_parent(sha1, n) < 0 ?
		       error("'%.*s': no such parent", (int)len, name) : 0;
	while (n--)
		if (nth_parent(sha1, 1) < 0)
			return error("'%.*s': no such ancestor", (int)len, name);
	return 0;
}

/* The entry named name (len bytes) in the tree sha1, into sha1 and mode. */
static int tree_entry_named(unsigned char *sha1, const char *name,
			    size_t len, unsigned int *mode)
{
	struct tree_desc desc;
	struct name_entry e;
	size_t size;
	void *buf = read_object_of_type(sha1, OBJ_TREE, &size);
	int r, found = 0;

	if (!buf)
		return -1;
	init_tree_desc(&desc, buf, size);
	while (!found && (r = tree_entry_next(&desc, &e)) > 0) {
		if (e.pathlen != len || memcmp(e.path, name, len))
			continue;
		hashcpy(sha1, e.sha1);
		*mode = e.mode;
		found = 1;
	}
	free(buf);
	return found ? 0 : -1;
}

/* The object at path (len bytes, "a/b") below the tree sha1, in sha1. */
static int tree_path_lookup(unsigned char *sha1, const char *path,
			    size_t len)
{
	unsigned int mode = S_IFDIR;

	while (len) {
		const char *slash = memchr(path, '/', len);
		size_t n = slash ? (size_t)(slash - path) : len;

		if (n && (!S_ISDIR(mode) ||
			  tree_entry_named(sha1, path, n, &mode) < 0))
			return -1;
		path += n;
		len -= n;
		if (len) {
			if (!S_ISDIR(mode))
				return -1;
			path++;
			len--;
		}
	}
	return 0;
}

/*
 * A "<rev>:./<path>" or ":../<path>" path is relative to the directory
 * the porcelain was run from, DIRCACHE_PREFIX ("dir/" below the top,
 * set by dircache-lib.sh), as git reads it: the path from the top,
 * "." and ".." resolved (malloc'd; NULL when it leaves the top).
 */
static char *relative_tree_path(const char *path)
{
	const char *prefix = getenv("DIRCACHE_PREFIX");
	size_t plen = prefix ? strlen(prefix) : 0;
	char *out = xmalloc(plen + strlen(path) + 2);
	size_t len = 0;
	const char *p = path;

	memcpy(out, prefix ? prefix : "", plen);
	len = plen;
	while (len && out[len - 1] == '/')
		len--;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (!len) {
				free(out);
				return NULL;
			}
			while (len && out[len - 1] != '/')
				len--;
			if (len)
				len--;
		} else if (n && !(n == 1 && p[0] == '.')) {
			if (len)
				out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
		}
		p += n + (*(p + n) == '/');
	}
	out[len] = '\0';
	return out;
}

static int is_relative(const char *path)
{
	return !strcmp(path, ".") || !strcmp(path, "..") ||
	       !strncmp(path, "./", 2) || !strncmp(path, "../", 3);
}

char *name_path_from_top(const char *path)
{
	return is_relative(path) ? relative_tree_path(path) : xstrdup(path);
}

/* The colon of "<rev>:<path>" (none inside "{...}"), or NULL. */
static const char *path_colon(const char *name)
{
	int depth = 0;

	for (; *name; name++) {
		if (*name == '{')
			depth++;
		else if (depth && *name == '}')
			depth--;
		else if (!depth && *name == ':')
			return name;
	}
	return NULL;
}

int get_sha1(const char *name, unsigned char *sha1)
{
	const char *colon = path_colon(name);
	size_t len = colon ? (size_t)(colon - name) : strlen(name);
	char *path;
	int ret = 0;

	if (name[0] == ':' && name[1] == '/') {
		ret = get_sha1_by_message(name + 2, strlen(name + 2), NULL,
					  sha1);
		if (ret == -2)
			return error("not a valid object name: '%s'", name);
		return ret;
	}
	if (colon && colon == name)
		return error("not a valid object name: '%s' (the index "
			     "form :<path> is not read here)", name);
	if (get_sha1_1(name, len, sha1) < 0)
		return -1;
	if (!colon)
		return 0;
	if (peel_to(sha1, "tree", 4) < 0)
		return error("'%.*s' is not a tree-ish", (int)len, name);
	path = name_path_from_top(colon + 1);
	if (!path)
		return error("'%s' is outside the repository", colon + 1);
	if (tree_path_lookup(sha1, path, strlen(path)) < 0)
		ret = error("path '%s' does not exist in '%.*s'", path,
			    (int)len, name);
	free(path);
	return ret;
}
