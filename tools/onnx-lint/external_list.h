// `onnx-lint --list-external-data`: the external-data files each model refers to, for the git
// hooks (tools/git-hooks), which check that every one is committed with its model.
#pragma once

#include <onnxlint/linter.h>

#include <iosfwd>
#include <vector>

namespace onnxlint {

/// Writes "MODEL\0FILE\0" for every distinct external-data file of each model in `inputs`, in
/// order; FILE is the `location` joined to the model's folder (as the loader resolves it).
/// Models that cannot be read and "-" list nothing (linting reports them). Returns whether
/// every input was a model file (false: a path error, named on stderr).
bool list_external_data(const std::vector<InputPath>& inputs, std::ostream& out);

}  // namespace onnxlint
