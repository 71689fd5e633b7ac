// The driver: one walk over every graph of a model, dispatching nodes to the enabled rules by
// op type; rule exceptions become internal-error findings.
#include <fmt/format.h>
#include <onnxlint/linter.h>
#include <onnxlint/loader.h>
#include <onnxlint/targets.h>
#include <onnxlint/verdicts.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "config/text_util.h"
#include "driver/isolation.h"
#include "driver/lint_run.h"
#include "driver/model_summary.h"
#include "driver/suppression.h"
#include "driver/timings.h"
#include "driver/unreadable.h"
#include "emit/echo_cap.h"

namespace onnxlint {

bool selector_matches(std::string_view selector, const RuleInfo& info) {
  if (selector == "ALL" || selector == "all") return true;
  if (selector == info.id || selector == info.category) return true;
  if (selector.find_first_of("*?") != std::string_view::npos) return glob_match(selector, info.id);
  return false;
}

namespace {

void check_selectors(const RuleRegistry& registry, const std::vector<std::string>& selectors,
                     const char* what) {
  for (const std::string& s : selectors) {
    bool any =
        std::any_of(registry.entries().begin(), registry.entries().end(),
                    [&](const RuleRegistry::Entry& e) { return selector_matches(s, *e.info); });
    if (!any) {
      throw ConfigError(
          fmt::format("{}: '{}' matches no rule id, category or glob (see --list-rules)", what, s));
    }
  }
}

// The model-unused-suppression finding for a disable entry that hid nothing, or nullopt when
// the entry only names rules that did not run (then nothing is known about it).
std::optional<Diagnostic> unused_suppression(const RuleRegistry& registry, const Linter& linter,
                                             const Model& model, const std::string& entry) {
  bool known = false, ran = false;
  for (const RuleRegistry::Entry& e : registry.entries()) {
    if (!selector_matches(entry, *e.info)) continue;
    known = true;
    ran = ran || linter.is_enabled(e.info->id);
  }
  if (known && !ran) return std::nullopt;
  Diagnostic d;
  d.rule_id = std::string(kUnusedSuppression);
  d.severity = linter.severity_of(*registry.find(kUnusedSuppression)->info);
  d.location.file = model.path();
  d.key = entry;
  if (known) {
    d.message = fmt::format("'onnx-lint:disable' entry '{}' suppressed nothing", entry);
    d.help =
        "remove the entry from the model's metadata_props (the finding it was added for is "
        "gone)";
    return d;
  }
  d.message =
      fmt::format("'onnx-lint:disable' entry '{}' names no rule id, category or glob", entry);
  std::optional<std::string> close = closest_rule_name(registry, entry);
  d.help = close ? fmt::format("did you mean '{}'?", *close)
                 : "see `onnx-lint --list-rules` for the rule ids and categories";
  return d;
}

}  // namespace

struct Linter::PerFileCache {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Linter>, std::less<>> linters;
};

const Linter& Linter::for_path(std::string_view path) const {
  if (!options_.per_file) return *this;
  std::string key = options_.per_file->key(path);
  if (key.empty()) return *this;
  std::lock_guard lock(per_file_cache_->mutex);
  std::unique_ptr<Linter>& slot = per_file_cache_->linters[key];
  if (!slot) {
    LintOptions o = options_.per_file->options(key);
    o.per_file = nullptr;
    slot = std::make_unique<Linter>(registry_, std::move(o));
    slot->hash_cache_ = hash_cache_;  // one run, one digest per file
  }
  return *slot;
}

Linter::Linter(const RuleRegistry& registry, LintOptions options)
    : registry_(registry), options_(std::move(options)) {
  if (options_.per_file) per_file_cache_ = std::make_shared<PerFileCache>();
  if (options_.hash) hash_cache_ = std::make_shared<FileHashCache>();
  check_selectors(registry_, options_.select, "select");
  check_selectors(registry_, options_.extend_select, "extend-select");
  check_selectors(registry_, options_.ignore, "ignore");
  for (const SeverityOverride& o : options_.severity) {
    check_selectors(registry_, {o.pattern}, "severity");
  }
  // The same checks and messages as the configuration reader (lib/config/config.cc) and the
  // command line, so that a program gets the errors onnx-lint would give.
  // Each value is then made exactly its declared type: a rule's constructor reads it typed.
  // `allow-dims` names input dims meant to vary: the outputs that depend on them alone are not
  // findings either. shape-dynamic-output reads shape-dynamic-input's list unless it has one.
  if (auto in = options_.rule_options.find("shape-dynamic-input");
      in != options_.rule_options.end() && registry_.find("shape-dynamic-output") != nullptr) {
    if (auto dims = in->second.find("allow-dims"); dims != in->second.end()) {
      options_.rule_options["shape-dynamic-output"].try_emplace("allow-dims", dims->second);
    }
  }
  for (auto& [id, opts] : options_.rule_options) {
    const RuleRegistry::Entry* e = registry_.find(id);
    if (e == nullptr) {
      throw ConfigError(
          fmt::format("rules.{}: {}", quote_key(id), unknown_rule_reason(registry_, id)));
    }
    for (auto& [name, value] : opts) {
      const std::string& option = name;  // clang 14 cannot capture a structured binding
      auto info = std::find_if(e->info->options.begin(), e->info->options.end(),
                               [&](const OptionInfo& o) { return o.name == option; });
      const std::string key = fmt::format("rules.{}.{}", quote_key(id), quote_key(name));
      if (info == e->info->options.end()) {
        throw ConfigError(fmt::format("{}: {}", key, unknown_option_reason(*e->info)));
      }
      if (auto error = option_type_error(*info, value)) {
        throw ConfigError(fmt::format("{}: {}", key, *error));
      }
      value = typed_option_value(*info, std::move(value));
    }
  }
  options_.targets = resolve_targets(options_.targets);
  if (options_.jobs < 1) options_.jobs = 1;
  for (const RuleRegistry::Entry& e : registry_.entries()) {
    if (is_enabled(e.info->id)) enabled_.push_back(&e);
  }
}

bool Linter::is_enabled(std::string_view rule_id) const {
  const RuleRegistry::Entry* e = registry_.find(rule_id);
  if (e == nullptr) return false;
  if (e->info->id == kInternalError) return true;  // never silenced: it means a bug
  auto any = [&](const std::vector<std::string>& sel) {
    return std::any_of(sel.begin(), sel.end(),
                       [&](const std::string& s) { return selector_matches(s, *e->info); });
  };
  bool selected = options_.select.empty() || any(options_.select) || any(options_.extend_select);
  return selected && !any(options_.ignore);
}

std::vector<std::string> Linter::enabled_rules() const {
  std::vector<std::string> out;
  for (const auto* e : enabled_) out.push_back(e->info->id);
  return out;
}

Severity Linter::severity_of(const RuleInfo& info) const {
  Severity s = info.severity;
  for (const SeverityOverride& o : options_.severity) {
    if (selector_matches(o.pattern, info)) s = o.severity;
  }
  return s;
}

namespace {

// Loads a model with `load` and lints it, the loading and the freeing measured as the phases
// "load" and "free" when the linter measures (lint_model adds the rest); `unreadable` makes the
// report of a model that does not load.
template <class Load, class Unreadable>
FileReport load_and_lint(const Linter& linter, Load&& load, Unreadable&& unreadable) {
  timing::Session timed(linter.options().timings);
  LoadResult loaded;
  {
    timing::Scope phase(TimingEntry::Kind::Phase, "load");
    loaded = load();
  }
  if (!loaded.model) return timed.finish(unreadable(*loaded.error));
  FileReport report = linter.lint_model(*loaded.model);
  {
    timing::Scope phase(TimingEntry::Kind::Phase, "free");
    loaded.model.reset();
  }
  return timed.finish(std::move(report));
}

}  // namespace

FileReport Linter::lint_file(const std::string& path) const {
  if (const Linter& own = for_path(path); &own != this) return own.lint_file(path);
  isolation::begin_file(path);
  return load_and_lint(
      *this, [&] { return load_model(path); },
      [&](const LoadError& error) { return unreadable_report(path, error); });
}

FileReport Linter::lint_bytes(const std::string& name, std::string_view bytes,
                              std::optional<std::string> directory) const {
  if (const Linter& own = for_path(name); &own != this) {
    return own.lint_bytes(name, bytes, std::move(directory));
  }
  if (!directory) {
    const std::filesystem::path parent = std::filesystem::path(name).parent_path();
    directory = parent.empty() ? std::string(".") : parent.string();
  }
  isolation::begin_file(name);
  return load_and_lint(
      *this,
      [&] {
        // The model lives only for this call, so it can borrow the caller's bytes.
        return load_model_from_view(
            name, std::as_bytes(std::span<const char>(bytes.data(), bytes.size())), *directory);
      },
      [&](const LoadError& error) { return unreadable_report(name, error, bytes); });
}

namespace {

template <class Where>
Location location_of(const Where& where) {
  if constexpr (std::is_invocable_v<const Where&>) {
    return where();
  } else {
    return where;
  }
}

// Makes a rule with its options. A constructor that throws (a rule reading an option it does
// not declare) becomes an internal-error finding, and the rule sits out this model.
bool construct(const RuleRegistry::Entry& e, const RuleOptions& options,
               std::unique_ptr<Rule>& rule, std::deque<Diagnostic>& sink, const Model& model) {
  std::string failure;
  try {
    rule = e.factory(RuleOptionsView(*e.info, options));
    if (rule) return true;
    failure = "its factory returned no rule";
  } catch (const std::exception& ex) {
    failure = ex.what();
  } catch (...) {
    failure = "an unknown exception";
  }
  Diagnostic& d = sink.emplace_back();
  d.rule_id = std::string(kInternalError);
  d.severity = Severity::Error;
  d.location.file = model.path();
  d.message = fmt::format("rule '{}' could not be constructed: {}", e.info->id, failure);
  d.help =
      "please report this bug; use --ignore " + e.info->id + " to lint without this rule meanwhile";
  return false;
}

struct ActiveRule {
  const RuleInfo* info = nullptr;  // published before each callback (crash reports)
  std::unique_ptr<Rule> rule;
  std::unique_ptr<RuleContext> ctx;
  bool failed = false;
  uint32_t timing = 0;  // its entry in the timing collector, when there is one
};

}  // namespace

FileReport Linter::lint_model(const Model& model) const {
  if (const Linter& own = for_path(model.path()); &own != this) return own.lint_model(model);
  timing::Session timed(options_.timings);
  timing::Collector* const timer = timing::current();
  FileReport report;
  report.path = model.path();

  AnalysisCache cache(model);
  RuleContext::LintRun lint_run{model, cache, options_.targets, {}, {}, options_.collect_fixes, {}};
  std::deque<Diagnostic>& sink = lint_run.diagnostics;
  std::vector<ReportSection>& sections = lint_run.sections;
  static const RuleOptions kNoOptions;

  // What runs is published here for crash reports (driver/isolation.h): a store per callback.
  isolation::CrashRecord& crash = isolation::current_record();
  std::vector<ActiveRule> active;
  std::unordered_map<std::string_view, std::vector<size_t>> by_op;
  std::vector<size_t> every_node;
  for (const RuleRegistry::Entry* e : enabled_) {
    if (e->info->engine || !e->factory) continue;
    ActiveRule a;
    a.info = e->info;
    isolation::set_rule(crash, a.info);
    auto opt = options_.rule_options.find(e->info->id);
    if (!construct(*e, opt == options_.rule_options.end() ? kNoOptions : opt->second, a.rule, sink,
                   model)) {
      continue;
    }
    a.rule = isolation::wrap_for_test_crash(std::move(a.rule));
    a.ctx = std::make_unique<RuleContext>(RuleContext::DriverKey{}, lint_run, *e->info,
                                          severity_of(*e->info));
    if (timer != nullptr) a.timing = timer->entry(TimingEntry::Kind::Rule, e->info->id);
    size_t idx = active.size();
    for (const std::string& op : e->info->node_ops) {
      if (op == "*") {
        every_node.push_back(idx);
      } else {
        by_op[op].push_back(idx);
      }
    }
    active.push_back(std::move(a));
  }

  // Findings are capped as they come (cap_echoes): a name the model repeats in every finding
  // costs at most kMaxEchoBytes per string, in memory and in every format.
  size_t capped_upto = 0;
  auto cap_new_findings = [&] {
    for (; capped_upto < sink.size(); ++capped_upto) cap_echoes(sink[capped_upto]);
  };

  // Runs one callback; an exception disables the rule for this model and is reported.
  // `where` is a Location or a callable returning one, so that node locations (three strings)
  // are built only when a rule fails rather than once per node.
  auto run = [&](size_t i, const auto& where, auto&& call) {
    ActiveRule& a = active[i];
    if (a.failed) return;
    isolation::set_rule(crash, a.info);
    try {
      timing::Scope timed_call(timer, a.timing);
      call(*a.rule, *a.ctx);
      if (capped_upto != sink.size()) cap_new_findings();
    } catch (const std::exception& ex) {
      a.failed = true;
      Diagnostic& d = sink.emplace_back();
      d.rule_id = std::string(kInternalError);
      d.severity = Severity::Error;
      d.location = location_of(where);
      d.message =
          fmt::format("rule '{}' failed: {}", a.rule->info().id, isolation::exception_text(ex));
      d.help = "please report this bug with the model (or a reduced copy); use --ignore " +
               a.rule->info().id + " to lint without this rule meanwhile";
    } catch (...) {
      a.failed = true;
      Diagnostic& d = sink.emplace_back();
      d.rule_id = std::string(kInternalError);
      d.severity = Severity::Error;
      d.location = location_of(where);
      d.message = fmt::format("rule '{}' failed with an unknown exception", a.rule->info().id);
    }
  };

  Location model_loc;
  model_loc.file = model.path();
  for (size_t i = 0; i < active.size(); ++i) {
    run(i, model_loc, [&](Rule& r, RuleContext& c) { r.on_model(model, c); });
  }

  // The rules that see each op the model uses, by Node::op_id, decided once per op: the "*"
  // rules that want it (Rule::wants_op), then the rules naming it. No hashing per node.
  std::vector<std::vector<size_t>> rules_of_op(model.op_kinds().size());
  bool any_node_rule = false;
  for (size_t k = 0; k < rules_of_op.size(); ++k) {
    const OpKind& op = model.op_kinds()[k];
    for (size_t i : every_node) {
      bool wanted = false;
      run(i, model_loc, [&](Rule& r, RuleContext& c) { wanted = r.wants_op(op, c); });
      if (wanted) rules_of_op[k].push_back(i);
    }
    if (auto it = by_op.find(op.op_type); it != by_op.end()) {
      rules_of_op[k].insert(rules_of_op[k].end(), it->second.begin(), it->second.end());
    }
    any_node_rule = any_node_rule || !rules_of_op[k].empty();
  }
  for (const Graph* g : model.all_graphs()) {
    Location graph_loc = model_loc;
    graph_loc.graph_path = g->path();
    if (g->kind() == Graph::Kind::Function && g->function() != nullptr) {
      for (size_t i = 0; i < active.size(); ++i) {
        run(i, graph_loc, [&](Rule& r, RuleContext& c) { r.on_function(*g->function(), c); });
      }
    }
    for (size_t i = 0; i < active.size(); ++i) {
      run(i, graph_loc, [&](Rule& r, RuleContext& c) { r.on_graph(*g, c); });
    }
    if (!any_node_rule) continue;
    for (const Node& n : g->nodes()) {
      const std::vector<size_t>& for_op = rules_of_op[n.op_id()];
      if (for_op.empty()) continue;
      auto node_loc = [&] {
        Location l = graph_loc;
        l.node_index = n.index();
        l.node_name = n.display_name();
        l.op_type = std::string(n.op_type());
        return l;
      };
      for (size_t i : for_op) {
        // The per-node call is the hot one: run()'s work, minus what only a timed run needs.
        // A throw is handed to run(), which reports it as the rule's internal-error.
        ActiveRule& a = active[i];
        if (a.failed) continue;
        if (timer != nullptr) {
          run(i, node_loc, [&](Rule& r, RuleContext& c) { r.on_node(n, c); });
          continue;
        }
        isolation::set_rule(crash, a.info);
        try {
          a.rule->on_node(n, *a.ctx);
        } catch (...) {
          run(i, node_loc, [](Rule&, RuleContext&) { throw; });
        }
        if (capped_upto != sink.size()) cap_new_findings();
      }
    }
  }
  for (size_t i = 0; i < active.size(); ++i) {
    run(i, model_loc, [&](Rule& r, RuleContext& c) { r.on_model_end(model, c); });
  }

  isolation::enter_phase(crash, isolation::Phase::Summary);
  {
    timing::Scope summary(TimingEntry::Kind::Phase, "summary");
    report.model = summarize(model, cache, options_.hash, hash_cache_.get());
  }
  isolation::enter_phase(crash, isolation::Phase::Findings);
  std::optional<timing::Scope> findings;
  findings.emplace(TimingEntry::Kind::Phase, "findings");
  // Again over all: a rule may add notes to a finding after the callback that reported it.
  for (Diagnostic& d : sink) cap_echoes(d);
  for (ReportSection& section : sections) cap_echoes(section);

  // A rule past its cap: one finding stands for the rest, and the report records the count.
  for (const ActiveRule& a : active) {
    const uint64_t dropped = a.ctx->dropped();
    if (dropped == 0) continue;
    const RuleInfo& info = a.rule->info();
    report.capped[info.id] = dropped;
    Diagnostic& d = sink.emplace_back();
    d.rule_id = info.id;
    d.severity = a.ctx->dropped_severity();
    d.location = model_loc;
    d.key = "capped";
    d.message = fmt::format(
        "{} more finding{} of this rule in this file not shown (at most {} per rule and file)",
        dropped, dropped == 1 ? "" : "s", RuleContext::kMaxFindingsPerModel);
    d.help = "fix the findings shown and lint again; the rest are likely the same problem";
  }

  std::vector<std::string> disables;
  if (options_.in_model_suppressions) disables = in_model_disables(model);
  // Which entries name each rule, worked out once per rule (not per finding): the entries come
  // from the model, and there may be a hundred thousand of them.
  const auto& entries = registry_.entries();
  std::vector<std::vector<uint32_t>> disabled_by(disables.empty() ? 0 : entries.size());
  for (size_t r = 0; r < disabled_by.size(); ++r) {
    for (size_t i = 0; i < disables.size(); ++i) {
      if (selector_matches(disables[i], *entries[r].info)) {
        disabled_by[r].push_back(static_cast<uint32_t>(i));
      }
    }
  }
  std::vector<bool> rule_hit(disabled_by.size(), false);
  std::vector<bool> used(disables.size(), false);
  auto suppressed = [&](const Diagnostic& d) {
    if (disables.empty() || d.rule_id == kInternalError) return false;
    const RuleRegistry::Entry* e = registry_.find(d.rule_id);
    if (e == nullptr) return false;
    const size_t r = static_cast<size_t>(e - entries.data());
    if (disabled_by[r].empty()) return false;
    if (!rule_hit[r]) {  // the entries naming this rule are used: marked once per rule
      rule_hit[r] = true;
      for (uint32_t i : disabled_by[r]) used[i] = true;
    }
    return true;
  };
  // The fixes of the findings kept, taken before the findings move (they are found by address).
  if (!lint_run.fixes.empty()) {
    for (auto& [finding, fix] : lint_run.fixes) {
      if (suppressed(*finding)) continue;
      report.fixes.push_back(
          {finding->rule_id, finding->location, finding->message, std::move(fix)});
    }
  }
  for (Diagnostic& d : sink) {
    if (suppressed(d)) {
      ++report.suppressed;
    } else {
      report.diagnostics.push_back(std::move(d));
    }
  }
  if (is_enabled(kUnusedSuppression)) {
    uint64_t reported = 0, dropped = 0;
    for (size_t i = 0; i < disables.size(); ++i) {
      if (used[i]) continue;
      // Capped like any rule's findings (each one also costs a "did you mean" search).
      if (reported >= RuleContext::kMaxFindingsPerModel) {
        ++dropped;
        continue;
      }
      std::optional<Diagnostic> d = unused_suppression(registry_, *this, model, disables[i]);
      if (!d) continue;
      ++reported;
      if (suppressed(*d)) {
        ++report.suppressed;
      } else {
        report.diagnostics.push_back(std::move(*d));
      }
    }
    if (dropped > 0) {
      report.capped[std::string(kUnusedSuppression)] = dropped;
      Diagnostic d;
      d.rule_id = std::string(kUnusedSuppression);
      d.severity = severity_of(*registry_.find(kUnusedSuppression)->info);
      d.location = model_loc;
      d.key = "capped";
      d.message = fmt::format(
          "{} more 'onnx-lint:disable' entries not checked (at most {} findings per rule and "
          "file)",
          dropped, RuleContext::kMaxFindingsPerModel);
      if (!suppressed(d)) report.diagnostics.push_back(std::move(d));
    }
  }
  // One finding per cause: after the in-model suppressions (they name rules, so they hide
  // every copy of a cause or none, and count the findings the rules made), before the sort
  // (a merged finding sorts by its first site) and before any baseline, which the caller
  // applies to the report: a merged finding keeps its first site's fingerprint, so a baseline
  // accepts it whether the model has one copy or many (docs/library.md).
  // A finding that restates another at its site (a target's terms for an export finding, one
  // input's dynamic shape per target) becomes part of it, before the copies of a cause merge.
  fold_restatements(report.diagnostics);
  group_by_cause(report.diagnostics);
  std::sort(report.diagnostics.begin(), report.diagnostics.end(), diagnostic_less);
  std::stable_sort(sections.begin(), sections.end(),
                   [](const ReportSection& a, const ReportSection& b) { return a.name < b.name; });
  report.sections = std::move(sections);
  // A model the runtimes refuse to load runs on none of them, whatever its nodes.
  apply_load_errors(report, registry_);
  isolation::enter_phase(crash, isolation::Phase::Idle);
  findings.reset();
  return timed.finish(std::move(report));
}

namespace {

// Whether the symlink `link` leads to a file inside `real_root` (a canonical path). A folder
// expansion lints what is in the folder walked: a link out of it (to a model elsewhere on the
// machine, another checkout, a home folder) would lint that model and publish its names in
// the report (a pull-request comment, a SARIF upload).
bool links_inside(const std::filesystem::path& link, const std::filesystem::path& real_root) {
  std::error_code ec;
  const std::filesystem::path target = std::filesystem::canonical(link, ec);
  if (ec || real_root.empty()) return false;
  const std::filesystem::path rel = target.lexically_relative(real_root);
  return !rel.empty() && *rel.begin() != "..";
}

// The *.onnx files below `root` (any depth), and an error entry for each folder that cannot be
// listed: one unreadable subfolder does not hide the rest. Symlinks: a file symlink is followed
// only when it leads to a file inside `root` (after resolving every link, `root`'s own
// included); folder symlinks are never followed (what one leads to inside `root` is walked
// anyway, and outside it is not the folder's). Iterative, so a deep tree cannot exhaust the
// stack. Sorted by path.
std::vector<InputPath> walk_folder(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<InputPath> out;
  std::error_code root_ec;
  const fs::path real_root = fs::canonical(root, root_ec);
  std::vector<fs::path> pending{root};
  while (!pending.empty()) {
    const fs::path dir = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      std::error_code type_ec;
      const bool link = it->is_symlink(type_ec);
      if (it->is_directory(type_ec) && !link) {
        pending.push_back(it->path());
      } else if (it->path().extension() == ".onnx" && it->is_regular_file(type_ec) &&
                 (!link || links_inside(it->path(), real_root))) {
        out.push_back({it->path().string(), ""});
      }
    }
    if (ec) out.push_back({dir.string(), "cannot list the folder: " + ec.message()});
  }
  std::sort(out.begin(), out.end(),
            [](const InputPath& a, const InputPath& b) { return a.path < b.path; });
  return out;
}

}  // namespace

