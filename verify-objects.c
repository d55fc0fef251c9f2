/*
 * verify-objects: the gate between a remote and the store.  A pull
 * copies the objects it lacks into a quarantine directory (laid out as
 * an object directory: xx/ fan-outs of loose objects) and asks this
 * tool whether they may enter.  The remote is hostile input, so every
 * object there is checked as fsck-cache --strict checks the store
 * (zlib stream, header, SHA-1 against the name, trees, commits and
 * tags as git fsck --strict parses them, and no tree entry that
 * check_tree refuses: "..", "/", .dircache or .git in disguise), and
 * every object reachable from the given heads must be in the
 * quarantine or the store, of the type its referrer says.  A head must
 * be a commit, or a tag of one (a ref naming a blob is refused).
 *
 * The walk stops at objects the store holds: the store is closed under
 * reachability (our tools write nothing that points at a missing
 * object, and pulls install only what passed here), as git's fetch
 * assumes of its own.  For the same reason a tree of the store is
 * taken at its word: a link of a new tree that one of the parent
 * commit's trees also makes (same id, same type; the trees at the paths
 * where the new trees differ) is not looked up again; every other link
 * to the store has the object's header read.
 *
 * With --install, and only when everything passed, the reachable
 * objects are renamed into the store (the quarantine is next to it, on
 * the same file system), referred objects before their referrers, so
 * that a crash half-way leaves the store closed.  Objects the store
 * already has go through its collision check and are dropped.
 * Unreachable ones stay in the quarantine, for the caller to delete.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "pack.h"

static const char verify_objects_usage[] =
	"verify-objects [--install] <quarantine-dir> <commit-id>...";

struct qobject {
	struct fsck_object fo;	/* type OBJ_BAD when it failed its checks */
	unsigned char reached, installed;
	struct packed_git *pack;	/* NULL: a loose object */
	uint32_t pos;			/* in pack's idx */
	char *problem;		/* first problem, malloc'd */
	char *tree;		/* a good tree's bytes, kept for vouch_trees */
	size_t tree_size;
};

static const char *quarantine;
static struct qobject *objects;
static size_t nr_objects, alloc_objects;
static struct packed_git **packs;
static size_t nr_packs, alloc_packs;
static int errors;

/* ---- listing the quarantine ---- */

static struct qobject *add_object(const unsigned char *sha1)
{
	struct qobject *o;

	ALLOC_GROW(objects, nr_objects + 1, alloc_objects);
	o = &objects[nr_objects++];
	memset(o, 0, sizeof(*o));
	hashcpy(o->fo.sha1, sha1);
	return o;
}

static int list_object(const unsigned char *sha1, void *data)
{
	(void)data;
	add_object(sha1);
	return 0;
}

static int is_idx_name(const char *name)
{
	size_t len = strlen(name);

	return len == the_hash->hexsz + 9 && !strncmp(name, "pack-", 5) &&
	       !strcmp(name + 5 + the_hash->hexsz, ".idx");
}

/* The packs of the quarantine's pack/ (those with an idx). */
static void list_packs(void)
{
	char *dir = path_join(quarantine, "pack");
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		if (errno != ENOENT)
			die_errno("open '%s'", dir);
		free(dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		struct packed_git *p;
		char *idx;
		uint32_t n;

		if (!is_idx_name(de->d_name))
			continue;
		idx = path_join(dir, de->d_name);
		p = open_pack_index(idx);
		if (!p)
			die("cannot read the pack of '%s'", idx);
		free(idx);
		ALLOC_GROW(packs, nr_packs + 1, alloc_packs);
		packs[nr_packs++] = p;
		for (n = 0; n < p->nr; n++) {
			struct qobject *o = add_object(nth_packed_sha1(p, n));

			o->pack = p;
			o->pos = n;
		}
	}
	closedir(d);
	free(dir);
}

/* One row per id: a loose copy is kept over a packed one. */
static void drop_duplicates(void)
{
	size_t i, nr = 0;

	for (i = 0; i < nr_objects; i++) {
		if (nr &&
		    hasheq(objects[nr - 1].fo.sha1, objects[i].fo.sha1)) {
			if (objects[nr - 1].pack && !objects[i].pack)
				objects[nr - 1] = objects[i];
			continue;
		}
		objects[nr++] = objects[i];
	}
	nr_objects = nr;
}

