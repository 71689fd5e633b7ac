// Self-time measurement behind LintOptions::timings (`--timings`): a per-thread collector that
// phases, analyses (AnalysisScope) and rule callbacks report to. Without a collector every
// scope is a pointer test: lints that do not ask pay nothing else.
#pragma once

#include <onnxlint/linter.h>

#include <chrono>
#include <cstdint>
#include <string_view>
#include <vector>

namespace onnxlint::timing {

class Collector {
 public:
  /// The entry of (kind, name), added on first use. Linear in the entries (a few dozen), so
  /// callers on hot paths keep the index.
  uint32_t entry(TimingEntry::Kind kind, std::string_view name);
  void push(uint32_t entry) { stack_.push_back(Frame{entry, now(), 0}); }
  void pop();
  std::vector<TimingEntry> take() { return std::move(entries_); }

 private:
  static uint64_t now() {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
  }
  struct Frame {
    uint32_t entry;
    uint64_t start;
    uint64_t children;  // time of the scopes nested in this one
  };
  std::vector<TimingEntry> entries_;
  std::vector<Frame> stack_;
};

/// The calling thread's collector, or nullptr when no lint on it measures.
Collector* current();

/// Installs a collector for one file's lint when `wanted` and none is installed (lint_file
/// installs it before loading; the lint_model it calls then adds to it).
class Session {
 public:
  explicit Session(bool wanted);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  /// Moves the measurements into the report when this session installed the collector.
  FileReport finish(FileReport report);

 private:
  Collector own_;
  bool installed_ = false;
};

/// Measures its lifetime as `entry` (or by kind and name) of the current collector, if any.
class Scope {
 public:
  Scope(TimingEntry::Kind kind, std::string_view name) : collector_(current()) {
    if (collector_ != nullptr) collector_->push(collector_->entry(kind, name));
  }
  Scope(Collector* collector, uint32_t entry) : collector_(collector) {
    if (collector_ != nullptr) collector_->push(entry);
  }
  ~Scope() {
    if (collector_ != nullptr) collector_->pop();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Collector* collector_;
};

}  // namespace onnxlint::timing