std::vector<InputPath> expand_inputs(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<InputPath> out;
  for (const std::string& p : paths) {
    if (p == "-") {
      out.push_back({p, ""});
      continue;
    }
    std::error_code ec;
    auto st = fs::status(p, ec);
    if (!fs::exists(st)) {
      const bool absent =
          !ec || ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
      out.push_back({p, absent ? "no such file or folder" : "cannot access: " + ec.message()});
      continue;
    }
    if (!fs::is_directory(st)) {
      out.push_back({p, ""});
      continue;
    }
    // A gate must not pass on nothing: a folder that cannot be listed (or a subfolder that
    // cannot) or that holds no model is an error, not "0 files checked".
    std::vector<InputPath> found = walk_folder(p);
    if (found.empty()) found.push_back({p, "no model (*.onnx file) in this folder"});
    for (InputPath& f : found) out.push_back(std::move(f));
  }
  return out;
}

std::vector<std::string> expand_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (InputPath& in : expand_inputs(paths)) {
    if (!in.error.empty()) throw ConfigError(fmt::format("{}: {}", in.path, in.error));
    out.push_back(std::move(in.path));
  }
  return out;
}

Report Linter::lint_paths(const std::vector<std::string>& paths,
                          const std::function<void(size_t, size_t)>& progress) const {
  return lint_inputs(expand_inputs(paths), progress);
}