/* rsync's temporaries and other garbage are not listed. */
static void list_quarantine(void)
{
	for_each_loose_in_dir(quarantine, list_object, NULL);
	list_packs();
	sort_sha1_table(objects, nr_objects, sizeof(*objects));
	drop_duplicates();
}

static struct qobject *find_object(const unsigned char *sha1)
{
	return find_sha1_in_table(sha1, objects, nr_objects, sizeof(*objects));
}

/* objects/xx/yyyy... under the quarantine (malloc'd). */
static char *quarantine_path(const unsigned char *sha1)
{
	const char *hex = sha1_to_hex(sha1);
	size_t len = strlen(quarantine);
	size_t size = len + the_hash->hexsz + 3;
	char *path = xmalloc(size);

	snprintf(path, size, "%s/%.2s/%s", quarantine, hex, hex + 2);
	return path;
}

/* ---- checking each object (in parallel: each stands alone) ---- */

static void set_problem(struct qobject *o, const char *why)
{
	if (!o->problem)
		o->problem = xstrdup(why);
	o->fo.type = OBJ_BAD;
}

static void fsck_report(void *data, enum fsck_level level, const char *msg)
{
	if (level == FSCK_ERROR)
		set_problem(data, msg);
}

/*
 * A packed object: a blob is taken as index-pack checked it (its type
 * from the headers); anything else is opened for its links.
 */
static int open_packed_object(struct qobject *o, struct object_stream *st,
			      struct fault *f)
{
	enum object_type type;
	size_t size;

	if (pack_object_info(o->pack, o->pos, &type, &size, f) < 0)
		return -1;
	if (type == OBJ_BLOB) {
		o->fo.type = OBJ_BLOB;
		return 1;
	}
	return open_pack_entry(st, o->pack, o->pos, f);
}

static void check_object(struct qobject *o)
{
	struct fsck_options opt = { 1, fsck_report, o, NULL, 1 };
	char *buf = NULL;
	struct object_stream st;
	struct fault f;
	int ret;

	if (o->pack) {
		ret = open_packed_object(o, &st, &f);
		if (ret > 0)
			return;
	} else {
		char *path = quarantine_path(o->fo.sha1);

		ret = open_object_file_stream(&st, path, &f);
		free(path);
	}
	if (ret < 0) {
		set_problem(o, f.msg);
		return;
	}
	ret = fsck_object_stream(&o->fo, &st, &opt, &buf, &f);
	close_object_stream(&st);
	if (ret < 0) {
		set_problem(o, f.msg);
	} else if (o->problem) {
		o->fo.type = OBJ_BAD;
	} else if (o->fo.type == OBJ_TREE) {
		if (o->pack) {
			free(buf);	/* read again if vouch_trees asks */
			return;
		}
		o->tree = buf;		/* kept for vouch_trees */
		o->tree_size = st.size;
		return;
	} else if (o->fo.type != OBJ_BLOB && o->fo.type != OBJ_COMMIT &&
		   o->fo.type != OBJ_TAG) {
		set_problem(o, "unknown object type");
	}
	free(buf);
}

static size_t check_nth_object(void *data, size_t i)
{
	check_object((struct qobject *)data + i);
	return 1;
}

static void report_bad_objects(void)
{
	size_t i;

	for (i = 0; i < nr_objects; i++) {
		if (!objects[i].problem)
			continue;
		error("bad object %s: %s", sha1_to_hex(objects[i].fo.sha1),
		      objects[i].problem);
		errors++;
	}
}

/* ---- reachability ---- */

/* The type of an object the store holds, or OBJ_NONE when it has none. */
static int stored_type(const unsigned char *sha1)
{
	enum object_type type;
	size_t size;
	struct fault f;

	if (object_info(sha1, &type, &size, &f) < 0) {
		if (f.code == FAULT_MISSING)
			return OBJ_NONE;
		report_object_fault(sha1, &f);
		errors++;
		return OBJ_BAD;
	}
	return type;
}

/* Does an object of type have the type a referrer expects? */
static int check_type(const unsigned char *sha1, int type, int want,
		      const char *referrer)
{
	if (type == want)
		return 0;
	errors++;
	if (type == OBJ_NONE)
		return error("missing %s %s (named by %s)", type_name(want),
			     sha1_to_hex(sha1), referrer);
	return error("%s names %s %s, which is a %s", referrer,
		     type_name(want), sha1_to_hex(sha1),
		     type > 0 ? type_name(type) : "bad object");
}

