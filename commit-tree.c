/*
 * commit-tree: make a commit object from a tree, its parents and a
 * message read from standard input, and print its id.
 *
 * The tree and every parent must exist with the right type, so that a
 * typo cannot produce a commit that points at nothing.  A parent given
 * twice is dropped with a warning (a commit lists each parent once).
 * Author and committer come from GIT_AUTHOR_* and GIT_COMMITTER_*,
 * then from the 2005 names (AUTHOR_*, COMMITTER_*, COMMIT_AUTHOR_*) so
 * that old scripts keep working, then from the config (author.name or
 * committer.name, else user.name; the same for the email, then
 * $EMAIL), then from the passwd entry, the host name and the clock, in
 * git's order.  A variable that is set counts even when empty,
 * as in git: an empty email is kept ("<>"), an empty name is refused.
 * A date without a zone is local time in TZ.  A date or a name that
 * cannot be stored exactly is refused, not repaired.  The message is stored byte for byte
 * (git re-encodes what is not UTF-8; we do not), but a NUL byte is
 * refused, as git refuses it: fsck rejects a commit that holds one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "commit-write.h"

static const char commit_tree_usage[] =
	"commit-tree <tree> [-p <parent>]... < message";

/* Resolve an id and make sure it is a good object of the wanted type. */
static void get_object(const char *arg, enum object_type want,
		       unsigned char *sha1)
{
	void *buf;
	size_t size;
	const char *bad;

	if (get_sha1(arg, sha1) < 0)
		exit(128);
	buf = read_object_of_type(sha1, want, &size);
	if (!buf)
		die("bad %s '%s'", type_name(want), arg);
	if (want == OBJ_TREE && (bad = check_tree(buf, size)) != NULL)
		die("tree %s is corrupt: %s", sha1_to_hex(sha1), bad);
	free(buf);
}

struct parents {
	unsigned char (*sha1)[HASH_MAX_RAWSZ];
	size_t nr, alloc;
};

static void add_parent(struct parents *p, const char *arg)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	size_t i;

	get_object(arg, OBJ_COMMIT, sha1);
	for (i = 0; i < p->nr; i++) {
		if (hasheq(p->sha1[i], sha1)) {
			warning("duplicate parent %s ignored",
				sha1_to_hex(sha1));
			return;
		}
	}
	ALLOC_GROW(p->sha1, p->nr + 1, p->alloc);
	hashcpy(p->sha1[p->nr++], sha1);
}

static char *read_message(size_t *len)
{
	size_t alloc = 0;
	char *buf = NULL;
	ssize_t n;

	*len = 0;
	do {
		ALLOC_GROW(buf, *len + 8192, alloc);
		n = read_in_full(0, buf + *len, alloc - *len);
		if (n < 0)
			die_errno("read the message from standard input");
		*len += n;
	} while (*len == alloc);
	if (memchr(buf, '\0', *len))
		die("the message contains a NUL byte, which a commit cannot "
		    "hold (git fsck rejects it)");
	return buf;
}

static void write_commit(const unsigned char *tree,
			 const struct parents *parents,
			 const struct ident *author,
			 const struct ident *committer, unsigned char *sha1)
{
	size_t msg_len;
	char *msg = read_message(&msg_len);

	if (write_commit_object(tree, (const unsigned char (*)[HASH_MAX_RAWSZ])parents->sha1,
				parents->nr, author, committer, msg, msg_len,
				sha1) < 0)
		exit(128);
	free(msg);
}

int main(int argc, char **argv)
{
	struct parents parents = { NULL, 0, 0 };
	struct ident author, committer;
	unsigned char tree[HASH_MAX_RAWSZ], sha1[HASH_MAX_RAWSZ];
	int i;

	setup_tool(argv[0]);
	handle_help(argc, argv, commit_tree_usage);
	if (argc < 2 || argv[1][0] == '-' || argc % 2)
		usage(commit_tree_usage);
	for (i = 2; i < argc; i += 2)
		if (strcmp(argv[i], "-p"))
			usage(commit_tree_usage);

	if (setup_repository() < 0)
		exit(128);
	if (ident_from_env(&author, 0) < 0 ||
	    ident_from_env(&committer, 1) < 0)
		exit(128);
	get_object(argv[1], OBJ_TREE, tree);
	for (i = 2; i < argc; i += 2)
		add_parent(&parents, argv[i + 1]);
	write_commit(tree, &parents, &author, &committer, sha1);
	if (flush_to_disk(-1) < 0)
		die("unable to make the commit durable");
	printf("%s\n", sha1_to_hex(sha1));
	finish_stdout();
	free(parents.sha1);
	ident_release(&author);
	ident_release(&committer);
	return 0;
}
