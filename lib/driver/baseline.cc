#include <fmt/format.h>
#include <onnxlint/baseline.h>
#include <onnxlint/escape.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "config/text_util.h"
#include "driver/model_summary.h"

namespace onnxlint {

namespace fs = std::filesystem;

namespace {
// Version 1 throughout: the "files" object (each model's SHA-256) was added without a change
// of version, since schema_version changes only when a field is removed or changes meaning
// (as the JSON report's). A file without it still loads (nothing is found to have moved), and
// an older onnx-lint reads a file with it as before (it ignores the key).
constexpr int kBaselineVersion = 1;

// Stale files named one by one in BaselineOutcome::notice(); the others are counted.
constexpr size_t kNoticeFiles = 10;

// The SHA-256 of the model file `f` was linted from; "" when it is not known.
//
// The report's own digest (LintOptions::hash) is of the bytes linted. Otherwise the file at
// the report's path is read: for a model given as bytes under a name (--stdin-filename, the
// Python binding's bytes) that file need not hold those bytes, and a size other than the
// linted model's proves it is not (same-size edits are the one case this cannot tell).
std::string content_sha256(const FileReport& f, FileHashCache& hashes) {
  if (f.status == FileReport::Status::PathError) return {};
  if (f.model && !f.model->sha256.empty()) return f.model->sha256;
  if (f.path.empty() || is_in_memory_path(f.path)) return {};
  struct stat st {};
  if (::stat(f.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  if (f.model && f.model->file_bytes != static_cast<uint64_t>(st.st_size)) return {};
  std::string error;
  return hashes.sha256(f.path, st, error);
}

// A SHA-256 as the baseline stores it (lowercase hex); nullopt if `text` is not one.
std::optional<std::string> parse_sha256(std::string text) {
  if (text.size() != 64) return std::nullopt;
  for (char& c : text) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  return text;
}

// Whether the model a baseline records at `file` is gone: nothing at root/file. An error other
// than "not found" (a folder that cannot be read) proves nothing, so the file counts as there.
bool vanished(const fs::path& root, const std::string& file) {
  if (file.empty() || is_in_memory_path(file)) return false;
  std::error_code ec;
  return fs::status(root / fs::path(file), ec).type() == fs::file_type::not_found;
}

std::string entries_text(size_t n) { return fmt::format("{} entr{}", n, n == 1 ? "y" : "ies"); }
}  // namespace

size_t BaselineOutcome::stale_entries() const {
  size_t n = 0;
  for (const Stale& s : stale) n += s.entries;
  return n;
}

std::string BaselineOutcome::notice(std::string_view baseline_file) const {
  const std::string base = visible(baseline_file);
  std::string out;
  for (const Moved& m : moved) {
    out += fmt::format(
        "onnx-lint: baseline {}: {} is now {} (the same bytes): its {} still appl{}\n", base,
        visible(m.from), visible(m.to), entries_text(m.entries), m.entries == 1 ? "ies" : "y");
  }
  for (size_t i = 0; i < stale.size() && i < kNoticeFiles; ++i) {
    const Stale& s = stale[i];
    out += fmt::format("onnx-lint: baseline {}: {} no longer exists and {}: its {} {} stale\n",
                       base, visible(s.file),
                       s.hashed ? "no model linted has its bytes"
                                : "the baseline has no hash of it to find it elsewhere",
                       entries_text(s.entries), s.entries == 1 ? "is" : "are");
  }
  if (stale.size() > kNoticeFiles) {
    size_t rest = 0;
    for (size_t i = kNoticeFiles; i < stale.size(); ++i) rest += stale[i].entries;
    out += fmt::format("onnx-lint: baseline {}: and {} more files that no longer exist ({})\n",
                       base, stale.size() - kNoticeFiles, entries_text(rest));
  }
  if (fixed > 0) {
    out += fmt::format(
        "onnx-lint: {} baseline entr{} matched no finding (fixed?); refresh with "
        "--write-baseline {}\n",
        fixed, fixed == 1 ? "y" : "ies", base);
  }
  if (!moved.empty() || !stale.empty()) {
    out += fmt::format(
        "onnx-lint: refresh the baseline over all the models it covers: onnx-lint "
        "--write-baseline {} MODEL...\n",
        base);
  }
  return out;
}

fs::path baseline_root(const fs::path& file) {
  std::error_code ec;
  fs::path abs = fs::absolute(file, ec);
  if (ec) abs = file;
  return abs.lexically_normal().parent_path();
}

std::string Baseline::relative_file(std::string_view path) const {
  if (is_in_memory_path(path) || path.empty()) return std::string(path);
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(path), ec);
  if (ec) return std::string(path);
  abs = abs.lexically_normal();
  fs::path rel = root_.empty() ? fs::path() : abs.lexically_relative(root_);
  return (rel.empty() ? abs : rel).generic_string();
}

std::string Baseline::fingerprint(const Diagnostic& d) const {
  return fingerprint_at(d, relative_file(d.location.file));
}

namespace {
// The identity a finding has at `at` in `file` alone: the finding itself, or another copy of a
// finding of one cause (one of its same-cause related places).
std::string fingerprint_of(const Diagnostic& d, const Location& at, std::string_view file) {
  Diagnostic copy;
  copy.rule_id = d.rule_id;
  copy.location = at;
  copy.location.file = std::string(file);
  copy.target = d.target;
  copy.key = d.key;
  return copy.fingerprint();
}
}  // namespace

std::string Baseline::fingerprint_at(const Diagnostic& d, std::string_view file) const {
  return fingerprint_of(d, d.location, file);
}

void Baseline::add(const Report& report) {
  FileHashCache hashes;
  for (const FileReport& f : report.files) {
    bool recorded = false;
    for (const Diagnostic& d : f.diagnostics) {
      if (d.rule_id == kInternalError) continue;  // a bug to fix, never an accepted finding
      Entry& e = entries_.emplace_back(Entry{
          fingerprint(d), d.rule_id, relative_file(d.location.file), d.location.anchor(), {}});
      for (const RelatedLocation& r : d.related) {
        if (d.count > 1 && r.message == kSameCauseMessage) {
          e.copies.push_back(fingerprint_of(d, r.location, e.file));
        }
      }
      recorded = true;
    }
    // The model's bytes, for apply() to recognise it after a move (only models with entries:
    // the others have nothing to take along).
    if (recorded) {
      std::string sha = content_sha256(f, hashes);
      if (!sha.empty()) file_hashes_[relative_file(f.path)] = std::move(sha);
    }
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.file, a.anchor, a.rule, a.fingerprint) <
           std::tie(b.file, b.anchor, b.rule, b.fingerprint);
  });
}