/*
 * Links from new objects to objects the store holds: their types are
 * checked after the walk, on every core (reading the headers of the
 * unchanged entries of every changed tree is most of the work).
 */
struct store_link {
	unsigned char sha1[HASH_MAX_RAWSZ];
	signed char want, found;
	struct qobject *referrer;
};

static struct store_link *store_links;
static size_t nr_store_links, alloc_store_links;

static void note_store_link(const struct fsck_link *l, struct qobject *referrer)
{
	struct store_link *s;

	ALLOC_GROW(store_links, nr_store_links + 1, alloc_store_links);
	s = &store_links[nr_store_links++];
	hashcpy(s->sha1, l->sha1);
	s->want = l->type;
	s->found = OBJ_NONE;
	s->referrer = referrer;
}

static int compare_store_links(const void *a, const void *b)
{
	const struct store_link *x = a, *y = b;
	int cmp = hashcmp(x->sha1, y->sha1);

	return cmp ? cmp : x->want - y->want;
}

static size_t check_nth_store_link(void *data, size_t i)
{
	struct store_link *s = (struct store_link *)data + i;
	enum object_type type;
	size_t size;
	struct fault f;

	if (object_info(s->sha1, &type, &size, &f) < 0)
		s->found = f.code == FAULT_MISSING ? OBJ_NONE : OBJ_BAD;
	else
		s->found = type;
	return 1;
}

/*
 * Links the store vouches for: the entries of the trees that the
 * parent commit (in the store) has where a new commit's trees changed.
 * The store holds what passed fsck-cache's checks or this gate, so a
 * tree of it that names an object as a blob names a blob there; a new
 * tree's link that such a tree makes too needs no look at the object.
 * Most of a new tree's entries are its parent's, unchanged: this reads
 * one old tree per changed directory instead of one header per entry.
 */
static struct fsck_link *vouched;
static size_t nr_vouched, alloc_vouched;

static int compare_links(const void *a, const void *b)
{
	const struct fsck_link *x = a, *y = b;
	int cmp = hashcmp(x->sha1, y->sha1);

	return cmp ? cmp : x->type - y->type;
}

/* Deeper than this, a pair of trees is left to the plain checks. */
#define MAX_VOUCH_DEPTH 256

/*
 * The bytes of the good tree o: kept when loose; read from the pack
 * again when packed (a clone holds millions of trees; few are asked
 * for here), then malloc'd in *fresh for the caller to free.  NULL
 * when o is no good tree or cannot be read.
 */
static const char *tree_bytes(const struct qobject *o, size_t *size,
			      char **fresh)
{
	struct object_stream st;
	struct fault f;

	*fresh = NULL;
	if (o->fo.type != OBJ_TREE)
		return NULL;
	if (!o->pack) {
		*size = o->tree_size;
		return o->tree;
	}
	if (open_pack_entry(&st, o->pack, o->pos, &f) < 0)
		return NULL;
	*fresh = read_object_stream_whole(&st, &f);
	*size = st.size;
	close_object_stream(&st);
	return *fresh;
}

static void vouch_tree(const struct qobject *n, const unsigned char *old_id,
		       int depth)
{
	struct tree_desc nd, od;
	struct name_entry ne, oe;
	enum object_type type;
	size_t size;
	struct fault f;
	char *old = read_object(old_id, &type, &size, &f), *fresh;
	const char *new;
	size_t new_size;
	int more;

	new = tree_bytes(n, &new_size, &fresh);
	if (!new || !old || type != OBJ_TREE || depth > MAX_VOUCH_DEPTH) {
		free(old);
		free(fresh);
		return;
	}
	init_tree_desc(&od, old, size);
	while (tree_entry_next(&od, &oe) > 0) {
		if (S_ISGITLINK(oe.mode))
			continue;
		ALLOC_GROW(vouched, nr_vouched + 1, alloc_vouched);
		hashcpy(vouched[nr_vouched].sha1, oe.sha1);
		vouched[nr_vouched++].type = object_type_of_mode(oe.mode);
	}
	/* Both sorted alike: pair the directories of the same name. */
	init_tree_desc(&od, old, size);
	init_tree_desc(&nd, new, new_size);
	more = tree_entry_next(&od, &oe) > 0;
	while (more && tree_entry_next(&nd, &ne) > 0) {
		const struct qobject *child;
		int cmp = 1;

		while (more && (cmp = base_name_compare(oe.path, oe.pathlen,
							oe.mode, ne.path,
							ne.pathlen,
							ne.mode)) < 0)
			more = tree_entry_next(&od, &oe) > 0;
		if (!more || cmp || !S_ISDIR(ne.mode) || !S_ISDIR(oe.mode) ||
		    hasheq(ne.sha1, oe.sha1))
			continue;
		child = find_object(ne.sha1);
		if (child && child->fo.type == OBJ_TREE)
			vouch_tree(child, oe.sha1, depth + 1);
	}
	free(old);
	free(fresh);
}

