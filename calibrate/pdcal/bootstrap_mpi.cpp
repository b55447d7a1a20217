// MPI side of the pdcal bootstrap (bootstrap.hpp): built with PDCAL_HAVE_MPI, else a stub that
// says how to get it.
#include "calibrate/pdcal/bootstrap.hpp"

#ifdef PDCAL_HAVE_MPI
#include <mpi.h>

#include <cstdlib>
#include <limits>

#include "calibrate/pdcal/wire.hpp"
#endif

namespace pdsim::pdcal {

#ifndef PDCAL_HAVE_MPI

bool Bootstrap::built_with_mpi() {
  return false;
}
Bootstrap Bootstrap::mpi() {
  throw ProbeError(
      "this pdcal was built without MPI (install an MPI such as Debian's libopenmpi-dev and "
      "rebuild); use --listen/--connect");
}
std::vector<std::string> Bootstrap::mpi_allgather(const std::string&) {
  return {};
}

#else

namespace {
void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw ProbeError(std::string("bootstrap: ") + what + " failed");
}
void finalize() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}
}  // namespace

bool Bootstrap::built_with_mpi() {
  return true;
}

Bootstrap Bootstrap::mpi() {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) {
    check(MPI_Init(nullptr, nullptr), "MPI_Init");
    std::atexit(finalize);  // after the output is written, whatever path main returns by
  }
  Bootstrap b;
  b.mpi_ = true;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &b.rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &b.nranks_), "MPI_Comm_size");
  if (b.nranks_ < 2) throw ProbeError("bootstrap: MPI job has 1 rank; run mpirun -n 2 or more");
  return b;
}

std::vector<std::string> Bootstrap::mpi_allgather(const std::string& blob) {
  const auto n = static_cast<size_t>(nranks_);
  int mine = static_cast<int>(blob.size());
  std::vector<int> sizes(n), displs(n);
  check(MPI_Allgather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD),
        "MPI_Allgather");
  int total = 0;
  for (size_t r = 0; r < n; ++r) {
    // The same bound as a TCP frame; every rank sees the same sizes, so all of them stop here.
    if (sizes[r] < 0 || static_cast<uint64_t>(sizes[r]) > kMaxFrameBytes ||
        sizes[r] > std::numeric_limits<int>::max() - total)
      throw PeerMessageError("allgather", "rank " + std::to_string(r), "size",
                             "expected 0.." + std::to_string(kMaxFrameBytes) +
                                 " bytes (under 2 GiB for all ranks), got " +
                                 std::to_string(sizes[r]));
    displs[r] = total;
    total += sizes[r];
  }
  std::string all(static_cast<size_t>(total), '\0');
  check(MPI_Allgatherv(blob.data(), mine, MPI_CHAR, all.data(), sizes.data(), displs.data(),
                       MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  std::vector<std::string> out(n);
  for (size_t r = 0; r < n; ++r)
    out[r] = all.substr(static_cast<size_t>(displs[r]), static_cast<size_t>(sizes[r]));
  return out;
}

#endif

}  // namespace pdsim::pdcal
