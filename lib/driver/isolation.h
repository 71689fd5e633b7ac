// Crash isolation inside the engine: what the driver publishes while it lints (the phase, the
// rule, the analysis, the file), the worker processes of an isolated run, and the test-only
// crash switch. The public side is <onnxlint/isolation.h>; the design is in docs/security.md
// ("Crash isolation").
#pragma once

#include <onnxlint/isolation.h>
#include <onnxlint/linter.h>
#include <onnxlint/rule.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace onnxlint::isolation {

/// What a lint is doing, as a crash report names it.
enum class Phase : uint32_t {
  Idle = 0,  ///< between files (or not linting)
  Loading,   ///< reading the model (load_model)
  Rule,      ///< constructing or running `rule`
  Analysis,  ///< computing `analysis` (for `rule`, or for the model summary when no rule)
  Summary,   ///< the model summary of the report (its output dims run the analysis)
  Findings,  ///< suppressions, caps and sorting of the findings
  Sending,   ///< a worker encoding and sending its report
};

/// Published before each phase: in a worker it lives in a page shared with the parent (which
/// reads it once the worker died); in-process it is the thread's own, which the crash handler
/// reads. Plain stores only (a rule switch is one pointer store per callback).
struct CrashRecord {
  static constexpr size_t kNameBytes = 64;
  static constexpr size_t kFileBytes = 1024;
  std::atomic<uint32_t> phase{0};
  /// The rule running; in a worker the parent accepts it only if it is one of its registry's.
  std::atomic<const RuleInfo*> rule{nullptr};
  char analysis[kNameBytes] = {};  ///< unqualified class name ("Provenance"), NUL-terminated
  char file[kFileBytes] = {};      ///< the file's path, made visible, cut, NUL-terminated
};
static_assert(std::atomic<uint32_t>::is_always_lock_free &&
              std::atomic<const RuleInfo*>::is_always_lock_free);

void reset(CrashRecord& r);

/// The calling thread's record (its own, or the shared page in a worker).
CrashRecord& current_record();

/// Starts a file: its name, no rule, phase Loading.
void begin_file(std::string_view path);
inline void set_phase(CrashRecord& r, Phase p) {
  r.phase.store(uint32_t(p), std::memory_order_relaxed);
}
inline void set_rule(CrashRecord& r, const RuleInfo* info) {
  r.rule.store(info, std::memory_order_relaxed);
  r.phase.store(uint32_t(Phase::Rule), std::memory_order_relaxed);
}

/// Enters a phase that no rule runs in (the summary, the findings, idle).
void enter_phase(CrashRecord& r, Phase p);

/// An alternate signal stack for the calling thread while it lives, when install_crash_handler()
/// was called (a stack overflow in a --jobs thread then still reaches the handler).
class ThreadSignalStack {
 public:
  ThreadSignalStack();
  ~ThreadSignalStack();
  ThreadSignalStack(const ThreadSignalStack&) = delete;
  ThreadSignalStack& operator=(const ThreadSignalStack&) = delete;

 private:
  void* stack_ = nullptr;
};

/// "running rule 'x'", "loading the model", "computing the analysis 'Provenance' for rule
/// 'x'": what `phase`/`rule`/`analysis` say, in words. `rule` may be null.
std::string describe_phase(Phase phase, const RuleInfo* rule, std::string_view analysis);

/// Linter::lint_file that never throws: an exception escaping it (out of memory while loading
/// or summarizing) becomes the file's internal-error finding, naming the phase.
FileReport lint_file_guarded(const Linter& linter, const std::string& path);

/// The report of a file whose lint failed: status Ok, no model summary, one internal-error
/// finding "<what> while <phase>" (`what`: "onnx-lint crashed with SIGSEGV (...)").
FileReport failure_report(const std::string& path, std::string_view what, Phase phase,
                          const RuleInfo* rule, std::string_view analysis);

/// Runs `count` jobs, each in a worker process (up to `workers` at once; a worker runs one job
/// at a time and lints the next after it), and returns their reports in job order. A worker that
/// dies (a signal, killed, an unexpected exit) makes its job's report the internal-error
/// finding that `path_of(job)` names, and is replaced. A worker still without an answer
/// `time_limit` after it was handed its job (zero or less: no limit) is killed with every process
/// of its process group and its job's report says it timed out, in the phase its record holds.
/// `registry` names the rules of the dead workers' records. `progress(done, count)` runs in the
/// caller's thread.
std::vector<FileReport> run_in_workers(size_t count, size_t workers,
                                       const std::function<FileReport(size_t)>& job,
                                       const std::function<std::string(size_t)>& path_of,
                                       const RuleRegistry& registry,
                                       std::chrono::milliseconds time_limit,
                                       const std::function<void(size_t, size_t)>& progress);

/// "1", "0.5", "300": a time limit in seconds, for messages.
std::string seconds_text(std::chrono::milliseconds limit);

/// Linter::lint_inputs with every file linted in a worker process (LintOptions::isolate).
Report lint_inputs_isolated(const Linter& linter, const std::vector<InputPath>& inputs,
                            const std::function<void(size_t, size_t)>& progress);

/// `rule` itself, or, when ONNXLINT_TEST_CRASH_RULE names its id, a wrapper that crashes (or
/// hangs: `hang`, `stuck`, `hang-fork`) as the variable says on its first callback (tests only;
/// docs/security.md). The variable may name a
/// phase instead of a rule: `@loading` (begin_file) and `@summary` (enter_phase) crash there.
std::unique_ptr<Rule> wrap_for_test_crash(std::unique_ptr<Rule> rule);

/// The test switch for phases: crashes when ONNXLINT_TEST_CRASH_RULE names `phase` ("@loading",
/// "@summary") and `path` holds its path part.
void test_crash_in_phase(std::string_view phase, std::string_view path);

/// An exception's text for a finding: "out of memory" for std::bad_alloc, else what().
std::string exception_text(const std::exception& e);

}  // namespace onnxlint::isolation