/* Each new commit against each parent of it that the store holds. */
static void vouch_trees(void)
{
	size_t i, j;

	for (i = 0; i < nr_objects; i++) {
		const struct qobject *c = &objects[i], *tree;

		if (c->fo.type != OBJ_COMMIT || !c->fo.nr_links)
			continue;
		tree = find_object(c->fo.links[0].sha1);
		if (!tree || tree->fo.type != OBJ_TREE)
			continue;
		for (j = 1; j < c->fo.nr_links; j++) {
			struct commit_info ci;
			enum object_type type;
			size_t size;
			struct fault f;
			char *buf;

			if (find_object(c->fo.links[j].sha1))
				continue;
			buf = read_object(c->fo.links[j].sha1, &type, &size, &f);
			if (buf && type == OBJ_COMMIT &&
			    !parse_commit_buffer(buf, size, &ci)) {
				vouch_tree(tree, ci.tree, 0);
				free_commit_info(&ci);
			}
			free(buf);
		}
	}
	if (nr_vouched > 1)
		qsort(vouched, nr_vouched, sizeof(*vouched), compare_links);
}

static int is_vouched(const struct store_link *s)
{
	struct fsck_link key;

	hashcpy(key.sha1, s->sha1);
	key.type = s->want;
	return nr_vouched && bsearch(&key, vouched, nr_vouched,
				     sizeof(*vouched), compare_links) != NULL;
}

static void check_store_links(void)
{
	char referrer[16 + HASH_MAX_HEXSZ];
	size_t i, nr = 0;

	if (nr_store_links > 1)
		qsort(store_links, nr_store_links, sizeof(*store_links),
		      compare_store_links);
	vouch_trees();
	for (i = 0; i < nr_store_links; i++)
		if ((!nr || compare_store_links(&store_links[nr - 1],
						&store_links[i])) &&
		    !is_vouched(&store_links[i]))
			store_links[nr++] = store_links[i];
	run_parallel(0, nr, check_nth_store_link, store_links, NULL, 0);
	for (i = 0; i < nr; i++) {
		struct store_link *s = &store_links[i];

		if (s->found == OBJ_BAD) {
			error("object %s in the store is unreadable",
			      sha1_to_hex(s->sha1));
			errors++;
			continue;
		}
		snprintf(referrer, sizeof(referrer), "%s %s",
			 type_name(s->referrer->fo.type),
			 sha1_to_hex(s->referrer->fo.sha1));
		check_type(s->sha1, s->found, s->want, referrer);
	}
}

/* The post-order of the walk: what an object names comes before it. */
static struct qobject **order;
static size_t nr_order, alloc_order;

struct frame {
	struct qobject *o;
	size_t next;
};

/* Walk from o (reached already) depth first, without recursion. */
static void walk_from(struct qobject *start)
{
	struct frame *stack = NULL;
	size_t nr = 0, alloc = 0;
	char referrer[16 + HASH_MAX_HEXSZ];

	ALLOC_GROW(stack, 1, alloc);
	stack[nr++] = (struct frame){ start, 0 };
	while (nr) {
		struct frame *fr = &stack[nr - 1];
		struct fsck_link *l;
		struct qobject *t;

		if (fr->next == fr->o->fo.nr_links) {
			ALLOC_GROW(order, nr_order + 1, alloc_order);
			order[nr_order++] = fr->o;
			nr--;
			continue;
		}
		l = &fr->o->fo.links[fr->next++];
		t = find_object(l->sha1);
		if (!t) {
			note_store_link(l, fr->o);
			continue;
		}
		if (t->fo.type == OBJ_BAD)
			continue;	/* reported already */
		snprintf(referrer, sizeof(referrer), "%s %s",
			 type_name(fr->o->fo.type), sha1_to_hex(fr->o->fo.sha1));
		if (check_type(t->fo.sha1, t->fo.type, l->type, referrer) < 0 ||
		    t->reached)
			continue;
		t->reached = 1;
		ALLOC_GROW(stack, nr + 1, alloc);
		stack[nr++] = (struct frame){ t, 0 };
	}
	free(stack);
}

