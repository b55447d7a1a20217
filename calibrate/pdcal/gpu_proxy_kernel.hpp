#pragma once
// GPU side of the CUDA proxy probe (pdcal-gpu-proxy): one GPU thread issues commands into a FIFO
// in host-mapped memory and waits for the proxy's completion flag, timing each round trip with
// %globaltimer. Plain C++ interface so that the probe's host code needs no nvcc.
#include <cstdint>
#include <string>
#include <vector>

namespace pdsim::pdcal::gpu {

// CUDA devices visible to this process; 0 when there is none or no usable driver.
int device_count();

struct Command {  // one 16-byte FIFO slot; seq is written twice so a torn read is detectable
  uint32_t seq, bytes, iter, seq2;
};

class ProxyGpu {
 public:
  ProxyGpu(int device, unsigned slots);  // throws std::runtime_error on CUDA errors
  ~ProxyGpu();
  ProxyGpu(const ProxyGpu&) = delete;
  ProxyGpu& operator=(const ProxyGpu&) = delete;

  std::string device_name() const { return name_; }
  unsigned slots() const { return slots_; }
  volatile Command* ring() { return ring_; }          // host view of the FIFO
  volatile uint64_t* ack() { return ack_; }           // host writes the completed seq here
  volatile uint32_t* abort_flag() { return abort_; }  // host sets 1 to end a stuck kernel

  // Launches `iters` round trips (asynchronously): for i = 0..iters-1 the thread reads
  // %globaltimer (g0), writes command seq = first_seq + i to slot seq % slots, fences
  // (system scope), spins until *ack == seq, reads %globaltimer (g1).
  void launch(int iters, uint32_t first_seq, uint32_t bytes);
  // Waits for the kernel; copies g0/g1 (ns) back. Throws on a CUDA error.
  void finish(std::vector<uint64_t>& g0, std::vector<uint64_t>& g1);

 private:
  int device_ = 0;
  unsigned slots_ = 0;
  std::string name_;
  volatile Command* ring_ = nullptr;
  volatile uint64_t* ack_ = nullptr;
  volatile uint32_t* abort_ = nullptr;
  void* host_block_ = nullptr;
  void* dev_block_ = nullptr;  // device view of host_block_
  uint64_t* g_ = nullptr;      // device timestamps, 2 × capacity
  int capacity_ = 0, iters_ = 0;
};

}  // namespace pdsim::pdcal::gpu
