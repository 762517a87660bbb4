/* keep_modules.c: linked into the sanitizer build's MPI programs only
 * (Makefile.am, ./configure --enable-sanitizers), never into pfsbench as
 * built for use. Open MPI unloads its components (mca_*.so) in
 * MPI_Finalize, before LeakSanitizer looks at the heap; a leak inside one
 * then has "<unknown module>" for its frames and no suppression can name
 * it. With dlclose a no-op every module stays mapped until the process
 * ends, so tests/sanitizers.supp names Open MPI's leaks by library and the
 * stacks can be unwound the fast way (by frame pointers), which cost a
 * rank about 1 s less to start than unwinding every allocation through
 * DWARF (README.md, "The sanitizer build").
 * The executable's definition interposes libc's for every library. */
int dlclose(void *handle);

int dlclose(void *handle)
{
	(void)handle;
	return 0;
}
