#include "calibrate/pdcal/probes.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim/core/stats.hpp"

namespace pdsim::pdcal {
namespace {

enum Kind : uint32_t { kPing = 1, kGo = 2, kFin = 3, kAck = 4, kDone = 5 };
uint32_t tag(Kind k, uint64_t seq) {
  return (k << 28) | static_cast<uint32_t>(seq & 0x0fffffff);
}

constexpr size_t kCtrlBytes = 8, kCtrlSlot = 64;
size_t ctrl_bytes(int nranks) {
  return kCtrlSlot * 2 * static_cast<size_t>(nranks);
}
size_t send_slot(size_t data_bytes, int peer) {
  return data_bytes + kCtrlSlot * static_cast<size_t>(peer);
}
size_t recv_slot(size_t data_bytes, int nranks, int peer) {
  return data_bytes + kCtrlSlot * static_cast<size_t>(nranks + peer);
}

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

nlohmann::json quantiles_us(const std::vector<double>& samples_us, bool keep) {
  Distribution d = describe(samples_us);
  nlohmann::json j = {{"latency_us", d.median}, {"stat", "median"}, {"mean_us", d.mean},
                      {"std_us", d.std},        {"min_us", d.min},  {"p50_us", d.median},
                      {"p90_us", d.p90},        {"p99_us", d.p99},  {"max_us", d.max},
                      {"iterations", d.count}};
  if (keep) j["samples_us"] = samples_us;
  return j;
}

// One all-to-all exchange: `k` writes of `bytes` to every peer, then "done" to each and wait for
// every peer's "done". Returns the time in µs. `ops` is reused storage.
double exchange(Transport& t, size_t bytes, int k, size_t data_bytes, uint64_t seq,
                double timeout_s, std::vector<Op>& ops) {
  const int n = t.nranks(), me = t.rank();
  const size_t slot = bytes * static_cast<size_t>(k);
  const size_t src = slot * static_cast<size_t>(n);  // my source region, never a write target
  std::vector<Op> done_recv(static_cast<size_t>(n)), done_send(static_cast<size_t>(n));
  ops.assign(static_cast<size_t>((n - 1) * k), Op{});
  for (int p = 0; p < n; ++p)
    if (p != me)
      t.post_recv(p, tag(kDone, seq), recv_slot(data_bytes, n, p), kCtrlBytes,
                  done_recv[static_cast<size_t>(p)]);
  auto t0 = Clock::now();
  size_t w = 0;
  for (int d = 1; d < n; ++d) {  // start with the next rank so that peers' targets are spread
    int p = (me + d) % n;
    for (int i = 0; i < k; ++i, ++w)
      t.post_write(p, static_cast<int>(w % static_cast<size_t>(t.endpoints())),
                   src + bytes * static_cast<size_t>(i),
                   slot * static_cast<size_t>(me) + bytes * static_cast<size_t>(i), bytes, ops[w]);
  }
  t.wait_all(ops, timeout_s, "waiting for scatter writes to complete");
  for (int p = 0; p < n; ++p)
    if (p != me)
      t.post_send(p, tag(kDone, seq), send_slot(data_bytes, p), kCtrlBytes,
                  done_send[static_cast<size_t>(p)]);
  std::vector<Op*> wait;
  for (int p = 0; p < n; ++p)
    if (p != me) {
      wait.push_back(&done_recv[static_cast<size_t>(p)]);
      wait.push_back(&done_send[static_cast<size_t>(p)]);
    }
  t.wait_ptrs(wait, timeout_s, "waiting for peers to finish their scatter writes");
  return us_since(t0);
}

// Data region of the scatter/a2a probes: one slot of k·max_msg per rank (where that rank writes)
// plus the local source slot.
size_t scatter_data_bytes(size_t max_msg_bytes, int k, int nranks) {
  return max_msg_bytes * static_cast<size_t>(k) * static_cast<size_t>(nranks + 1);
}

}  // namespace

std::vector<size_t> sweep_sizes(const SweepOptions& o) {
  std::vector<size_t> out;
  double f = std::max(o.factor, 1.01);
  for (double s = static_cast<double>(std::max<size_t>(o.min_bytes, 1));
       s <= static_cast<double>(o.max_bytes); s *= f) {
    auto b = static_cast<size_t>(std::llround(s));
    if (out.empty() || b != out.back()) out.push_back(b);
  }
  if (out.empty() || out.back() != o.max_bytes) out.push_back(o.max_bytes);
  return out;
}

int iterations_for(const SweepOptions& o, size_t bytes) {
  double n = o.budget_bytes / static_cast<double>(std::max<size_t>(bytes, 1));
  return static_cast<int>(
      std::clamp(n, static_cast<double>(o.min_iters), static_cast<double>(o.iters)));
}

size_t pingpong_buffer_bytes(const SweepOptions& o, int nranks) {
  return 2 * o.max_bytes + ctrl_bytes(nranks);
}
size_t bandwidth_buffer_bytes(const SweepOptions& o, int nranks) {
  return o.max_bytes + ctrl_bytes(nranks);
}
size_t scatter_buffer_bytes(size_t max_msg_bytes, int msgs_per_peer, int nranks) {
  return scatter_data_bytes(max_msg_bytes, msgs_per_peer, nranks) + ctrl_bytes(nranks);
}

void run_pingpong(Transport& t, const SweepOptions& o, nlohmann::json& results,
                  const RowCallback& on_row) {
  const size_t recv_off = o.max_bytes;
  uint64_t seq = 0;
  for (size_t bytes : sweep_sizes(o)) {
    const int n = o.warmup + iterations_for(o, bytes);
    std::vector<double> rtt_us;
    if (t.rank() == 0) {
      for (int i = 0; i < n; ++i, ++seq) {
        Op r, s;
        t.post_recv(1, tag(kPing, seq), recv_off, bytes, r);
        auto t0 = Clock::now();
        t.post_send(1, tag(kPing, seq), 0, bytes, s);
        t.wait(s, o.timeout_s, "sending a ping of " + std::to_string(bytes) + " B");
        t.wait(r, o.timeout_s, "waiting for the pong of " + std::to_string(bytes) + " B");
        if (i >= o.warmup) rtt_us.push_back(us_since(t0));
      }
    } else if (t.rank() == 1) {
      std::vector<Op> r(2);
      t.post_recv(0, tag(kPing, seq), recv_off, bytes, r[0]);
      Clock::time_point prev{};
      for (int i = 0; i < n; ++i, ++seq) {
        Op& cur = r[static_cast<size_t>(i % 2)];
        t.wait(cur, o.timeout_s, "waiting for the ping of " + std::to_string(bytes) + " B");
        auto now = Clock::now();
        if (i > o.warmup)
          rtt_us.push_back(std::chrono::duration<double, std::micro>(now - prev).count());
        prev = now;
        if (i + 1 < n)
          t.post_recv(0, tag(kPing, seq + 1), recv_off, bytes, r[static_cast<size_t>((i + 1) % 2)]);
        Op s;
        t.post_send(0, tag(kPing, seq), 0, bytes, s);
        t.wait(s, o.timeout_s, "sending the pong of " + std::to_string(bytes) + " B");
      }
    } else {
      continue;
    }
    std::vector<double> one_way;
    for (double x : rtt_us) one_way.push_back(x / 2);
    nlohmann::json row = {{"bytes", bytes}};
    row.update(quantiles_us(one_way, o.keep_samples));
    results.push_back(row);
    on_row();
  }
}

void run_bandwidth(Transport& t, const SweepOptions& o, int window, nlohmann::json& results,
                   const RowCallback& on_row) {
  const size_t data = o.max_bytes;
  const int n = t.nranks();
  uint64_t seq = 0;
  for (size_t bytes : sweep_sizes(o)) {
    const int writes = iterations_for(o, bytes);
    const std::string what = " (" + std::to_string(bytes) + " B writes)";
    Op go, fin, ack, s1, s2;
    double us = 0;
    if (t.rank() == 0) {
      t.post_recv(1, tag(kGo, seq), recv_slot(data, n, 1), kCtrlBytes, go);
      t.wait(go, o.timeout_s, "waiting for the target's go" + what);
      std::vector<Op> ops(static_cast<size_t>(std::min(window, writes)));
      auto t0 = Clock::now();
      for (int i = 0; i < writes; ++i) {
        Op& op = ops[static_cast<size_t>(i) % ops.size()];
        if (i >= static_cast<int>(ops.size()))
          t.wait(op, o.timeout_s, "waiting for a write" + what);
        t.post_write(1, i % t.endpoints(), 0, 0, bytes, op);
      }
      t.wait_all(ops, o.timeout_s, "waiting for the last writes" + what);
      t.post_recv(1, tag(kAck, seq), recv_slot(data, n, 1), kCtrlBytes, ack);
      t.post_send(1, tag(kFin, seq), send_slot(data, 1), kCtrlBytes, s1);
      t.wait(s1, o.timeout_s, "sending fin" + what);
      t.wait(ack, o.timeout_s, "waiting for the target's acknowledgement" + what);
      us = us_since(t0);
    } else if (t.rank() == 1) {
      t.post_recv(0, tag(kFin, seq), recv_slot(data, n, 0), kCtrlBytes, fin);
      auto t0 = Clock::now();
      t.post_send(0, tag(kGo, seq), send_slot(data, 0), kCtrlBytes, s1);
      t.wait(s1, o.timeout_s, "sending go" + what);
      t.wait(fin, o.timeout_s, "waiting for the writer's fin" + what);
      us = us_since(t0);
      t.post_send(0, tag(kAck, seq), send_slot(data, 0), kCtrlBytes, s2);
      t.wait(s2, o.timeout_s, "sending the acknowledgement" + what);
    } else {
      continue;
    }
    ++seq;
    double total = static_cast<double>(bytes) * writes;
    results.push_back({{"bytes", bytes},
                       {"GBps", total / (us * 1e3)},
                       {"msg_rate_mpps", writes / us},
                       {"writes", writes},
                       {"window", window},
                       {"endpoints", t.endpoints()},
                       {"time_us", us}});
    on_row();
  }
}

void run_scatter(Transport& t, const SweepOptions& o, int msgs_per_peer, nlohmann::json& results,
                 const RowCallback& on_row) {
  const int n = t.nranks();
  const size_t data = scatter_data_bytes(o.max_bytes, msgs_per_peer, n);
  uint64_t seq = 0;
  std::vector<Op> ops;
  for (size_t bytes : sweep_sizes(o)) {
    const int iters =
        o.warmup + iterations_for(o, bytes * static_cast<size_t>(msgs_per_peer * (n - 1)));
    std::vector<double> us;
    for (int i = 0; i < iters; ++i, ++seq) {
      double x = exchange(t, bytes, msgs_per_peer, data, seq, o.timeout_s, ops);
      if (i >= o.warmup) us.push_back(x);
    }
    nlohmann::json row = {{"bytes", bytes}, {"msgs_per_peer", msgs_per_peer}, {"peers", n - 1}};
    row.update(quantiles_us(us, o.keep_samples));
    // Bytes this rank sent per exchange over the median exchange time.
    row["GBps"] =
        static_cast<double>(bytes) * msgs_per_peer * (n - 1) / (row["p50_us"].get<double>() * 1e3);
    results.push_back(row);
    on_row();
  }
}

void run_a2a_loop(Transport& t, const A2aLoopOptions& o, nlohmann::json& results,
                  const RowCallback& on_row) {
  const int n = t.nranks();
  const size_t data =
      scatter_data_bytes(std::max(o.dispatch_bytes, o.combine_bytes), o.msgs_per_peer, n);
  std::vector<double> dispatch_us, combine_us, forward_us;
  std::vector<Op> ops;
  uint64_t seq = 0;
  for (int f = 0; f < o.warmup_forwards + o.forwards; ++f) {
    const bool timed = f >= o.warmup_forwards;
    double fwd = 0;
    for (int l = 0; l < o.layers; ++l) {
      double d = exchange(t, o.dispatch_bytes, o.msgs_per_peer, data, seq++, o.timeout_s, ops);
      double c = exchange(t, o.combine_bytes, o.msgs_per_peer, data, seq++, o.timeout_s, ops);
      fwd += d + c;
      if (timed) {
        dispatch_us.push_back(d);
        combine_us.push_back(c);
      }
    }
    if (!timed) continue;
    forward_us.push_back(fwd);
    auto row = [&](const char* phase, size_t bytes, const std::vector<double>& v) {
      nlohmann::json r = {{"phase", phase}, {"peers", n - 1}, {"msgs_per_peer", o.msgs_per_peer}};
      if (bytes > 0) r["bytes"] = bytes;
      r.update(quantiles_us(v, o.keep_samples));
      return r;
    };
    nlohmann::json fw = row("forward", 0, forward_us);
    fw["layers"] = o.layers;
    results = nlohmann::json::array({row("dispatch", o.dispatch_bytes, dispatch_us),
                                     row("combine", o.combine_bytes, combine_us), fw});
    on_row();
  }
}

double measure_memcpy_GBps(size_t bytes) {
  std::vector<char> a(bytes, 1), b(bytes, 2);
  double best = 0;
  // Best of 20: a floor for transfer times must not be depressed by one copy that another
  // process slowed down.
  for (int i = 0; i < 20; ++i) {
    auto t0 = Clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    double us = us_since(t0);
    // Read back one byte so the copy cannot be elided.
    if (b[bytes / 2] != 1) return 0;
    best = std::max(best, static_cast<double>(bytes) / (us * 1e3));
    a[0] = static_cast<char>(i);
  }
  return best;
}

}  // namespace pdsim::pdcal
