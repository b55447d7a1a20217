#include "models/op_cost.hpp"

#include <algorithm>

namespace pdsim {

namespace {
// Room for `more` ops, growing geometrically (an exact reserve per append would reallocate on
// every append of a few ops).
void make_room(std::vector<OpCost>& ops, size_t more) {
  const size_t need = ops.size() + more;
  if (need > ops.capacity()) ops.reserve(std::max(need, 2 * ops.capacity()));
}
}  // namespace

void StepCost::append(const StepCost& other, double times) {
  make_room(ops, other.ops.size());
  for (OpCost op : other.ops) {  // a plain value (literal names): copying is moving
    op.count *= times;
    ops.push_back(op);
  }
}

double StepCost::total_us() const {
  double t = 0;
  for (const auto& op : ops) t += op.time_us * op.count;
  return t;
}

double StepCost::category_us(std::string_view category) const {
  double t = 0;
  for (const auto& op : ops)
    if (op.category == category) t += op.time_us * op.count;
  return t;
}

}  // namespace pdsim
