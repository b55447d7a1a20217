// Kernel launch overhead: back-to-back stream launches, launch-to-completion latency, and the
// cost per kernel inside a replayed CUDA graph.
#include <chrono>

#include "common.hpp"

namespace hw {
namespace {

__global__ void empty_kernel(int* p) {
  if (p != nullptr) *p = 0;
}

}  // namespace

std::string bench_launch(const Options& o) {
  cudaStream_t s;
  HW_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int batches = o.quick ? 5 : 25;
  auto launch = [&](int) { empty_kernel<<<1, 32, 0, s>>>(nullptr); };

  // GPU-side time per kernel when the host issues launches as fast as it can.
  std::vector<double> stream_us = time_batches_us(s, 200, batches, 1000, launch);

  // Host cost of one launch call (enqueue only).
  std::vector<double> host_us;
  for (int b = 0; b < batches; ++b) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) launch(i);
    auto t1 = std::chrono::steady_clock::now();
    host_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / 1000.0);
    HW_CHECK(cudaStreamSynchronize(s));
  }

  // Launch, then wait for it: what a lone kernel costs end to end, seen from the host.
  std::vector<double> sync_us;
  for (int i = 0; i < (o.quick ? 200 : 3000); ++i) {
    auto t0 = std::chrono::steady_clock::now();
    launch(i);
    HW_CHECK(cudaStreamSynchronize(s));
    auto t1 = std::chrono::steady_clock::now();
    if (i >= 100) sync_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  HW_CHECK_LAUNCH();

  // A graph of 100 dependent empty kernels, replayed.
  const int kernels_per_graph = 100;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  HW_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < kernels_per_graph; ++i) launch(i);
  HW_CHECK(cudaStreamEndCapture(s, &graph));
  HW_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<double> graph_us =
      time_batches_us(s, 20, batches, 20, [&](int) { HW_CHECK(cudaGraphLaunch(exec, s)); });
  for (double& g : graph_us) g /= kernels_per_graph;
  HW_CHECK(cudaGraphExecDestroy(exec));
  HW_CHECK(cudaGraphDestroy(graph));
  HW_CHECK(cudaStreamDestroy(s));
  return jobj({{"kernel", jstr("empty kernel, 1 block of 32 threads")},
               {"stream_back_to_back_us_per_kernel", jstats(stats_of(stream_us))},
               {"stream_batches", jnum(batches)},
               {"stream_kernels_per_batch", jnum(1000)},
               {"host_enqueue_us_per_launch", jstats(stats_of(host_us))},
               {"launch_and_sync_us", jstats(stats_of(sync_us))},
               {"graph_kernels", jnum(kernels_per_graph)},
               {"graph_replay_us_per_kernel", jstats(stats_of(graph_us))}});
}

}  // namespace hw
