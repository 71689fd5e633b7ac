#include <fmt/format.h>
#include <onnxlint/baseline.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "config/text_util.h"

namespace onnxlint {

namespace fs = std::filesystem;

namespace {
constexpr int kBaselineVersion = 1;
}

fs::path baseline_root(const fs::path& file) {
  std::error_code ec;
  fs::path abs = fs::absolute(file, ec);
  if (ec) abs = file;
  return abs.lexically_normal().parent_path();
}

std::string Baseline::relative_file(std::string_view path) const {
  if (path == "-" || path.empty()) return std::string(path);
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(path), ec);
  if (ec) return std::string(path);
  abs = abs.lexically_normal();
  fs::path rel = root_.empty() ? fs::path() : abs.lexically_relative(root_);
  return (rel.empty() ? abs : rel).generic_string();
}

std::string Baseline::fingerprint(const Diagnostic& d) const {
  Diagnostic copy;
  copy.rule_id = d.rule_id;
  copy.location = d.location;
  copy.location.file = relative_file(d.location.file);
  copy.target = d.target;
  copy.key = d.key;
  return copy.fingerprint();
}

void Baseline::add(const Report& report) {
  for (const FileReport& f : report.files) {
    for (const Diagnostic& d : f.diagnostics) {
      if (d.rule_id == kInternalError) continue;  // a bug to fix, never an accepted finding
      entries_.push_back(
          {fingerprint(d), d.rule_id, relative_file(d.location.file), d.location.anchor()});
    }
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.file, a.anchor, a.rule, a.fingerprint) <
           std::tie(b.file, b.anchor, b.rule, b.fingerprint);
  });
}

size_t Baseline::apply(Report& report) const {
  std::map<std::string, std::vector<const Entry*>, std::less<>> remaining;
  for (const Entry& e : entries_) remaining[e.fingerprint].push_back(&e);
  std::set<std::string, std::less<>> linted;
  for (FileReport& f : report.files) {
    // A path that yielded no model was not linted: its entries are not stale.
    if (f.status == FileReport::Status::PathError) continue;
    linted.insert(relative_file(f.path));
    std::vector<Diagnostic> kept;
    for (Diagnostic& d : f.diagnostics) {
      if (d.rule_id != kInternalError) {
        auto it = remaining.find(fingerprint(d));
        if (it != remaining.end() && !it->second.empty()) {
          it->second.pop_back();
          ++f.baselined;
          continue;
        }
      }
      kept.push_back(std::move(d));
    }
    f.diagnostics = std::move(kept);
  }
  // Stale entries only among the models linted now: a run over some files (a pre-commit hook
  // gets the staged ones) says nothing about the others.
  size_t unmatched = 0;
  for (const auto& [fp, entries] : remaining) {
    for (const Entry* e : entries) unmatched += linted.count(e->file);
  }
  return unmatched;
}

void Baseline::write(std::ostream& out) const {
  nlohmann::json findings = nlohmann::json::array();
  for (const Entry& e : entries_) {
    findings.push_back({{"fingerprint", e.fingerprint},
                        {"rule", e.rule},
                        {"file", e.file},
                        {"location", e.anchor}});
  }
  nlohmann::json doc = {{"schema_version", kBaselineVersion},
                        {"tool", "onnx-lint"},
                        {"comment",
                         "Findings accepted by `onnx-lint --write-baseline`; only new findings "
                         "fail a run. Paths are relative to this file's folder."},
                        {"findings", std::move(findings)}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void Baseline::save(const fs::path& file) const {
  // The reason (a full disk, a folder that does not exist) from errno, cleared first so that
  // it is this file's.
  auto fail = [&file] {
    const int err = errno;
    return ConfigError(fmt::format("{}: cannot write the baseline{}", file.string(),
                                   err != 0 ? ": " + std::generic_category().message(err) : ""));
  };
  errno = 0;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw fail();
  write(out);
  out.flush();
  if (!out) throw fail();
  out.close();
  if (out.fail()) throw fail();
}

Baseline Baseline::load(const fs::path& file) {
  std::string text;
  try {
    text = read_small_file(file.string(), "baseline");
  } catch (const ConfigError& e) {
    throw ConfigError(
        fmt::format("{} (create it with --write-baseline {})", e.what(), file.string()));
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Only the position: the parser's message quotes the text around it, and the baseline
    // path comes from the config, that is possibly from whoever wrote the repository.
    throw ConfigError(
        fmt::format("{}: not a baseline file: invalid JSON at byte {}", file.string(), e.byte));
  } catch (const nlohmann::json::exception&) {
    throw ConfigError(fmt::format("{}: not a baseline file: invalid JSON", file.string()));
  }
  auto bad = [&](std::string_view why) {
    return ConfigError(fmt::format("{}: not a baseline file: {}", file.string(), why));
  };
  if (!doc.is_object() || !doc.contains("findings") || !doc["findings"].is_array()) {
    throw bad("expected an object with a \"findings\" array");
  }
  if (!doc.contains("schema_version") || doc["schema_version"] != kBaselineVersion) {
    throw bad(
        fmt::format("unsupported schema_version (this onnx-lint reads {})", kBaselineVersion));
  }
  Baseline b(baseline_root(file));
  for (const nlohmann::json& f : doc["findings"]) {
    if (!f.is_object() || !f.contains("fingerprint") || !f["fingerprint"].is_string()) {
      throw bad("every finding needs a \"fingerprint\" string");
    }
    auto text = [&](const char* key) {
      return f.contains(key) && f[key].is_string() ? f[key].get<std::string>() : std::string();
    };
    b.entries_.push_back({text("fingerprint"), text("rule"), text("file"), text("location")});
  }
  return b;
}

}  // namespace onnxlint
