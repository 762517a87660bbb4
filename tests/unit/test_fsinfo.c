/* test_fsinfo.c: which mount a directory is on, GFS2's lock protocol and
 * table, and the directory checks. */
#include "cmocka_prelude.h"

#include "pfsbench/target/fsinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char mountinfo[] =
	"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro\n"
	"30 22 0:25 / /mnt rw shared:2 - tmpfs tmpfs rw,size=1024k\n"
	"31 30 253:3 / /mnt/gfs2 rw,noatime shared:3 - gfs2 /dev/mapper/vg-lv rw,lockproto=lock_dlm\n"
	"32 22 0:40 / /mnt/gfs2x rw - xfs /dev/sdb rw\n"
	"33 22 0:41 / /mnt/with\\040space rw master:4 propagate_from:1 - fuse.glusterfs srv:/vol rw\n"
	"34 30 0:42 / /mnt/gfs2 rw - ext3 /dev/loop0 rw,data=ordered\n"
	"35 22 253:4 / /mnt/g2 rw - gfs2 /dev/vdb rw,lockproto=lock_dlm,locktable=pfsbench:gfs,localflocks\n"
	/* as a Debian 6.1 kernel shows a GFS2 mounted with no options */
	"37 22 254:0 / /mnt/g3 rw,relatime - gfs2 /dev/vda rw,localflocks,rgrplvb\n";

static void test_longest_mount_wins(void **state)
{
	struct pfs_fsinfo fi;

	(void)state;
	memset(&fi, 0, sizeof(fi));
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/home/x", &fi), 0);
	assert_string_equal(fi.fstype, "EXT4");
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/mnt/gfs2x/a", &fi), 0);
	assert_string_equal(fi.fstype, "XFS"); /* not /mnt/gfs2: a component boundary */
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/mnt/other", &fi), 0);
	assert_string_equal(fi.fstype, "TMPFS");
}

static void test_later_mount_on_same_point_hides_earlier(void **state)
{
	struct pfs_fsinfo fi;

	(void)state;
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/mnt/gfs2/bench", &fi), 0);
	assert_string_equal(fi.fstype, "EXT3");
	assert_string_equal(fi.mount_source, "/dev/loop0");
	assert_string_equal(fi.mount_options, "rw,data=ordered");
}

/* As /proc/mounts lists them (issue 29: "rw,relatime,rw,..." before):
 * one rw or ro, ro when the mount or its superblock is read-only, then
 * the mount's options, then the superblock's not already said. */
static void test_mount_options_each_once(void **state)
{
	static const char mi[] =
		"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda "
		"rw,discard,resv_strict,resuid=65534,resgid=65534\n"
		"23 22 0:30 / /ro ro,nosuid,relatime - tmpfs tmpfs rw,size=10k,relatime\n"
		"24 22 0:31 / /sro rw,noatime - xfs /dev/vdb ro,attr2,inode64\n"
		"25 22 0:32 / /none rw - proc proc \n";
	static const struct {
		const char *path, *options;
	} cases[] = {
		{ "/x", "rw,relatime,discard,resv_strict,resuid=65534,resgid=65534" },
		{ "/ro/x", "ro,nosuid,relatime,size=10k" },
		{ "/sro", "ro,noatime,attr2,inode64" },
		{ "/none", "rw" },
	};
	struct pfs_fsinfo fi;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&fi, 0, sizeof(fi));
		assert_int_equal(pfs_mountinfo_find(mi, cases[i].path, &fi), 0);
		assert_string_equal(fi.mount_options, cases[i].options);
	}
}

static void test_optional_fields_and_escapes(void **state)
{
	struct pfs_fsinfo fi;

	(void)state;
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/mnt/with space/d", &fi), 0);
	assert_string_equal(fi.fstype, "FUSE.GLUSTERFS");
	assert_string_equal(fi.mount_source, "srv:/vol");
	assert_string_equal(fi.mount_point, "/mnt/with space");
}

