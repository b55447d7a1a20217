#include "sim/fit/fit_quality.hpp"

#include <cmath>
#include <cstdio>

#include "sim/fit/loo_interval.hpp"

namespace pdsim {
namespace {

std::string num(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string pct(double v) {
  return (v >= 0 ? "+" : "") + num(v, 1) + " %";
}

}  // namespace

std::vector<FitWarning> fit_quality_warnings(const ValidationSet& set,
                                             const std::vector<FitParameter>& params,
                                             const std::vector<double>& theta,
                                             const ParameterUncertainty& uncertainty,
                                             const std::vector<Residual>& residuals,
                                             const std::vector<LeaveOneOut>& loo) {
  std::vector<FitWarning> out;
  for (const auto& res : residuals) {
    const double err = (res.predicted / res.measured - 1) * 100;
    if (std::fabs(err) > kPoorFitPct)
      out.push_back({"poor_fit", set.runs[res.run].name + " " + res.metric + " is off by " +
                                     pct(err) + " after the fit (more than " + num(kPoorFitPct, 0) +
                                     " %): the fitted mechanisms do not produce this run"});
  }
  for (size_t j = 0; j < params.size(); ++j) {
    const auto& p = params[j];
    const double v = theta[j];
    const double se = j < uncertainty.se.size() ? uncertainty.se[j] : NAN;
    if (!std::isfinite(se))
      out.push_back({"undetermined_parameter",
                     p.path + " has no standard error (fewer compared metrics than parameters, "
                              "or a flat direction at the optimum)"});
    else if (se >= std::fabs(v))
      out.push_back({"uncertain_parameter", p.path + " = " + num(v, 4) + " +/- " + num(se, 4) +
                                                ": the standard error is at least the value; "
                                                "the runs do not tell it from zero"});
    const double tol = 1e-3 * (p.hi - p.lo);
    if (v - p.lo < tol || p.hi - v < tol)
      out.push_back({"at_bound", p.path + " = " + num(v, 4) + " is on the end of its range [" +
                                     num(p.lo, 4) + ", " + num(p.hi, 4) +
                                     "]: the optimum may lie outside it"});
  }
  for (const auto& l : loo)
    for (size_t i = 0; i < l.residuals.size() && i < l.spread.size(); ++i) {
      const LooSpread& sp = l.spread[i];
      if (!std::isfinite(sp.sigma)) continue;
      const auto& res = l.residuals[i];
      const std::string what = set.runs[res.run].name + " " + res.metric;
      const auto iv = sp.error_pct_90(res.predicted, res.measured);
      const std::string range = "[" + pct(iv[0]) + ", " + pct(iv[1]) + "]";
      if (!sp.inside_90(res.log_ratio))
        out.push_back({"loo_outside", "left out, " + what + " is off by " +
                                          pct((res.predicted / res.measured - 1) * 100) +
                                          ", outside its 90 % interval " + range});
      if (kZ90 * sp.sigma > std::log(kWideFactor))
        out.push_back({"loo_wide", "left out, " + what + " has a 90 % interval of " + range +
                                       ": the other runs do not constrain it"});
    }
  return out;
}

}  // namespace pdsim
