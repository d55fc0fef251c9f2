/*
 * mktag: store a tag object read from standard input and print its id.
 * The text is checked as git fsck --strict checks a tag (object, type,
 * tag and tagger lines, a valid tag name and identity), and the object
 * it names must be in the store with the type it says, so that a
 * script cannot store a tag that points at nothing or lies about what
 * it points at.  The bytes are stored as given: dircache tag -a builds
 * them exactly as git tag -a does, and the id is then git's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"

static const char mktag_usage[] = "mktag < <tag-text>";

/*
 * Every finding refuses the tag, a warning or a note too: git mktag
 * stores only what its strict fsck passes without a word.
 */
static void report_line(void *data, enum fsck_level level, const char *msg)
{
	(void)level;
	(*(int *)data)++;
	error("tag input does not pass fsck: %s", msg);
}

/* 1 when a header line follows the tagger line (git: extraHeaderEntry). */
static int has_extra_header(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	int lines = 0;

	while (p < end && *p != '\n' && (nl = memchr(p, '\n', end - p))) {
		lines++;
		p = nl + 1;
	}
	return lines > 4;
}

static char *read_stdin(size_t *len)
{
	size_t alloc = 8192;
	char *buf = xmalloc(alloc);
	ssize_t n;

	*len = 0;
	while ((n = read_in_full(0, buf + *len, alloc - *len)) > 0) {
		*len += n;
		if (*len == alloc)
			buf = xrealloc(buf, alloc *= 2);
	}
	if (n < 0)
		die_errno("read standard input");
	return buf;
}

int main(int argc, char **argv)
{
	int findings = 0;
	struct fsck_options opt = { 1, report_line, &findings, NULL, 0 };
	unsigned char target[HASH_MAX_RAWSZ], sha1[HASH_MAX_RAWSZ];
	enum object_type type, stored;
	size_t len, size;
	char *buf;

	setup_tool(argv[0]);
	handle_help(argc, argv, mktag_usage);
	if (argc != 1)
		usage(mktag_usage);
	if (setup_repository() < 0)
		exit(128);
	buf = read_stdin(&len);
	if (memchr(buf, '\0', len))
		die("a tag cannot hold a NUL byte");
	if (fsck_tag(buf, len, &opt, target, &type) || type == OBJ_BAD ||
	    findings)
		die("refusing a malformed tag");
	if (has_extra_header(buf, len)) {
		error("tag input does not pass fsck: extraHeaderEntry: "
		      "invalid format - extra header(s) after 'tagger'");
		die("refusing a malformed tag");
	}
	if (sha1_object_info(target, &stored, &size) < 0)
		die("the tagged object %s is not in the store",
		    sha1_to_hex(target));
	if (stored != type)
		die("the tagged object %s is a %s, not a %s",
		    sha1_to_hex(target), type_name(stored), type_name(type));
	if (write_sha1_file(buf, len, OBJ_TAG, sha1) < 0)
		exit(128);
	if (flush_to_disk(-1) < 0)
		exit(128);
	printf("%s\n", sha1_to_hex(sha1));
	free(buf);
	finish_stdout();
	return 0;
}