/*
 * A head: a commit, or a tag (of a tag...) of one.  Returns -1 after
 * error() when it is something else or missing.
 */
static int check_head(const unsigned char *sha1)
{
	struct qobject *o = find_object(sha1);
	int depth;

	for (depth = 0; depth < 8; depth++) {
		int type = o ? o->fo.type : stored_type(sha1);

		if (o && type == OBJ_BAD)
			return -1;
		if (type == OBJ_COMMIT)
			return 0;
		if (type == OBJ_NONE)
			return error("missing head %s", sha1_to_hex(sha1));
		if (type != OBJ_TAG || !o || !o->fo.nr_links)
			return error("head %s is a %s, not a commit",
				     sha1_to_hex(sha1),
				     type > 0 ? type_name(type) : "bad object");
		sha1 = o->fo.links[0].sha1;
		o = find_object(sha1);
	}
	return error("head %s: tags nested too deep", sha1_to_hex(sha1));
}

static void walk_head(const unsigned char *sha1)
{
	struct qobject *o;

	if (check_head(sha1) < 0) {
		errors++;
		return;
	}
	o = find_object(sha1);
	if (!o || o->reached)
		return;
	o->reached = 1;
	walk_from(o);
}

/* A pack enters whole: every object of it is a head. */
static void walk_packed(void)
{
	size_t i;

	for (i = 0; i < nr_objects; i++) {
		struct qobject *o = &objects[i];

		if (!o->pack || o->reached || o->fo.type == OBJ_BAD)
			continue;
		o->reached = 1;
		walk_from(o);
	}
}

/* ---- installing ---- */

/*
 * May o enter the store now (with pack, when o is one of its objects)?
 * Only when every quarantine object it names is in already (or comes
 * with it in pack).
 */
static int is_ready(const struct qobject *o, const struct packed_git *pack)
{
	size_t i;

	for (i = 0; i < o->fo.nr_links; i++) {
		const struct qobject *t = find_object(o->fo.links[i].sha1);

		if (t && !t->installed && (!pack || t->pack != pack))
			return 0;
	}
	return 1;
}

static int is_pack_ready(const struct packed_git *p)
{
	size_t i;

	for (i = 0; i < nr_objects; i++)
		if (objects[i].pack == p && !is_ready(&objects[i], p))
			return 0;
	return 1;
}

/*
 * The plan: the loose objects in the walk's order, each pack as soon
 * as what it names is in.  Marks o->installed as the plan goes; steps
 * get an object (loose) or a pack, in order.  -1 when no order exists.
 */
struct step {
	struct qobject *o;
	struct packed_git *pack;
};

static struct step *steps;
static size_t nr_steps, alloc_steps;

static void add_step(struct qobject *o, struct packed_git *pack)
{
	ALLOC_GROW(steps, nr_steps + 1, alloc_steps);
	steps[nr_steps].o = o;
	steps[nr_steps++].pack = pack;
}

static void mark_pack(const struct packed_git *p)
{
	size_t i;

	for (i = 0; i < nr_objects; i++)
		if (objects[i].pack == p)
			objects[i].installed = 1;
}

static int plan_install(void)
{
	unsigned char *pack_done = xcalloc(nr_packs + 1, 1);
	size_t i, left = nr_packs;
	int moved = 1;

	for (i = 0; i < nr_order; i++)
		left += !order[i]->pack;

	while (left && moved) {
		moved = 0;
		for (i = 0; i < nr_order; i++) {
			struct qobject *o = order[i];

			if (o->installed || o->pack || !is_ready(o, NULL))
				continue;
			add_step(o, NULL);
			o->installed = 1;
			left--;
			moved = 1;
		}
		for (i = 0; i < nr_packs; i++) {
			if (pack_done[i] || !is_pack_ready(packs[i]))
				continue;
			add_step(NULL, packs[i]);
			mark_pack(packs[i]);
			pack_done[i] = 1;
			left--;
			moved = 1;
		}
	}
	free(pack_done);
	return left ? -1 : 0;
}

