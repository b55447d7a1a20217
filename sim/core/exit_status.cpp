#include "sim/core/exit_status.hpp"

#include <exception>
#include <filesystem>
#include <new>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {

namespace {
// The last guard against a message that quotes input whole (every echo site cuts its excerpt;
// this catches one that does not): a message is one readable line, not megabytes.
constexpr size_t kMaxMessageBytes = 4096;

ExitStatus capped(ExitStatus st) {
  if (st.message.size() > kMaxMessageBytes) st.message = excerpt(st.message, kMaxMessageBytes);
  return st;
}

ExitStatus classify() {
  try {
    throw;
  } catch (const InputError& e) {
    return {kExitBadInput, e.what()};
  } catch (const InfeasibleError& e) {
    return {kExitInfeasible, e.what()};
  } catch (const IoError& e) {
    return {kExitIo, e.what()};
  } catch (const PropagatedError& e) {
    return {e.code(), e.what()};
  } catch (const std::filesystem::filesystem_error& e) {
    return {kExitIo, e.what()};
  } catch (const std::bad_alloc&) {
    // Every size read from input is bounded, so running out of memory is the machine's limit or
    // a missing bound: either way not a crash.
    return {kExitInternal, "out of memory (a missing input bound is a bug: please report it)"};
  } catch (const std::exception& e) {
    return {kExitInternal, std::string("internal error (please report it): ") + e.what()};
  } catch (...) {
    return {kExitInternal, "internal error (please report it): unknown exception"};
  }
}

}  // namespace

ExitStatus classify_current_exception() {
  return capped(classify());
}

}  // namespace pdsim
