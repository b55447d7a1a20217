#include "models/op_cost.hpp"

namespace pdsim {

void StepCost::append(const StepCost& other, double times) {
  for (OpCost op : other.ops) {
    op.count *= times;
    ops.push_back(std::move(op));
  }
}

double StepCost::total_us() const {
  double t = 0;
  for (const auto& op : ops) t += op.time_us * op.count;
  return t;
}

double StepCost::category_us(const std::string& category) const {
  double t = 0;
  for (const auto& op : ops)
    if (op.category == category) t += op.time_us * op.count;
  return t;
}

double StepCost::total_flops() const {
  double f = 0;
  for (const auto& op : ops) f += op.flops * op.count;
  return f;
}

double StepCost::total_bytes() const {
  double b = 0;
  for (const auto& op : ops) b += op.bytes * op.count;
  return b;
}

bool StepCost::any_out_of_range() const {
  for (const auto& op : ops)
    if (op.out_of_range) return true;
  return false;
}

}  // namespace pdsim