Report Linter::lint_inputs(const std::vector<InputPath>& inputs,
                           const std::function<void(size_t, size_t)>& progress) const {
  // Builds the per-file linters here so that a ConfigError reaches the caller, not a worker.
  for (const InputPath& in : inputs) {
    if (in.error.empty()) for_path(in.path);
  }
  if (options_.isolate) return isolation::lint_inputs_isolated(*this, inputs, progress);
  Report report;
  report.files.resize(inputs.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    const isolation::ThreadSignalStack signal_stack;
    for (size_t i = next++; i < inputs.size(); i = next++) {
      if (inputs[i].error.empty()) {
        // Never throws: out of memory while loading a file is that file's internal error.
        report.files[i] = isolation::lint_file_guarded(*this, inputs[i].path);
      } else {
        FileReport& f = report.files[i];
        f.path = inputs[i].path;
        f.status = FileReport::Status::PathError;
        f.error = inputs[i].error;
      }
      size_t d = ++done;
      if (progress) {
        std::lock_guard lock(progress_mutex);
        progress(d, inputs.size());
      }
    }
  };
  size_t threads = std::min<size_t>(static_cast<size_t>(options_.jobs), inputs.size());
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  return report;
}

std::map<std::string, uint64_t> Report::count_by_rule() const {
  std::map<std::string, uint64_t> out;
  for (const FileReport& f : files) {
    for (const Diagnostic& d : f.diagnostics) ++out[d.rule_id];
  }
  return out;
}

