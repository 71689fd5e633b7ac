// Crash isolation: lint each file in a worker process, so that a fatal signal while linting one
// file (a bug in a rule or an analysis, out of memory) becomes that file's `internal-error`
// finding and every other file's report is complete (docs/security.md, "Crash isolation").
// LintOptions::isolate turns it on for Linter::lint_paths / lint_inputs.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/linter.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace ONNXLINT_API onnxlint {

/// The onnx-lint command's exit code when the process itself met a fatal signal (a crash
/// outside isolation): install_crash_handler() exits with it instead of dying by the signal.
inline constexpr int kExitCrash = 3;

/// The test-only switch: `ONNXLINT_TEST_CRASH_RULE=<rule-id>[:<how>[:<path part>]]` makes that
/// rule crash on its first callback, on the files whose path holds <path part> (every file
/// without it); `@loading` or `@summary` instead of a rule id crash in that phase. <how>: abort
/// (default), segv, bus, fpe, ill, kill (SIGKILL, as the out-of-memory killer sends), stack (a
/// real stack overflow), oom (allocates until operator new fails), orphan (segv after starting a
/// process that holds the worker's socket for 20 s), throw (an exception), hang (an endless
/// busy loop), stuck (a read that never returns), hang-fork (starts a process named
/// "onnxlint-hang" that sleeps forever, then hangs): the hangs are for LintOptions::
/// file_time_limit. Inert unless set; never set it outside tests.
inline constexpr const char* kTestCrashVariable = "ONNXLINT_TEST_CRASH_RULE";

/// LintOptions::file_time_limit from a number of seconds, as `--file-timeout` and Python's
/// `file_timeout=` take it: 0 is no limit, a positive value under a millisecond stays a limit
/// (1 ms); nullopt for what is not from 0 to 1e7 (negative, NaN, infinite).
std::optional<std::chrono::milliseconds> file_time_limit_from_seconds(double seconds);

/// Linter::lint_bytes in a worker process: a crash while linting gives the internal-error
/// report instead of ending the caller (the Python module's `isolate=True` for buffers); so
/// does a lint that takes longer than the linter's file_time_limit.
FileReport lint_bytes_isolated(const Linter& linter, const std::string& name,
                               std::string_view bytes,
                               std::optional<std::string> directory = std::nullopt);

/// For programs, not libraries' hosts: handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT
/// (on an alternate stack, so a stack overflow is caught too) that print, with write(2) only,
/// "onnx-lint: internal error while running rule '<id>' on <file> (SIGSEGV)" (or loading it,
/// computing an analysis, ...) and exit with kExitCrash.
void install_crash_handler();

/// The byte encoding a worker sends its report in: everything the emitters read (findings with
/// locations, notes and related places, the model summary, sections, status, counts). For one
/// build of the library (not a stable file format). decode_file_report returns nullopt for
/// bytes it cannot read.
std::string encode_file_report(const FileReport& report);
std::optional<FileReport> decode_file_report(std::string_view bytes);

}  // namespace onnxlint
