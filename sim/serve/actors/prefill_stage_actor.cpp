#include "sim/serve/actors/prefill_stage_actor.hpp"

#include <algorithm>
#include <string>

#include "sim/core/units.hpp"
#include "sim/serve/actors/kv_transfer_actor.hpp"

namespace pdsim {
namespace sg4 = simgrid::s4u;

Chunk PrefillStageActor::form_chunk(PrefillInstance& p) {
  // Under DP attention SGLang divides --chunked-prefill-size by dp_size (server_args.py,
  // _handle_data_parallelism) and each DP rank's scheduler chunks its own FIFO queue within that
  // share; the ranks then run the forward together. Without it, one budget for the instance.
  const int dp = w_.d.prefill_layout.attn_dp;
  const int size = w_.d.scenario.prefill.chunked_prefill_size;
  std::vector<int> budget(static_cast<size_t>(dp), std::max(1, size / dp));
  int left_total = std::max(1, size / dp) * dp;
  Chunk c;
  std::deque<int> keep;  // not finished this chunk, in queue order
  while (!p.queue.empty() && left_total > 0) {
    const int id = p.queue.front();
    p.queue.pop_front();
    Request& q = w_.request(id);
    int& b = budget[static_cast<size_t>(q.prefill_dp_rank)];
    if (b <= 0) {
      keep.push_back(id);
      continue;
    }
    if (q.rec.prefill_start_s < 0) q.rec.prefill_start_s = sg4::Engine::get_clock();
    const int left = q.spec.input_len - q.prefilled;
    const int take = std::min(left, b);
    c.pieces.push_back({id, {q.prefilled, take}, take == left, q.prefill_dp_rank});
    q.prefilled += take;
    b -= take;
    left_total -= take;
    if (take == left)
      ++p.taken;
    else
      keep.push_back(id);
  }
  p.queue.insert(p.queue.begin(), keep.begin(), keep.end());
  return c;
}

void PrefillStageActor::operator()() {
  PrefillInstance& p = *w_.prefill[static_cast<size_t>(pi_)];
  const int pp = w_.d.scenario.prefill.pp;
  const std::string prefix = "prefill" + std::to_string(pi_) + ".stage";
  sg4::Mailbox* in = stage_ > 0 ? sg4::Mailbox::by_name(prefix + std::to_string(stage_)) : nullptr;
  sg4::Mailbox* out =
      stage_ + 1 < pp ? sg4::Mailbox::by_name(prefix + std::to_string(stage_ + 1)) : nullptr;
  sg4::CommPtr pending;  // at most one activation send in flight to the next stage
  long pp_flow = -1;     // its handle in the flow tracker
  while (true) {
    Chunk* chunk = nullptr;
    if (stage_ == 0) {
      if (p.queue.empty() && more_to_come(p)) {
        std::unique_lock<sg4::Mutex> lk(*w_.mu);
        while (p.queue.empty() && more_to_come(p)) p.cv->wait(lk);
      }
      chunk = new Chunk(p.queue.empty() ? Chunk{{}, true} : form_chunk(p));
    } else {
      chunk = in->get<Chunk>();
    }
    if (!chunk->end) {
      std::vector<PrefillSegment> segs;
      std::vector<int> ranks;
      double new_tokens = 0;
      for (const auto& pc : chunk->pieces) {
        segs.push_back(pc.seg);
        ranks.push_back(pc.rank);
        new_tokens += pc.seg.new_tokens;
      }
      const ChunkCost c = timer_.time(stage_, segs, ranks);
      sg4::this_actor::sleep_for(us_to_s(c.total_us()));
      stats_.prefill_chunk(c);
      for (const auto& pc : chunk->pieces) {
        if (!pc.last) continue;
        if (stage_ == pp - 1) w_.request(pc.id).rec.prefill_end_s = sg4::Engine::get_clock();
        sg4::Actor::create("kv", w_.stage_host(pi_, stage_),
                           KvTransferActor(w_, timer_, stats_, pc.id, pi_, stage_));
      }
      if (out) {
        if (pending) pending->wait();
        const double act_bytes = new_tokens * w_.d.model.hidden * 2.0;  // BF16 hidden states
        if (pp_flow >= 0) w_.flows.erase(pp_flow);
        pending = out->put_async(chunk, static_cast<uint64_t>(act_bytes));
        const int from = w_.stage_node(pi_, stage_), to = w_.stage_node(pi_, stage_ + 1);
        pp_flow = from == to ? -1 : w_.flows.track(from, to, false, pending);
        continue;
      }
    } else if (out) {
      if (pending) pending->wait();
      out->put(chunk, 1);
      break;
    }
    const bool end = chunk->end;
    delete chunk;
    if (end) break;
  }
  if (pending) pending->wait();
  if (pp_flow >= 0) w_.flows.erase(pp_flow);
}

}  // namespace pdsim
