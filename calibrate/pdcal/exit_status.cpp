#include "calibrate/pdcal/exit_status.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

#include "calibrate/pdcal/probe_error.hpp"
#include "sim/core/error.hpp"

namespace pdsim::pdcal {
namespace {

const char* g_tool = "pdcal";

int report(int code, const std::string& what) noexcept {
  try {
    std::cerr << g_tool << ": " << what << "\n";
  } catch (...) {
    std::fputs("internal error while reporting an error\n", stderr);
  }
  return code;
}

// An exception thrown where none may be (a destructor, a noexcept function) still ends with the
// internal-error code and a message, not a core dump.
[[noreturn]] void on_terminate() noexcept {
  report(kExitInternal, "internal error (a bug): std::terminate called");
  std::_Exit(kExitInternal);
}

}  // namespace

int guarded_main(const char* tool, CLI::App& app, int argc, char** argv,
                 const std::function<int()>& run) noexcept {
  g_tool = tool;
  std::set_terminate(on_terminate);
  // A peer closing its socket must surface as an error from send(), not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      if (e.get_exit_code() == 0) return app.exit(e);  // --help: CLI11 prints it
      return report(kExitBadInput, std::string(e.what()) + " (--help lists the options)");
    }
    return run();
  } catch (const PeerMessageError& e) {
    return report(kExitBadInput, e.what());
  } catch (const ProbeError& e) {
    return report(kExitInfeasible, e.what());
  } catch (const InputError& e) {
    return report(kExitBadInput, e.what());
  } catch (const InfeasibleError& e) {
    return report(kExitInfeasible, e.what());
  } catch (const IoError& e) {
    return report(kExitIo, e.what());
  } catch (const std::bad_alloc&) {
    return report(kExitInternal, "internal error: out of memory (std::bad_alloc)");
  } catch (const std::exception& e) {
    return report(kExitInternal, std::string("internal error (a bug): ") + e.what());
  } catch (...) {
    return report(kExitInternal, "internal error (a bug): unknown exception");
  }
}

}  // namespace pdsim::pdcal
