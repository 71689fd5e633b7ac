#include "driver/timings.h"

#include <utility>

namespace onnxlint::timing {
namespace {

thread_local Collector* installed = nullptr;

}  // namespace

uint32_t Collector::entry(TimingEntry::Kind kind, std::string_view name) {
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].kind == kind && entries_[i].name == name) return static_cast<uint32_t>(i);
  }
  TimingEntry& e = entries_.emplace_back();
  e.kind = kind;
  e.name = std::string(name);
  return static_cast<uint32_t>(entries_.size() - 1);
}

void Collector::pop() {
  const Frame f = stack_.back();
  stack_.pop_back();
  const uint64_t elapsed = now() - f.start;
  if (f.entry >= entries_.size()) return;  // taken (Session::finish) while the scope was open
  TimingEntry& e = entries_[f.entry];
  e.nanoseconds += elapsed > f.children ? elapsed - f.children : 0;
  ++e.calls;
  if (!stack_.empty()) stack_.back().children += elapsed;
}

Collector* current() { return installed; }

Session::Session(bool wanted) {
  if (wanted && installed == nullptr) {
    installed = &own_;
    installed_ = true;
  }
}

Session::~Session() {
  if (installed_) installed = nullptr;
}

FileReport Session::finish(FileReport report) {
  if (installed_) report.timings = own_.take();
  return report;
}

}  // namespace onnxlint::timing
