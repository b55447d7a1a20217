#pragma once
// EventList: the packet engine's kernel. Events run in (time, insertion sequence) order, so
// equal-time events keep the order in which they were scheduled and runs are deterministic.
// There is no global state: every component holds a reference to the EventList it belongs to.
//
// Most events are scheduled a fixed delay ahead (a link's propagation, one MTU's serialisation),
// and events with the same delay are born in time order, so each distinct delay gets a FIFO
// (htsim's trick) and only the rest go through a binary heap; the next event is the smallest
// (time, sequence) among the heap top and the FIFO fronts. The order is the same as one heap's.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/units.hpp"

namespace pdsim::packet {

struct Packet;

// Anything that receives events. `kind` and `pkt` are the handler's own tags.
class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void handle_event(int kind, Packet* pkt) = 0;
};

class EventList {
 public:
  Picoseconds now() const { return now_; }
  // Schedules at absolute time `at` (>= now).
  void schedule(Picoseconds at, EventHandler* h, int kind = 0, Packet* pkt = nullptr);
  void schedule_in(Picoseconds delay, EventHandler* h, int kind = 0, Packet* pkt = nullptr);
  // Runs events until none are left, time would pass `until`, or stop() is called.
  void run(Picoseconds until);
  void stop() { stopped_ = true; }
  uint64_t events_run() const { return events_run_; }

 private:
  struct Event {
    Picoseconds at;
    uint64_t seq;
    EventHandler* handler;
    Packet* pkt;
    int kind;
  };
  // Ring buffer of events that share one delay (hence are in (time, seq) order).
  struct Fifo {
    Picoseconds delay;
    std::vector<Event> ring;  // capacity a power of two
    size_t head = 0, size = 0;
    void push(const Event& e);
  };
  static constexpr size_t kMaxFifos = 16;
  static constexpr size_t kPrefetchAhead = 4;
  static bool later(const Event& a, const Event& b) {
    return a.at != b.at ? a.at > b.at : a.seq > b.seq;
  }
  void sift_up(size_t i);
  void sift_down(size_t i);
  void pop_heap_top();

  std::vector<Event> heap_;
  std::vector<Fifo> fifos_;
  Picoseconds now_ = 0;
  uint64_t seq_ = 0;
  uint64_t events_run_ = 0;
  bool stopped_ = false;
};

}  // namespace pdsim::packet
