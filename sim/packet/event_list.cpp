#include "sim/packet/event_list.hpp"

namespace pdsim::packet {

void EventList::schedule(Picoseconds at, EventHandler* h, int kind, Packet* pkt) {
  heap_.push_back(Event{at < now_ ? now_ : at, seq_++, h, pkt, kind});
  sift_up(heap_.size() - 1);
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

void EventList::run(Picoseconds until) {
  stopped_ = false;
  while (!heap_.empty() && !stopped_) {
    Event e = heap_.front();
    if (e.at > until) break;
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    now_ = e.at;
    ++events_run_;
    e.handler->handle_event(e.kind, e.pkt);
  }
}

}  // namespace pdsim::packet