static void test_gfs2_lock_options_from_mountinfo(void **state)
{
	struct pfs_fsinfo fi;

	(void)state;
	memset(&fi, 0, sizeof(fi));
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/mnt/g2/d", &fi), 0);
	assert_string_equal(fi.fstype, "GFS2");
	assert_string_equal(fi.lockproto, "lock_dlm");
	assert_string_equal(fi.locktable, "pfsbench:gfs");
	/* the next lookup forgets them */
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/mnt/g3", &fi), 0);
	assert_string_equal(fi.lockproto, "");
	assert_string_equal(fi.locktable, "");
	assert_int_equal(pfs_mountinfo_find(mountinfo, "/home", &fi), 0);
	assert_string_equal(fi.lockproto, "");
}

/* root/NAME/id says "major:minor"; root/NAME/lock_module/proto_name. */
static void fake_gfs2(const char *root, const char *name, const char *id, const char *proto)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/lock_module", root, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/id", root, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", id);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s/lock_module/proto_name", root, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", proto);
	fclose(f);
}

static void test_gfs2_lock_from_sysfs(void **state)
{
	char root[] = "/tmp/pfsbench-gfs2sys-XXXXXX", cmd[128];
	struct pfs_fsinfo fi;

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_gfs2(root, "other:fs", "254:0", "lock_nolock");
	fake_gfs2(root, "pfsbench:gfs", "254:16", "lock_dlm");
	memset(&fi, 0, sizeof(fi));
	assert_int_equal(pfs_gfs2_lock_find(root, 254, 16, &fi), 0);
	assert_string_equal(fi.lockproto, "lock_dlm");
	assert_string_equal(fi.locktable, "pfsbench:gfs");
	/* what the mount options said stays */
	snprintf(fi.locktable, sizeof(fi.locktable), "given:fs");
	fi.lockproto[0] = 0;
	assert_int_equal(pfs_gfs2_lock_find(root, 254, 0, &fi), 0);
	assert_string_equal(fi.lockproto, "lock_nolock");
	assert_string_equal(fi.locktable, "given:fs");
	/* 254:1 is not 254:16's prefix match */
	memset(&fi, 0, sizeof(fi));
	assert_int_equal(pfs_gfs2_lock_find(root, 254, 1, &fi), -ENOENT);
	assert_string_equal(fi.lockproto, "");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(pfs_gfs2_lock_find(root, 254, 16, &fi), -ENOENT);
}

static void test_this_machine(void **state)
{
	char dir[] = "/tmp/pfsbench-fsinfo-XXXXXX", file[64], why[256];
	struct pfs_fsinfo fi;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(pfs_fsinfo_get(dir, &fi), 0);
	assert_true(fi.fstype[0] != 0);
	assert_true(fi.bytes_free > 0);
	assert_int_equal(pfs_check_dir(dir, why, sizeof(why)), 0);
	snprintf(file, sizeof(file), "%s/f", dir);
	f = fopen(file, "w");
	fclose(f);
	assert_int_equal(pfs_check_dir(file, why, sizeof(why)), -ENOTDIR);
	assert_non_null(strstr(why, "is not a directory"));
	unlink(file);
	rmdir(dir);
	assert_int_equal(pfs_check_dir(dir, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "No such file or directory"));
	assert_int_equal(pfs_fsinfo_get(dir, &fi), -ENOENT);
}

/* --direct's probe leaves nothing behind, whatever the filesystem says;
 * where it takes O_DIRECT the alignment is a power of two of 512 or more;
 * a missing directory or a file is no place to probe. */
static void test_direct_probe(void **state)
{
	char dir[] = "/tmp/pfsbench-direct-XXXXXX", file[64];
	uint64_t align = 0;
	FILE *f;
	int rc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	rc = pfs_direct_probe(dir, &align);
	assert_true(rc == 0 || rc == -EINVAL);
	if (!rc)
		assert_true(align >= 512 && !(align & (align - 1)));
	/* nothing left: rmdir fails on a directory that holds anything */
	snprintf(file, sizeof(file), "%s/f", dir);
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(pfs_direct_probe(file, &align), -ENOTDIR);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(pfs_direct_probe(dir, &align), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longest_mount_wins),
		cmocka_unit_test(test_later_mount_on_same_point_hides_earlier),
		cmocka_unit_test(test_mount_options_each_once),
		cmocka_unit_test(test_optional_fields_and_escapes),
		cmocka_unit_test(test_gfs2_lock_options_from_mountinfo),
		cmocka_unit_test(test_gfs2_lock_from_sysfs),
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_direct_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
