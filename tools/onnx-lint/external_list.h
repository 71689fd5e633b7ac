// `onnx-lint --list-external-data`: the external-data files each model refers to, for the git
// hooks (tools/git-hooks), which check that every one is committed with its model.
#pragma once

#include <onnxlint/linter.h>

#include <iosfwd>
#include <vector>

namespace onnxlint {

/// Writes "MODEL\0FILE\0" for every distinct external-data file of each model in `inputs`, in
/// order; FILE is the `location` joined to the model's folder (as the loader resolves it).
/// Models that cannot be read and "-" list nothing (linting reports them). A location holding
/// a NUL byte is named on stderr, not listed. Returns whether every input was a model file and
/// every location could be listed (false: the problem is named on stderr).
bool list_external_data(const std::vector<InputPath>& inputs, std::ostream& out);

}  // namespace onnxlint
