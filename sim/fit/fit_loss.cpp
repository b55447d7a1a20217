#include "sim/fit/fit_loss.hpp"

#include <cmath>
#include <sstream>

#include "sim/core/error.hpp"

namespace pdsim {

FitLoss FitLoss::parse(const std::string& name, double scale) {
  FitLoss l;
  if (name == "l2") {
    l.kind = LossKind::l2;
  } else if (name == "huber") {
    l.kind = LossKind::huber;
  } else if (name == "cauchy") {
    l.kind = LossKind::cauchy;
  } else {
    throw InputError("--loss", name, "one of l2, huber, cauchy");
  }
  if (!(scale > 0 && scale <= 10))
    throw InputError("--loss-scale", "",
                     "a scale in log-ratio units in (0, 10] (0.1: a 10 % miss)");
  l.scale = scale;
  return l;
}

std::string FitLoss::name() const {
  switch (kind) {
    case LossKind::huber:
      return "huber";
    case LossKind::cauchy:
      return "cauchy";
    case LossKind::l2:
      break;
  }
  return "l2";
}

double FitLoss::rho(double r) const {
  const double c = scale;
  switch (kind) {
    case LossKind::huber:
      return std::abs(r) <= c ? r * r : 2 * c * std::abs(r) - c * c;
    case LossKind::cauchy:
      return c * c * std::log1p((r / c) * (r / c));
    case LossKind::l2:
      break;
  }
  return r * r;
}

double FitLoss::total(const std::vector<Residual>& rs) const {
  if (kind == LossKind::l2) return sum_of_squares(rs);
  double s = 0;
  for (const auto& r : rs) s += rho(r.log_ratio);
  return s;
}

std::string FitLoss::label() const {
  if (kind == LossKind::l2) return "sum of squared log errors";
  return name() + " loss (scale " + scale_text() + ")";
}

std::string FitLoss::scale_text() const {
  std::ostringstream s;
  s << scale;
  return s.str();
}

}  // namespace pdsim
