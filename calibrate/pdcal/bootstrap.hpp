#pragma once
// Bootstrap of pdcal ranks, used only to exchange fabric addresses and for barriers.
// TCP: rank 0 listens (--listen HOST:PORT), the others connect (--connect HOST:PORT) and get
// ranks in the order they are accepted; every blocking call has a deadline, so a dead or hung
// peer ends the probe with a clear ProbeError instead of hanging.
// MPI (`mpirun -n N pdcal ...`, when built with MPI): ranks and the exchange come from
// MPI_COMM_WORLD (MPI_Allgather of the sizes, then MPI_Allgatherv). MPI calls have no deadline;
// a rank that dies is handled by the launcher (Open MPI aborts the job), and the probes' own
// waits on the fabric keep their deadlines.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {

struct Endpoint {
  std::string host;
  int port = 0;
};
// "HOST:PORT" given as `flag`; InputError unless PORT is min_port..65535.
Endpoint parse_host_port(const std::string& text, const std::string& flag, int min_port);

class Bootstrap {
 public:
  // Listener: accepts `nranks - 1` peers within `timeout_s`. If `port_file` is not empty the port
  // actually bound (useful with port 0) is written there once listening.
  static Bootstrap listen(const Endpoint& at, int nranks, double timeout_s,
                          const std::string& port_file);
  // Connector: retries until the listener is up or `timeout_s` passes.
  static Bootstrap connect(const Endpoint& to, double timeout_s);
  // MPI_Init (once) and MPI_COMM_WORLD; ProbeError when pdcal was built without MPI.
  static Bootstrap mpi();
  static bool built_with_mpi();
  // True when an MPI launcher started this process (Open MPI, MPICH/PMI, PMIx environment).
  static bool launched_by_mpi();

  Bootstrap(Bootstrap&& other) noexcept;
  Bootstrap& operator=(Bootstrap&&) = delete;
  Bootstrap(const Bootstrap&) = delete;
  ~Bootstrap();

  int rank() const { return rank_; }
  int nranks() const { return nranks_; }
  // Every rank contributes one blob; every rank gets all blobs in rank order. Each blob is at
  // most kMaxFrameBytes (wire.hpp). `check(blob, who)` (throwing on a bad one) runs on every
  // blob received, and on rank 0 before it relays anything, so a bad frame is never sent on to
  // the other ranks (4 MB to each of thousands).
  using BlobCheck = std::function<void(std::string_view blob, const std::string& who)>;
  std::vector<std::string> allgather(const std::string& blob, double timeout_s,
                                     const BlobCheck& check = {});
  void barrier(double timeout_s);

 private:
  Bootstrap() = default;
  std::vector<std::string> mpi_allgather(const std::string& blob);
  bool mpi_ = false;
  int rank_ = 0, nranks_ = 1;
  std::string rank0_;     // connector: how errors name rank 0 ("rank 0 (HOST:PORT)")
  std::vector<int> fds_;  // rank 0: one per peer (index rank-1); others: one to rank 0
};

}  // namespace pdsim::pdcal
