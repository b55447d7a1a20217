#pragma once
// Transparent huge pages for malloc's heap (glibc's glibc.malloc.hugetlb=1 tunable).
//
// A simulation keeps tens of MB of per-iteration records and actor stacks, and runs in a freshly
// forked process (one per `pdsim run`, per sweep point, per sensitivity probe), so it touches all
// of that memory for the first time: on 4 KiB pages that is ~10^4 page faults per run, 10-15 % of
// its CPU time on a VM. With 2 MiB pages it is ~3x fewer faults. glibc reads GLIBC_TUNABLES only
// when a process starts, so `pdsim` re-executes itself once with the tunable added.
//
// Skipped when: PDSIM_MALLOC_HUGEPAGES=0; GLIBC_TUNABLES already names glibc.malloc.hugetlb (the
// user's choice, or the re-executed process); the kernel's THP mode is `never` or unreadable;
// running under valgrind; sanitizer builds. Results do not depend on it (outputs are
// byte-identical with and without).
namespace pdsim {

// Returns only when no re-exec happened (or the exec failed, in which case nothing changed).
void reexec_with_malloc_hugepages(char** argv);

}  // namespace pdsim