uint64_t Report::count(Severity s) const {
  uint64_t n = 0;
  for (const FileReport& f : files) {
    for (const Diagnostic& d : f.diagnostics) n += d.severity == s;
  }
  return n;
}

uint64_t Report::count_at_least(Severity s) const {
  uint64_t n = 0;
  for (const FileReport& f : files) {
    for (const Diagnostic& d : f.diagnostics) n += d.severity >= s;
  }
  return n;
}

bool Report::has_internal_error() const {
  for (const FileReport& f : files) {
    for (const Diagnostic& d : f.diagnostics) {
      if (d.rule_id == kInternalError) return true;
    }
  }
  return false;
}

void hide_below(Report& report, Severity min) {
  for (FileReport& f : report.files) {
    f.hidden += std::erase_if(f.diagnostics, [min](const Diagnostic& d) {
      // Unreadable stays visible: it is why the run fails.
      return d.severity < min && d.rule_id != kModelUnreadable;
    });
  }
}

bool Report::has_unreadable() const {
  return std::any_of(files.begin(), files.end(), [](const FileReport& f) {
    return f.status == FileReport::Status::Unreadable;
  });
}

bool Report::has_path_error() const {
  return std::any_of(files.begin(), files.end(),
                     [](const FileReport& f) { return f.status == FileReport::Status::PathError; });
}