BaselineOutcome Baseline::apply(Report& report) const {
  BaselineOutcome outcome;
  std::map<std::string, std::vector<const Entry*>, std::less<>> by_file;
  for (const Entry& e : entries_) by_file[e.file].push_back(&e);

  // The models linted: each one's path as the baseline records it ("" for a path error).
  std::vector<std::string> paths(report.files.size());
  std::set<std::string, std::less<>> linted, path_errors;
  for (size_t i = 0; i < report.files.size(); ++i) {
    // A path that yielded no model was not linted: its entries are not fixed, and if the file
    // is gone the report already says so (exit 2), so they are not called stale either.
    if (report.files[i].status == FileReport::Status::PathError) {
      path_errors.insert(relative_file(report.files[i].path));
      continue;
    }
    paths[i] = relative_file(report.files[i].path);
    linted.insert(paths[i]);
  }

  // Moves. A file with entries that is not linted and no longer exists hands its entries to
  // the linted model with the same bytes, if that model's path has no entries of its own (a
  // model that has some is not a newcomer). Only the same bytes prove a move: an edited model
  // is a new one, and its findings are new.
  //
  // Design: the moved model's findings are fingerprinted as if it were still at its old path,
  // and matched against the entries as usual. The fingerprint hashes the path with the rest of
  // the identity (rule, graph path, node, value, attribute, target, key), and an entry keeps
  // only that hash, so an entry of any baseline, old ones included, is matched exactly as it
  // would have been before the move: no second, path-free fingerprint is needed, and identical
  // findings of two models never stand in for each other.
  //
  // When several files with the same bytes vanished, or several new paths share them (a move
  // and a copy), they pair in path order: with the same bytes, the findings are the same
  // whichever pairs with which; an unpaired newcomer is a copy, whose findings are new.
  std::map<std::string, std::string, std::less<>> moved_from;  // linted path -> old path
  std::vector<std::string> gone;
  for (const auto& [file, entries] : by_file) {
    if (!linted.contains(file) && vanished(root_, file)) gone.push_back(file);
  }
  std::map<std::string, std::vector<std::string>, std::less<>> newcomers;  // sha -> paths
  bool hashed_newcomers = false;
  for (const std::string& file : gone) {
    const size_t count = by_file[file].size();
    auto sha = file_hashes_.find(file);
    if (sha == file_hashes_.end()) {
      if (!path_errors.contains(file)) outcome.stale.push_back({file, count, false});
      continue;
    }
    if (!hashed_newcomers) {  // read the candidates' files only now that one is wanted
      hashed_newcomers = true;
      FileHashCache hashes;
      std::set<std::string, std::less<>> seen;
      for (size_t i = 0; i < report.files.size(); ++i) {
        const std::string& path = paths[i];
        if (path.empty() || is_in_memory_path(path) || by_file.contains(path) ||
            !seen.insert(path).second) {
          continue;
        }
        std::string digest = content_sha256(report.files[i], hashes);
        if (!digest.empty()) newcomers[digest].push_back(path);
      }
      for (auto& [digest, list] : newcomers) {
        std::sort(list.begin(), list.end(), std::greater<>());  // taken from the back
      }
    }
    auto candidates = newcomers.find(sha->second);
    if (candidates == newcomers.end() || candidates->second.empty()) {
      if (!path_errors.contains(file)) outcome.stale.push_back({file, count, true});
      continue;
    }
    std::string to = std::move(candidates->second.back());
    candidates->second.pop_back();
    outcome.moved.push_back({file, to, count});
    moved_from.emplace(std::move(to), file);
  }

  // Every fingerprint an entry answers to (its own, then its copies') -> the entries; each
  // entry accepts one finding.
  std::map<std::string, std::vector<size_t>, std::less<>> by_fingerprint;
  for (size_t e = entries_.size(); e-- > 0;) {
    by_fingerprint[entries_[e].fingerprint].push_back(e);
    for (const std::string& fp : entries_[e].copies) by_fingerprint[fp].push_back(e);
  }
  std::vector<bool> used(entries_.size(), false);
  auto take = [&](const std::string& fp) {
    auto it = by_fingerprint.find(fp);
    if (it == by_fingerprint.end()) return false;
    std::vector<size_t>& list = it->second;
    while (!list.empty() && used[list.back()]) list.pop_back();
    if (list.empty()) return false;
    used[list.back()] = true;
    list.pop_back();
    return true;
  };
  for (size_t i = 0; i < report.files.size(); ++i) {
    FileReport& f = report.files[i];
    if (f.status == FileReport::Status::PathError) continue;
    auto move = moved_from.find(paths[i]);
    std::vector<Diagnostic> kept;
    for (Diagnostic& d : f.diagnostics) {
      if (d.rule_id != kInternalError) {
        std::string file = relative_file(d.location.file);
        if (move != moved_from.end() && file == move->first) file = move->second;
        // A finding of one cause at several places carries its first copy's fingerprint; an
        // entry written when another copy was first (or before a copy was added) names that
        // one: any copy matches.
        bool accepted = take(fingerprint_at(d, file));
        for (size_t k = 0; !accepted && d.count > 1 && k < d.related.size(); ++k) {
          if (d.related[k].message != kSameCauseMessage) continue;
          accepted = take(fingerprint_of(d, d.related[k].location, file));
        }
        if (accepted) {
          ++f.baselined;
          continue;
        }
      }
      kept.push_back(std::move(d));
    }
    f.diagnostics = std::move(kept);
  }
  // Fixed entries only among the models linted now: a run over some files (a pre-commit hook
  // gets the staged ones) says nothing about the others.
  for (const auto& [to, from] : moved_from) linted.insert(from);
  for (size_t e = 0; e < entries_.size(); ++e) {
    if (!used[e]) outcome.fixed += linted.count(entries_[e].file);
  }
  return outcome;
}

