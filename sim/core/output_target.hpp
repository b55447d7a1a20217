#pragma once
// Checks on a file a command will write, made before the work that produces it (a fit, a sweep):
// that it does not name one of the command's inputs, and that it can be written at all.
#include <string>
#include <vector>

namespace pdsim {

// Whether two paths name one file (after symbolic links and `..`; a path that does not exist yet
// is compared as written, normalised).
bool same_file(const std::string& a, const std::string& b);

// InputError (file = `flag`) when `path` names one of `inputs`, or exists as anything but a
// regular file, or its nearest existing folder is not a directory; IoError when that folder is
// not writable.
void check_output_file(const std::string& flag, const std::string& path,
                       const std::vector<std::string>& inputs);

}  // namespace pdsim