uint64_t Report::files_linted() const {
  return static_cast<uint64_t>(std::count_if(files.begin(), files.end(), [](const FileReport& f) {
    return f.status != FileReport::Status::PathError;
  }));
}

int exit_code(const Report& report, std::optional<Severity> fail_on) {
  // A path that yielded no model is an input error: the run did not check what was asked.
  if (report.has_internal_error() || report.has_path_error()) return 2;
  // The rest fails per file (an unreadable model at every threshold: it could not be checked).
  return std::any_of(report.files.begin(), report.files.end(),
                     [&](const FileReport& f) { return file_fails(f, fail_on); })
             ? 1
             : 0;
}

bool file_fails(const FileReport& file, std::optional<Severity> fail_on) {
  // An input error and an internal error always fail (exit_code() makes them 2); the rest
  // only at a threshold (`--fail-on never` passes an unreadable model).
  if (file.status == FileReport::Status::PathError) return true;
  const bool internal =
      std::any_of(file.diagnostics.begin(), file.diagnostics.end(),
                  [](const Diagnostic& d) { return d.rule_id == kInternalError; });
  if (internal) return true;
  if (!fail_on) return false;
  if (file.status == FileReport::Status::Unreadable) return true;
  return std::any_of(file.diagnostics.begin(), file.diagnostics.end(),
                     [&](const Diagnostic& d) { return d.severity >= *fail_on; });
}

int decide_verdicts(Report& report, std::optional<Severity> fail_on) {
  report.run.fail_on = fail_on;
  for (FileReport& f : report.files) f.failed = file_fails(f, fail_on);
  return exit_code(report, fail_on);
}

}  // namespace onnxlint
