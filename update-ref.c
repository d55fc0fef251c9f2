/*
 * update-ref: point a ref at an object, safely, for scripts.  The ref
 * is written under <ref>.lock and renamed into place (refs.c), after
 * the objects are synced, so a reader sees the old id or the new one,
 * never a torn file.  With <old>, the ref is changed only if it still
 * holds <old> (all zeros: only if it does not exist yet), checked under
 * the lock: two writers racing cannot both win, and a script that read
 * the ref earlier learns that it moved instead of overwriting it.
 *
 * HEAD is followed to the branch it names (an unborn branch too), as
 * a commit on a branch moves the branch; a detached HEAD is refused.
 * The new object must exist: a ref must never name nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char update_ref_usage[] =
	"update-ref <ref> <new-id> [<old-id>]";

static const char *branch_of_head(void)
{
	unsigned char sha1[HASH_MAX_RAWSZ];
	char *resolved;

	resolve_ref("HEAD", sha1, &resolved);
	if (!resolved || !strcmp(resolved, "HEAD"))
		die("HEAD names no branch; refusing to update it");
	return resolved;
}

int main(int argc, char **argv)
{
	unsigned char sha1[HASH_MAX_RAWSZ], old[HASH_MAX_RAWSZ];
	enum object_type type;
	const char *ref;
	size_t size;

	setup_tool(argv[0]);
	handle_help(argc, argv, update_ref_usage);
	if (argc < 3 || argc > 4 || argv[1][0] == '-')
		usage(update_ref_usage);
	if (setup_repository() < 0)
		exit(128);
	ref = argv[1];
	if (!strcmp(ref, "HEAD"))
		ref = branch_of_head();
	if (check_ref_name(ref) < 0)
		die("bad ref name: '%s'", ref);
	if (get_sha1(argv[2], sha1) < 0)
		exit(128);
	if (sha1_object_info(sha1, &type, &size) < 0)
		die("no such object: %s", sha1_to_hex(sha1));
	/* A branch names a commit: every walk of it depends on that. */
	if (!strncmp(ref, "refs/heads/", 11) && type != OBJ_COMMIT)
		die("trying to write non-commit object %s to branch '%s'",
		    sha1_to_hex(sha1), ref);
	if (argc == 4 && (strlen(argv[3]) != the_hash->hexsz ||
			  get_sha1_hex(argv[3], old) < 0))
		die("not an object id: '%s'", argv[3]);
	if (update_ref(ref, sha1, argc == 4 ? old : NULL) < 0)
		exit(128);
	finish_stdout();
	return 0;
}