static void install_loose(const struct qobject *o)
{
	char *path = quarantine_path(o->fo.sha1);
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die_errno("open '%s'", path);
	if (place_tmp_object(path, fd, o->fo.sha1) < 0)
		die("could not install %s", sha1_to_hex(o->fo.sha1));
	free(path);
}

/* from (in the quarantine) to dir/<its base name>, synced first. */
static void move_pack_file(const char *from, const char *dir)
{
	const char *base = strrchr(from, '/');
	char *to = path_join(dir, base ? base + 1 : from);
	int fd = open(from, O_RDONLY);

	if (fd < 0)
		die_errno("open '%s'", from);
	if (sync_wanted() && fsync(fd) < 0)
		die_errno("fsync '%s'", from);
	close(fd);
	if (rename(from, to) < 0)
		die_errno("rename '%s' to '%s'", from, to);
	free(to);
}

/* The renames into dir made durable (unless DIRCACHE_NO_SYNC). */
static void sync_dir(const char *dir)
{
	int fd;

	if (!sync_wanted())
		return;
	fd = open(dir, O_RDONLY);
	if (fd < 0 || fsync(fd) < 0)
		die_errno("fsync '%s'", dir);
	close(fd);
}

/*
 * The pack, then its idx: a reader lists a pack by its idx, so the
 * pack is never seen half there.  A pack of that name (its content's
 * id) in the store already is kept.
 */
static void install_pack(struct packed_git *p)
{
	char *dir = path_join(get_object_directory(), "pack");
	const char *base = strrchr(p->idx_name, '/');
	char *idx = path_join(dir, base ? base + 1 : p->idx_name);

	if (access(idx, F_OK) < 0) {
		if (mkdir(dir, 0777) < 0 && errno != EEXIST)
			die_errno("mkdir '%s'", dir);
		move_pack_file(p->pack_name, dir);
		move_pack_file(p->idx_name, dir);
		sync_dir(dir);
	}
	free(idx);
	free(dir);
}

static void install_objects(void)
{
	size_t i;

	if (plan_install() < 0)
		die("refusing the objects in '%s': its packs and loose objects name each other in a circle",
		    quarantine);
	for (i = 0; i < nr_steps; i++) {
		if (steps[i].pack)
			install_pack(steps[i].pack);
		else
			install_loose(steps[i].o);
	}
	if (flush_to_disk(-1) < 0)
		die("could not sync the store");
}

int main(int argc, char **argv)
{
	int install = 0, i = 1;
	unsigned char (*heads)[HASH_MAX_RAWSZ];
	int nr_heads, h;
	struct progress *progress;

	setup_tool(argv[0]);
	handle_help(argc, argv, verify_objects_usage);
	if (i < argc && !strcmp(argv[i], "--install")) {
		install = 1;
		i++;
	}
	if (argc - i < 2 || argv[i][0] == '-')
		usage(verify_objects_usage);
	if (setup_repository() < 0)
		exit(128);
	quarantine = argv[i++];
	nr_heads = argc - i;
	heads = xcalloc(nr_heads, sizeof(*heads));
	for (h = 0; h < nr_heads; h++)
		if (get_sha1_hex(argv[i + h], heads[h]) < 0 ||
		    argv[i + h][the_hash->hexsz])
			die("not an object id: '%s'", argv[i + h]);

	list_quarantine();
	progress = start_progress("Checking objects", nr_objects);
	run_parallel(0, nr_objects, check_nth_object, objects, progress, 0);
	stop_progress(&progress);
	report_bad_objects();
	for (h = 0; h < nr_heads; h++)
		walk_head(heads[h]);
	walk_packed();
	check_store_links();
	if (errors)
		die("refusing the objects in '%s': %d problem%s", quarantine,
		    errors, errors == 1 ? "" : "s");
	if (install)
		install_objects();
	free(heads);
	finish_stdout();
	return 0;
}
