// The `--timings` table (report.h, emit_timings) and the kinds' names (linter.h).
#include <fmt/format.h>
#include <onnxlint/report.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace onnxlint {

std::string_view timing_kind_name(TimingEntry::Kind kind) {
  switch (kind) {
    case TimingEntry::Kind::Phase:
      return "phase";
    case TimingEntry::Kind::Analysis:
      return "analysis";
    case TimingEntry::Kind::Rule:
      return "rule";
  }
  return "?";
}

void emit_timings(const Report& report, std::ostream& out, const std::vector<TimingEntry>& extra) {
  std::map<std::pair<TimingEntry::Kind, std::string>, TimingEntry> sums;
  size_t files = 0;
  auto add = [&](const TimingEntry& t) {
    TimingEntry& sum = sums[{t.kind, t.name}];
    sum.kind = t.kind;
    sum.name = t.name;
    sum.nanoseconds += t.nanoseconds;
    sum.calls += t.calls;
  };
  for (const FileReport& f : report.files) {
    if (f.timings.empty()) continue;
    ++files;
    for (const TimingEntry& t : f.timings) add(t);
  }
  if (files == 0) return;
  for (const TimingEntry& t : extra) add(t);
  std::vector<TimingEntry> rows;
  uint64_t total = 0;
  for (auto& [key, t] : sums) {
    total += t.nanoseconds;
    rows.push_back(std::move(t));
  }
  // Slowest first; ties by kind and name, so that the table is stable.
  std::sort(rows.begin(), rows.end(), [](const TimingEntry& a, const TimingEntry& b) {
    if (a.nanoseconds != b.nanoseconds) return a.nanoseconds > b.nanoseconds;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.name < b.name;
  });
  size_t width = 4;
  for (const TimingEntry& t : rows)
    width = std::max(width, timing_kind_name(t.kind).size() + 1 + t.name.size());
  out << fmt::format("onnx-lint timings: {} file{}, {:.1f} ms measured (self times)\n", files,
                     files == 1 ? "" : "s", static_cast<double>(total) / 1e6);
  out << fmt::format("{:<{}}  {:>10}  {:>6}  {:>9}\n", "what", width, "time (ms)", "share",
                     "calls");
  for (const TimingEntry& t : rows) {
    const std::string what = fmt::format("{} {}", timing_kind_name(t.kind), t.name);
    const double share =
        total == 0 ? 0.0 : 100.0 * static_cast<double>(t.nanoseconds) / static_cast<double>(total);
    out << fmt::format("{:<{}}  {:>10.3f}  {:>5.1f}%  {:>9}\n", what, width,
                       static_cast<double>(t.nanoseconds) / 1e6, share, t.calls);
  }
}

}  // namespace onnxlint
