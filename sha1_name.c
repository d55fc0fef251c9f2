/*
 * sha1_name.c: naming objects on the command line.  An id is 40 hex
 * digits, a unique abbreviation of at least 4, HEAD, or a ref name
 * (tried as given, then under refs/, refs/tags/ and refs/heads/).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "pack.h"


/* Try name as given, then under refs/, refs/tags/ and refs/heads/. */
static int get_sha1_ref(const char *name, unsigned char *sha1)
{
	static const char *prefixes[] = { "", "refs/", "refs/tags/",
					  "refs/heads/" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		char *full = xmalloc(strlen(prefixes[i]) + strlen(name) + 1);
		int ret;

		strcpy(full, prefixes[i]);
		strcat(full, name);
		ret = read_ref(full, sha1);
		free(full);
		if (!ret)
			return 0;
	}
	return -1;
}

struct abbrev {
	const char *hex;	/* lowercase */
	size_t len;
	unsigned char sha1[20];
	int found;
};

static int match_abbrev(const unsigned char *sha1, void *data)
{
	struct abbrev *a = data;

	if (strncmp(sha1_to_hex(sha1), a->hex, a->len))
		return 0;
	if (a->found && !memcmp(a->sha1, sha1, 20))
		return 0;	/* the same object, loose and packed */
	memcpy(a->sha1, sha1, 20);
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
	memcpy(sha1, a.sha1, 20);
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

int get_sha1(const char *name, unsigned char *sha1)
{
	size_t len = strlen(name);
	char lower[41];
	size_t i;
	int n;

	if (len == 40 && !get_sha1_hex(name, sha1))
		return 0;
	if (!get_sha1_ref(name, sha1))
		return 0;
	if (len < 4 || len > 40 || !is_hex(name, len))
		return error("not a valid object name: '%s'", name);
	for (i = 0; i < len; i++)
		lower[i] = name[i] | 0x20;
	lower[len] = '\0';
	n = find_abbrev(lower, len, sha1);
	if (n > 1)
		return error("short object id '%s' is ambiguous", name);
	if (!n)
		return error("not a valid object name: '%s'", name);
	return 0;
}
