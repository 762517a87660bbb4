/* hdf5_alone.c FILE: what the reader asks of HDF5 about a results file,
 * and nothing of pfsbench: H5Fopen, then for each table H5Dopen2 and
 * H5Dget_type, closing everything it got. Under valgrind it shows that a
 * leak of the fuzz target's tests/fuzz/lsan.supp is HDF5's own:
 *   cc -I/usr/include/hdf5/serial tests/fuzz/hdf5_alone.c \
 *      -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5 -o /tmp/hdf5_alone
 *   valgrind --leak-check=full /tmp/hdf5_alone tests/fuzz/known/FILE.h5
 * (docs/fuzzing.md). Not built by make. */
#include <hdf5.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	static const char *const tables[] = { "nodes", "rows", "latency", "progress", "fsstats" };
	hid_t file;

	if (argc != 2)
		return 2;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	file = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
	printf("H5Fopen: %s\n", file < 0 ? "failed" : "ok");
	for (size_t i = 0; file >= 0 && i < sizeof(tables) / sizeof(tables[0]); i++) {
		hid_t ds = H5Dopen2(file, tables[i], H5P_DEFAULT), type = H5I_INVALID_HID;

		if (ds >= 0)
			type = H5Dget_type(ds);
		printf("%s: H5Dopen2 %s, H5Dget_type %s\n", tables[i], ds < 0 ? "failed" : "ok",
		       type < 0 ? "failed" : "ok");
		if (type >= 0)
			H5Tclose(type);
		if (ds >= 0)
			H5Dclose(ds);
	}
	if (file >= 0)
		H5Fclose(file);
	return 0;
}