void Baseline::write(std::ostream& out) const {
  nlohmann::json findings = nlohmann::json::array();
  for (const Entry& e : entries_) {
    nlohmann::json entry = {
        {"fingerprint", e.fingerprint}, {"rule", e.rule}, {"file", e.file}, {"location", e.anchor}};
    if (!e.copies.empty()) entry["copies"] = e.copies;
    findings.push_back(std::move(entry));
  }
  // The digests of the files that have entries (one written by hand may name others).
  std::set<std::string_view> with_entries;
  for (const Entry& e : entries_) with_entries.insert(e.file);
  nlohmann::json files = nlohmann::json::object();
  for (const auto& [file, sha] : file_hashes_) {
    if (with_entries.contains(file)) files[file] = {{"sha256", sha}};
  }
  nlohmann::json doc = {{"schema_version", kBaselineVersion},
                        {"tool", "onnx-lint"},
                        {"comment",
                         "Findings accepted by `onnx-lint --write-baseline`; only new findings "
                         "fail a run. Paths are relative to this file's folder; a model's sha256 "
                         "lets its findings follow it when it moves unchanged."},
                        {"files", std::move(files)},
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
    Entry& e = b.entries_.emplace_back(
        Entry{text("fingerprint"), text("rule"), text("file"), text("location"), {}});
    if (f.contains("copies")) {
      if (!f["copies"].is_array()) throw bad("\"copies\" must be an array of fingerprints");
      for (const nlohmann::json& c : f["copies"]) {
        if (!c.is_string()) throw bad("\"copies\" must be an array of fingerprints");
        e.copies.push_back(c.get<std::string>());
      }
    }
  }
  // Optional (older files have none): {"models/a.onnx": {"sha256": "<64 hex digits>"}, ...}.
  // The error never quotes the file: its path may come from whoever wrote the repository.
  if (doc.contains("files")) {
    const nlohmann::json& files = doc["files"];
    if (!files.is_object()) throw bad("\"files\" must be an object");
    for (const auto& [file, value] : files.items()) {
      std::optional<std::string> sha;
      if (value.is_object() && value.contains("sha256") && value["sha256"].is_string()) {
        sha = parse_sha256(value["sha256"].get<std::string>());
      }
      if (!sha) throw bad("every entry of \"files\" needs a \"sha256\" of 64 hex digits");
      b.file_hashes_[file] = std::move(*sha);
    }
  }
  return b;
}

}  // namespace onnxlint
