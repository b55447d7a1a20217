#include "sim/packet/event_list.hpp"

namespace pdsim::packet {

void EventList::Fifo::push(const Event& e) {
  if (size == ring.size()) {  // grow, unwrapping the ring
    std::vector<Event> bigger(ring.empty() ? 64 : 2 * ring.size());
    for (size_t i = 0; i < size; ++i) bigger[i] = ring[(head + i) & (ring.size() - 1)];
    ring.swap(bigger);
    head = 0;
  }
  ring[(head + size) & (ring.size() - 1)] = e;
  ++size;
}

void EventList::schedule(Picoseconds at, EventHandler* h, int kind, Packet* pkt) {
  heap_.push_back(Event{at < now_ ? now_ : at, seq_++, h, pkt, kind});
  sift_up(heap_.size() - 1);
}

void EventList::schedule_in(Picoseconds delay, EventHandler* h, int kind, Packet* pkt) {
  if (delay < 0) delay = 0;
  for (Fifo& f : fifos_) {
    if (f.delay == delay) return f.push(Event{now_ + delay, seq_++, h, pkt, kind});
  }
  if (fifos_.size() < kMaxFifos) {
    fifos_.push_back(Fifo{delay, {}, 0, 0});
    return fifos_.back().push(Event{now_ + delay, seq_++, h, pkt, kind});
  }
  schedule(now_ + delay, h, kind, pkt);
}

void EventList::sift_up(size_t i) {
  Event e = heap_[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!later(heap_[parent], e)) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void EventList::sift_down(size_t i) {
  const size_t n = heap_.size();
  Event e = heap_[i];
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && later(heap_[child], heap_[child + 1])) ++child;
    if (!later(e, heap_[child])) break;
    heap_[i] = heap_[child];
    i = child;
  }
  heap_[i] = e;
}

void EventList::pop_heap_top() {
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
}

void EventList::run(Picoseconds until) {
  stopped_ = false;
  while (!stopped_) {
    // The earliest of the heap top and the FIFO fronts; `fifo` = -1 means the heap.
    const Event* best = heap_.empty() ? nullptr : &heap_.front();
    int fifo = -1;
    for (size_t i = 0; i < fifos_.size(); ++i) {
      const Fifo& f = fifos_[i];
      if (f.size == 0) continue;
      const Event& e = f.ring[f.head];
      if (!best || later(*best, e)) {
        best = &e;
        fifo = static_cast<int>(i);
      }
    }
    if (!best || best->at > until) break;
    const Event e = *best;
    if (fifo < 0) {
      pop_heap_top();
    } else {
      Fifo& f = fifos_[static_cast<size_t>(fifo)];
      f.head = (f.head + 1) & (f.ring.size() - 1);
      --f.size;
      // A FIFO's next events are known: fetch their packet and handler before they are due,
      // since most of the engine's time is otherwise spent waiting on those cache misses.
      if (f.size > kPrefetchAhead) {
        const Event& ahead = f.ring[(f.head + kPrefetchAhead) & (f.ring.size() - 1)];
        __builtin_prefetch(ahead.pkt);
        __builtin_prefetch(ahead.handler);
      }
    }
    now_ = e.at;
    ++events_run_;
    e.handler->handle_event(e.kind, e.pkt);
  }
}

}  // namespace pdsim::packet
