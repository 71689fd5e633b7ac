// Shell completions (bash, zsh, fish) and the man page, generated from the CLI11 definition of
// the command (`onnx-lint --generate KIND`): nothing about an option is written twice.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace onnxlint {

/// What --generate accepts: completion-bash, completion-zsh, completion-fish, man.
extern const std::vector<std::string> kGenerateKinds;

/// Values an option's value completes to, by the option's type name ("FILE", "TARGET", "RULE",
/// "SELECTOR"; see cli.cc): the lists that do not come from the option definitions themselves.
struct CompletionValues {
  std::vector<std::string> rules;      // rule ids
  std::vector<std::string> selectors;  // rule ids, categories and ALL
  std::vector<std::string> targets;    // target ids
  std::string version;                 // for the man page header
};

/// Writes the completion script or man page `kind` for `app` to `out`.
void generate(std::string_view kind, CLI::App& app, const CompletionValues& values,
              std::ostream& out);

}  // namespace onnxlint
