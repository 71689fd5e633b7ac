// onnxlint._onnxlint: the Python binding of the onnx-lint library (docs/python.md).
//
// The Python package (python/onnxlint/) re-exports these classes and functions. Everything is
// the C++ library: the same configuration layering, baseline, exit code and emitters as the
// onnx-lint command, so a report's to_json()/to_sarif() is byte for byte what the CLI writes.
#include <onnxlint/baseline.h>
#include <onnxlint/config.h>
#include <onnxlint/isolation.h>
#include <onnxlint/onnxlint.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/run.h>
#include <onnxlint/targets.h>
#include <onnxlint/verdicts.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"

namespace py = pybind11;

namespace onnxlint::python {
namespace {

// What reports call a model linted from memory without a `name`.
constexpr std::string_view kInMemoryName = "<in-memory model>";

// A JSON value (report sections, the summary) as plain Python objects.
py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const nlohmann::json& v : j) out.append(to_python(v));
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [k, v] : j.items()) out[py::str(k)] = to_python(v);
      return out;
    }
    case nlohmann::json::value_t::binary:
      break;
  }
  return py::none();
}

// Strings from a Python argument: one str is one item (not its characters), else any iterable.
std::vector<std::string> strings(const py::handle& value, const char* what) {
  std::vector<std::string> out;
  if (value.is_none()) return out;
  if (py::isinstance<py::str>(value)) {
    out.push_back(value.cast<std::string>());
    return out;
  }
  try {
    for (const py::handle item : value) {
      if (!py::isinstance<py::str>(item)) {
        throw py::type_error(std::string(what) + ": expected strings, got " +
                             std::string(py::str(py::type::of(item).attr("__name__"))));
      }
      out.push_back(item.cast<std::string>());
    }
  } catch (const py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    throw py::type_error(std::string(what) + ": expected a string or an iterable of strings");
  }
  return out;
}

std::string fspath(const py::handle& value) {
  return py::module_::import("os").attr("fspath")(value).cast<std::string>();
}

bool is_path_like(const py::handle& value) {
  return py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__");
}

// A contiguous read-only view of a Python buffer, held (not copied) while it lives. Destroy it
// with the GIL held.
class HeldBuffer {
 public:
  explicit HeldBuffer(const py::handle& obj) {
    if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_SIMPLE) != 0) throw py::error_already_set();
  }
  ~HeldBuffer() { PyBuffer_Release(&view_); }
  HeldBuffer(const HeldBuffer&) = delete;
  HeldBuffer& operator=(const HeldBuffer&) = delete;
  std::string_view bytes() const {
    return {static_cast<const char*>(view_.buf), static_cast<size_t>(view_.len)};
  }

 private:
  Py_buffer view_{};
};

// file_timeout= in seconds, as --file-timeout takes it (0: no limit).
std::chrono::milliseconds time_limit(const py::object& seconds) {
  if (py::isinstance<py::bool_>(seconds) ||
      !(py::isinstance<py::int_>(seconds) || py::isinstance<py::float_>(seconds))) {
    throw py::type_error("file_timeout: expected a number of seconds or None");
  }
  const std::optional<std::chrono::milliseconds> limit =
      file_time_limit_from_seconds(seconds.cast<double>());
  if (!limit) throw py::value_error("file_timeout: must be from 0 to 1e7 seconds");
  return *limit;
}

// isolate=None: the default (isolated for a folder only); else the bool given.
bool isolation_wanted(const py::object& isolate, bool by_default) {
  if (isolate.is_none()) return by_default;
  if (!py::isinstance<py::bool_>(isolate)) throw py::type_error("isolate: expected a bool or None");
  return isolate.cast<bool>();
}

/// A linter with its settings: what one onnx-lint command line configures.
class PyLinter {
 public:
  PyLinter(const py::object& targets, const py::object& select, const py::object& extend_select,
           const py::object& ignore, const py::object& config, const py::object& fail_on,
           const py::object& baseline, int jobs, const py::object& file_timeout,
           const py::object& require_targets, bool timings) {
    const RuleRegistry& registry = builtin_registry();
    try {
      Config cfg;
      working_dir_ = std::filesystem::current_path();
      if (config.is_none()) {
        if (auto found = find_config_file(working_dir_)) {
          cfg = load_config(*found, registry, canonical_target);
        }
      } else if (py::isinstance<py::bool_>(config)) {
        if (config.cast<bool>()) {
          throw py::type_error(
              "config: give a path, None (search from the working folder) or "
              "False (no configuration file)");
        }
        no_config_ = true;
      } else if (is_path_like(config)) {
        config_file_ = fspath(config);
        cfg = load_config(*config_file_, registry, canonical_target);
      } else {
        throw py::type_error("config: expected a path, None or False");
      }
      CommandLine cli;
      std::vector<std::string> sel = strings(select, "select");
      if (!sel.empty()) cli.selection.select = std::move(sel);
      cli.selection.extend_select = strings(extend_select, "extend_select");
      cli.selection.ignore = strings(ignore, "ignore");
      cli.targets = resolve_targets(strings(targets, "targets"));
      for (const std::string& r : strings(require_targets, "require_targets")) {
        cli.require_targets.push_back(parse_target_requirement(r, canonical_target));
      }
      if (!fail_on.is_none()) cli.fail_on = fail_on.cast<std::string>();
      if (!baseline.is_none()) cli.baseline = fspath(baseline);
      if (jobs < 1) throw py::value_error("jobs: must be at least 1");
      cli.jobs = jobs;
      cli.timings = timings;
      command_line_ = cli;
      settings_ = resolve_settings(registry, cfg, cli);
      if (!file_timeout.is_none()) settings_.lint.file_time_limit = time_limit(file_timeout);
      config_path_ = cfg.path;
      linter_ = std::make_shared<const Linter>(registry, settings_.lint);
    } catch (const ConfigError& e) {
      throw py::value_error(e.what());
    }
  }

  /// Lints a path (file or folder), a buffer or an onnx.ModelProto.
  py::object lint(const py::object& model, const py::object& base_dir, const py::object& name,
                  const py::object& isolate) const;
  py::tuple fix(const py::object& model, bool unsafe, const py::object& dims,
                const py::object& base_dir, const py::object& name) const;

  std::vector<std::string> enabled_rules() const { return linter_->enabled_rules(); }
  const std::vector<std::string>& targets() const { return linter_->options().targets; }
  const std::string& fail_on() const { return settings_.fail_on; }
  py::object config_path() const {
    if (config_path_.empty()) return py::none();
    return py::str(config_path_);
  }

  /// A path as `onnx-lint` lints it (run.h): each model with its own configuration file.
  RunRequest request_for(const std::string& path, const py::object& isolate) const {
    RunRequest r;
    r.paths = {path};
    r.command_line = command_line_;
    r.config_file = config_file_;
    r.no_config = no_config_;
    r.working_dir = working_dir_;
    if (!isolate.is_none()) r.isolate = isolation_wanted(isolate, false);
    r.file_time_limit = settings_.lint.file_time_limit;
    return r;
  }

 private:
  Settings settings_;
  CommandLine command_line_;
  std::optional<std::filesystem::path> config_file_;
  bool no_config_ = false;
  std::filesystem::path working_dir_;
  std::string config_path_;
  std::shared_ptr<const Linter> linter_;
};

/// The findings of one lint call, with the linter that made them (the emitters need it).
class PyReport {
 public:
  PyReport(std::shared_ptr<const Linter> linter, Report report, int exit_code, std::string fail_on)
      : linter_(std::move(linter)),
        report_(std::move(report)),
        exit_code_(exit_code),
        fail_on_(std::move(fail_on)) {}

  const Report& report() const { return report_; }
  int exit_code() const { return exit_code_; }
  const std::string& fail_on() const { return fail_on_; }

  std::vector<Diagnostic> diagnostics() const {
    std::vector<Diagnostic> out;
    for (const FileReport& f : report_.files) {
      out.insert(out.end(), f.diagnostics.begin(), f.diagnostics.end());
    }
    return out;
  }

  const FileReport& only_file(const char* what) const {
    if (report_.files.size() != 1) {
      throw py::value_error(std::string(what) + ": the report has " +
                            std::to_string(report_.files.size()) +
                            " models; read it from each of Report.files");
    }
    return report_.files.front();
  }

  py::dict summary() const {
    py::dict by_severity;
    for (Severity s : {Severity::Error, Severity::Warning, Severity::Info}) {
      by_severity[py::str(std::string(severity_name(s)))] = report_.count(s);
    }
    py::dict by_rule;
    for (const auto& [rule, n] : report_.count_by_rule()) by_rule[py::str(rule)] = n;
    py::dict out;
    out["files"] = report_.files.size();
    out["by_severity"] = by_severity;
    out["by_rule"] = by_rule;
    return out;
  }

  std::string to_json() const {
    std::ostringstream out;
    emit_json(report_, *linter_, out);
    return out.str();
  }
  std::string to_sarif() const {
    std::ostringstream out;
    emit_sarif(report_, *linter_, out);
    return out.str();
  }
  std::string to_github() const {
    std::ostringstream out;
    emit_github(report_, *linter_, out);
    return out.str();
  }
  std::string to_gitlab() const {
    std::ostringstream out;
    emit_gitlab(report_, *linter_, out);
    return out.str();
  }
  std::string to_junit() const {
    std::ostringstream out;
    emit_junit(report_, *linter_, out);
    return out.str();
  }
  std::string to_markdown() const {
    std::ostringstream out;
    emit_markdown(report_, *linter_, out);
    return out.str();
  }
  std::string to_text(const std::string& style, bool color, bool quiet, bool statistics,
                      bool show_infos) const {
    TextOptions opts;
    opts.color = color;
    opts.quiet = quiet;
    opts.statistics = statistics;
    opts.show_infos = show_infos;
    if (style == "text") {
      opts.style = TextStyle::Full;
    } else if (style == "concise") {
      opts.style = TextStyle::Concise;
    } else if (style == "summary") {
      opts.style = TextStyle::Files;
    } else {
      throw py::value_error("style: expected 'text', 'concise' or 'summary', got '" + style + "'");
    }
    std::ostringstream out;
    emit_text(report_, *linter_, opts, out);
    return out.str();
  }

 private:
  std::shared_ptr<const Linter> linter_;
  Report report_;
  int exit_code_;
  std::string fail_on_;
};

py::object PyLinter::lint(const py::object& model, const py::object& base_dir,
                          const py::object& name, const py::object& isolate) const {
  Report report;
  try {
    if (is_path_like(model)) {
      if (!base_dir.is_none() || !name.is_none()) {
        throw py::type_error("base_dir and name are for in-memory models; a path names itself");
      }
      const std::string path = fspath(model);
      std::error_code ec;
      if (path != "-" && !std::filesystem::exists(path, ec)) {
        PyErr_SetObject(PyExc_FileNotFoundError,
                        py::make_tuple(ENOENT, "No such file or directory", path).ptr());
        throw py::error_already_set();
      }
      // The run the command does (run.h): per-model configuration, baseline, verdicts. A
      // folder is linted in worker processes unless isolate=False: a crash on one model
      // becomes its internal-error finding instead of ending the interpreter.
      const RunRequest request = request_for(path, isolate);
      RunResult run;
      {
        py::gil_scoped_release unlocked;
        run = run_lint(builtin_registry(), request);
      }
      // A folder without a model (or one that cannot be listed) is an error, as it was.
      for (const FileReport& f : run.report.files) {
        if (f.status == FileReport::Status::PathError) {
          throw ConfigError(f.path + ": " + f.error);
        }
      }
      return py::cast(
          PyReport(run.linter, std::move(run.report), run.exit_code, run.settings.fail_on));
    } else {
      py::object source = model;
      // An onnx.ModelProto (or any protobuf message): serialised once, then linted as bytes.
      if (!PyObject_CheckBuffer(model.ptr()) && py::hasattr(model, "SerializeToString")) {
        source = model.attr("SerializeToString")();
      }
      if (!PyObject_CheckBuffer(source.ptr())) {
        throw py::type_error(
            "model: expected a path (str or os.PathLike), bytes or another buffer, or an "
            "onnx.ModelProto; got " +
            std::string(py::str(py::type::of(model).attr("__name__"))));
      }
      // A name that says what it is: "-" is the command's standard input.
      const std::string label = name.is_none() ? std::string(kInMemoryName) : fspath(name);
      std::optional<std::string> directory;
      if (!base_dir.is_none()) directory = fspath(base_dir);
      const bool isolated = isolation_wanted(isolate, false);
      HeldBuffer held(source);  // released after the GIL is taken back
      {
        py::gil_scoped_release unlocked;
        report.files.push_back(isolated
                                   ? lint_bytes_isolated(*linter_, label, held.bytes(), directory)
                                   : linter_->lint_bytes(label, held.bytes(), directory));
      }
    }
    if (settings_.baseline) {
      py::gil_scoped_release unlocked;
      Baseline::load(*settings_.baseline).apply(report);
    }
  } catch (const ConfigError& e) {
    throw py::value_error(e.what());
  }
  report.run.targets = settings_.lint.targets;
  report.run.tables = table_versions(settings_.lint.targets);
  report.run.config_file = config_path_;
  // A model in memory has no folder to search a configuration from: the Linter's applies.
  for (FileReport& f : report.files) f.config_file = config_path_;
  const int code = decide_verdicts(report, settings_.fail_threshold, settings_.require_targets);
  return py::cast(PyReport(linter_, std::move(report), code, settings_.fail_on));
}

// fix_bytes (fix.h) on a path, a buffer or a ModelProto: (fixed bytes, report). Nothing is
// written; the report is the fixed model's, with `fixing` saying what was done.
py::tuple PyLinter::fix(const py::object& model, bool unsafe, const py::object& dims,
                        const py::object& base_dir, const py::object& name) const {
  FixOptions options;
  options.unsafe = unsafe;
  if (!dims.is_none()) {
    for (const auto& [key, value] : dims.cast<py::dict>()) {
      const int64_t size = value.cast<int64_t>();
      if (size < 1) throw py::value_error("dims: sizes are at least 1");
      options.dims[key.cast<std::string>()] = size;
    }
  }
  std::string label, directory, bytes;
  py::object source = model;
  if (is_path_like(model)) {
    if (!base_dir.is_none() || !name.is_none()) {
      throw py::type_error("base_dir and name are for in-memory models; a path names itself");
    }
    label = fspath(model);
    std::ifstream in(label, std::ios::binary);
    if (!in) {
      PyErr_SetObject(PyExc_FileNotFoundError,
                      py::make_tuple(ENOENT, "No such file or directory", label).ptr());
      throw py::error_already_set();
    }
    bytes.assign(std::istreambuf_iterator<char>(in), {});
    const std::filesystem::path parent = std::filesystem::path(label).parent_path();
    directory = parent.empty() ? std::string(".") : parent.string();
  } else {
    if (!PyObject_CheckBuffer(model.ptr()) && py::hasattr(model, "SerializeToString")) {
      source = model.attr("SerializeToString")();
    }
    if (!PyObject_CheckBuffer(source.ptr())) {
      throw py::type_error(
          "model: expected a path, bytes or another buffer, or an onnx.ModelProto");
    }
    label = name.is_none() ? std::string(kInMemoryName) : fspath(name);
    directory = base_dir.is_none() ? std::string(".") : fspath(base_dir);
    HeldBuffer held(source);
    bytes.assign(held.bytes());
  }
  Report report;
  std::string fixed;
  {
    py::gil_scoped_release unlocked;
    report.files.push_back(fix_bytes(*linter_, label, bytes, directory, options, fixed));
  }
  if (const FixSummary& s = *report.files.back().fixing;
      !s.error.empty() || !s.not_fixable.empty()) {
    throw py::value_error(s.error.empty() ? s.not_fixable : s.error);
  }
  report.run.targets = settings_.lint.targets;
  report.run.tables = table_versions(settings_.lint.targets);
  report.run.config_file = config_path_;
  for (FileReport& f : report.files) f.config_file = config_path_;
  const int code = decide_verdicts(report, settings_.fail_threshold, settings_.require_targets);
  return py::make_tuple(py::bytes(fixed),
                        py::cast(PyReport(linter_, std::move(report), code, settings_.fail_on)));
}

std::string severity_str(Severity s) { return std::string(severity_name(s)); }

py::object non_empty(const std::string& s) {
  if (s.empty()) return py::none();
  return py::str(s);
}

py::dict sections_of(const FileReport& f) {
  py::dict out;
  for (const ReportSection& s : f.sections) out[py::str(s.name)] = to_python(s.data);
  return out;
}

py::object section_of(const FileReport& f, std::string_view name) {
  for (const ReportSection& s : f.sections) {
    if (s.name == name) return to_python(s.data);
  }
  return py::none();
}

// Verdicts by target id: the JSON report's sections.targets entries (docs/python.md), which
// carry more than the typed TargetVerdict (verdicts.h).
py::dict target_verdict_dicts(const FileReport& f) {
  py::dict out;
  for (const ReportSection& s : f.sections) {
    if (s.name != "targets") continue;
    for (const nlohmann::json& t : s.data) {
      if (t.contains("target")) out[py::str(t["target"].get<std::string>())] = to_python(t);
    }
  }
  return out;
}

py::object model_of(const FileReport& f) {
  if (!f.model) return py::none();
  return py::cast(*f.model);
}

int cli_main(const std::vector<std::string>& args) {
  std::vector<std::string> owned = args;
  if (owned.empty()) owned.emplace_back("onnx-lint");
  std::vector<char*> argv;
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  py::module_::import("sys").attr("stdout").attr("flush")();
  py::module_::import("sys").attr("stderr").attr("flush")();
  int code = 0;
  {
    py::gil_scoped_release unlocked;
    code = onnxlint::run_cli(static_cast<int>(owned.size()), argv.data());
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
  }
  return code;
}

}  // namespace
}  // namespace onnxlint::python

PYBIND11_MODULE(_onnxlint, m) {
  using namespace onnxlint;          // NOLINT(google-build-using-namespace)
  using namespace onnxlint::python;  // NOLINT(google-build-using-namespace)
  m.doc() =
      "Native core of the onnxlint package: the onnx-lint C++ library (loader, analyses, rules, "
      "emitters). Use it through `import onnxlint`.";
  m.attr("__version__") = kVersion;
  m.attr("JSON_SCHEMA_VERSION") = kJsonSchemaVersion;

  py::class_<Location>(m, "Location",
                       "Where a finding is: a graph path plus a node, value, initializer or "
                       "attribute inside it (ONNX has no line numbers).")
      .def_readonly("file", &Location::file,
                    "The model path as given (\"-\" for an in-memory model unless named).")
      .def_readonly("graph", &Location::graph_path,
                    "Graph path: \"main\", \"main/Loop_7:body\", \"fn:domain::Name\"; \"\" = the "
                    "whole model.")
      .def_readonly("node_index", &Location::node_index, "Index of the node in its graph, or None.")
      .def_readonly("node_name", &Location::node_name,
                    "Display name of the node (its name, or \"<op>#<index>\"); \"\" if none.")
      .def_readonly("op_type", &Location::op_type, "Operator type of the node; \"\" if none.")
      .def_readonly("domain", &Location::domain, "Operator domain of the node (\"\" = ai.onnx).")
      .def_readonly("value", &Location::value_name,
                    "Value, graph input/output or initializer name; \"\" if none.")
      .def_readonly("attribute", &Location::attribute, "Attribute name; \"\" if none.")
      .def_readonly("byte_offset", &Location::byte_offset,
                    "Byte offset in the model (unreadable models, payload problems), or None.")
      .def_property_readonly("anchor", &Location::anchor,
                             "The human-readable anchor the text report prints: "
                             "\"main/Reshape_12\", \"main:'x'\", \"main\" or \"\".")
      .def("__repr__", [](const Location& l) {
        return "<Location " + l.file + (l.anchor().empty() ? "" : ": " + l.anchor()) + ">";
      });

  py::class_<RelatedLocation>(m, "RelatedLocation",
                              "Another place that belongs to the same finding.")
      .def_readonly("location", &RelatedLocation::location, "Where it is.")
      .def_readonly("message", &RelatedLocation::message,
                    "What this place is, e.g. \"graph output 'boxes'\"; may be \"\".");

  py::class_<FoldedFinding>(m, "FoldedFinding",
                            "A finding at the same place that restated another and was folded "
                            "into it (Diagnostic.also).")
      .def_readonly("rule", &FoldedFinding::rule_id, "Rule id, e.g. \"target-restriction\".")
      .def_property_readonly(
          "severity", [](const FoldedFinding& f) { return severity_str(f.severity); },
          "\"error\", \"warning\" or \"info\".")
      .def_readonly("message", &FoldedFinding::message, "Its message.")
      .def_property_readonly(
          "target", [](const FoldedFinding& f) { return non_empty(f.target); },
          "Target runtime id for target-* findings, else None.");

  py::class_<Diagnostic>(m, "Diagnostic", "One finding: rule, severity, message and location.")
      .def_readonly("rule", &Diagnostic::rule_id, "Rule id, e.g. \"shape-data-dependent\".")
      .def_property_readonly(
          "severity", [](const Diagnostic& d) { return severity_str(d.severity); },
          "\"error\", \"warning\" or \"info\" (after configured severity overrides).")
      .def_readonly("message", &Diagnostic::message, "One sentence naming the node or value.")
      .def_readonly("location", &Diagnostic::location, "Where the finding is.")
      .def_readonly("notes", &Diagnostic::notes, "Context lines, e.g. the reason chain.")
      .def_property_readonly(
          "help", [](const Diagnostic& d) { return non_empty(d.help); },
          "The fix in exporter terms, or None.")
      .def_property_readonly(
          "target", [](const Diagnostic& d) { return non_empty(d.target); },
          "Target runtime id for target-* findings, else None.")
      .def_readonly("related", &Diagnostic::related, "Further places of the same cause.")
      .def_readonly("count", &Diagnostic::count,
                    "How many places of one cause the finding stands for (1, or the copies of "
                    "repeated structure merged into it; the others are in `related`).")
      .def_property_readonly(
          "fix",
          [](const Diagnostic& d) {
            return d.fix == FixSafety::None ? py::object(py::none())
                                            : py::object(py::str(fix_safety_name(d.fix)));
          },
          "\"safe\" or \"unsafe\" when the rule proposes a fix (onnxlint.fix applies it), "
          "else None.")
      .def_property_readonly(
          "fix_description", [](const Diagnostic& d) { return non_empty(d.fix_description); },
          "What the fix does, or None.")
      .def_readonly("also", &Diagnostic::also,
                    "Findings at the same place that restated this one, folded into it (a "
                    "target's restriction on an export finding, one input for several targets).")
      .def_property_readonly("fingerprint", &Diagnostic::fingerprint,
                             "Stable identity (rule, file name, graph path, node/value) used by "
                             "baselines; independent of the message wording.")
      .def("__repr__", [](const Diagnostic& d) {
        return "<Diagnostic " + severity_str(d.severity) + " [" + d.rule_id + "] " +
               d.location.anchor() + ": " + d.message + ">";
      });

  py::class_<ModelSummary>(m, "ModelInfo", "Facts about a model that could be read.")
      .def_readonly("ir_version", &ModelSummary::ir_version, "ModelProto.ir_version.")
      .def_property_readonly(
          "opset_imports",
          [](const ModelSummary& s) {
            py::dict out;
            for (const auto& [domain, version] : s.opset_imports) {
              out[py::str(domain.empty() ? std::string("ai.onnx") : domain)] = version;
            }
            return out;
          },
          "Imported opsets by domain (\"ai.onnx\" for the default domain).")
      .def_readonly("producer_name", &ModelSummary::producer_name, "Exporter name.")
      .def_readonly("producer_version", &ModelSummary::producer_version, "Exporter version.")
      .def_readonly("graphs", &ModelSummary::graphs,
                    "Graphs: main graph, subgraphs, function bodies.")
      .def_readonly("nodes", &ModelSummary::nodes, "Nodes in all graphs.")
      .def_readonly("initializers", &ModelSummary::initializers, "Initializers in all graphs.")
      .def_readonly("functions", &ModelSummary::functions, "Model-local functions.")
      .def_readonly("file_bytes", &ModelSummary::file_bytes, "Size of the serialised model.")
      .def_readonly("initializer_bytes", &ModelSummary::initializer_bytes,
                    "Bytes of embedded initializer payloads.")
      .def_readonly("external_bytes", &ModelSummary::external_bytes,
                    "Bytes declared in external data.");

  py::class_<TimingEntry>(m, "TimingEntry",
                          "Self time of one phase, analysis or rule of a lint (--timings).")
      .def_property_readonly(
          "kind", [](const TimingEntry& t) { return std::string(timing_kind_name(t.kind)); },
          "\"phase\" (load, summary, findings, free), \"analysis\" or \"rule\".")
      .def_readonly("name", &TimingEntry::name, "The phase, the analysis's class or the rule id.")
      .def_property_readonly(
          "seconds", [](const TimingEntry& t) { return static_cast<double>(t.nanoseconds) / 1e9; },
          "Self time: an analysis a rule asks for first is counted to the analysis.")
      .def_readonly("calls", &TimingEntry::calls,
                    "Runs: 1 for phases and analyses, callbacks for rules.")
      .def("__repr__", [](const TimingEntry& t) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.6f", static_cast<double>(t.nanoseconds) / 1e9);
        return "TimingEntry(" + std::string(timing_kind_name(t.kind)) + " " + t.name + ": " +
               seconds + " s, " + std::to_string(t.calls) + " calls)";
      });

  py::class_<FileReport>(m, "FileReport", "The findings for one model.")
      .def_readonly("path", &FileReport::path, "The model path as given (\"-\" for a buffer).")
      .def_property_readonly(
          "status",
          [](const FileReport& f) {
            return f.status == FileReport::Status::Ok ? "ok" : "unreadable";
          },
          "\"ok\", or \"unreadable\" when the model could not be read (model-unreadable).")
      .def_property_readonly("model", &model_of, "ModelInfo, or None when unreadable.")
      .def_readonly("diagnostics", &FileReport::diagnostics, "Findings, sorted.")
      .def_property_readonly("sections", &sections_of,
                             "Report sections by name (\"targets\", \"dynamic_shapes\"), as in "
                             "the JSON report.")
      .def_property_readonly("targets", &target_verdict_dicts,
                             "Per-target verdicts by target id (empty without targets).")
      .def_property_readonly(
          "dynamic_shapes", [](const FileReport& f) { return section_of(f, "dynamic_shapes"); },
          "The dynamic-shape summary (inputs, outputs, dims, fixes), or None.")
      .def_readonly("suppressed", &FileReport::suppressed,
                    "Findings hidden by in-model suppressions.")
      .def_readonly("baselined", &FileReport::baselined, "Findings accepted by the baseline.")
      .def_readonly("capped", &FileReport::capped,
                    "Rules over the per-model finding cap: rule id -> findings not kept.")
      .def_readonly("timings", &FileReport::timings,
                    "With Linter(timings=True): where this model's lint spent its time, one "
                    "TimingEntry per phase, analysis and rule, in the order they first ran.");

  py::class_<PyReport>(m, "Report",
                       "What one lint call found, with the exit code the onnx-lint command "
                       "would return and its output formats.")
      .def_property_readonly(
          "files", [](const PyReport& r) { return r.report().files; },
          "One FileReport per model (one for a file or buffer, several for a folder).")
      .def_property_readonly("diagnostics", &PyReport::diagnostics,
                             "Every finding of every model, in report order.")
      .def_property_readonly(
          "ok", [](const PyReport& r) { return r.exit_code() == 0; },
          "True when nothing is at or above fail_on (exit code 0).")
      .def_property_readonly("exit_code", &PyReport::exit_code,
                             "The onnx-lint exit code: 0 clean, 1 findings at or above fail_on "
                             "or an unreadable model, 2 internal error (a crash isolated as an "
                             "internal-error finding included).")
      .def_property_readonly("fail_on", &PyReport::fail_on,
                             "The threshold used: \"error\", \"warning\", \"info\" or \"never\".")
      .def_property_readonly("summary", &PyReport::summary,
                             "{'files': n, 'by_severity': {...}, 'by_rule': {...}} as the JSON "
                             "report's summary.")
      .def_property_readonly(
          "model", [](const PyReport& r) { return model_of(r.only_file("model")); },
          "The ModelInfo of the only model (ValueError for a folder of several).")
      .def_property_readonly(
          "targets", [](const PyReport& r) { return target_verdict_dicts(r.only_file("targets")); },
          "Per-target verdicts of the only model, by target id.")
      .def_property_readonly(
          "dynamic_shapes",
          [](const PyReport& r) {
            return section_of(r.only_file("dynamic_shapes"), "dynamic_shapes");
          },
          "The dynamic-shape summary of the only model, or None.")
      .def("to_json", &PyReport::to_json, "The JSON report, exactly as `onnx-lint --format json`.")
      .def("to_sarif", &PyReport::to_sarif,
           "The SARIF 2.1.0 report, exactly as `onnx-lint --format sarif`.")
      .def("to_github", &PyReport::to_github,
           "GitHub workflow annotations, as `onnx-lint --format github`.")
      .def("to_gitlab", &PyReport::to_gitlab,
           "The GitLab Code Quality report, as `onnx-lint --format gitlab`.")
      .def("to_junit", &PyReport::to_junit, "The JUnit XML report, as `onnx-lint --format junit`.")
      .def("to_markdown", &PyReport::to_markdown,
           "The Markdown summary, as `onnx-lint --format markdown`.")
      .def("to_text", &PyReport::to_text, py::kw_only(), py::arg("style") = "text",
           py::arg("color") = false, py::arg("quiet") = false, py::arg("statistics") = false,
           py::arg("show_infos") = false,
           "The human report, as `onnx-lint --format text|concise|summary` with --quiet, "
           "--statistics and --show-infos.")
      .def("__str__",
           [](const PyReport& r) { return r.to_text("text", false, false, false, false); })
      .def("__repr__", [](const PyReport& r) {
        return "<Report files=" + std::to_string(r.report().files.size()) +
               " errors=" + std::to_string(r.report().count(Severity::Error)) +
               " warnings=" + std::to_string(r.report().count(Severity::Warning)) +
               " infos=" + std::to_string(r.report().count(Severity::Info)) +
               " exit_code=" + std::to_string(r.exit_code()) + ">";
      });

  py::class_<PyLinter>(m, "Linter",
                       "A configured linter. Construct once, lint many models; thread-safe: "
                       "several Python threads may call lint() on one Linter at once (the GIL "
                       "is released while linting).")
      .def(py::init<const py::object&, const py::object&, const py::object&, const py::object&,
                    const py::object&, const py::object&, const py::object&, int, const py::object&,
                    const py::object&, bool>(),
           py::kw_only(), py::arg("targets") = py::tuple(), py::arg("select") = py::tuple(),
           py::arg("extend_select") = py::tuple(), py::arg("ignore") = py::tuple(),
           py::arg("config") = py::none(), py::arg("fail_on") = py::none(),
           py::arg("baseline") = py::none(), py::arg("jobs") = 1,
           py::arg("file_timeout") = py::none(), py::arg("require_targets") = py::tuple(),
           py::arg("timings") = false,
           "Settings as on the onnx-lint command line, layered over the configuration file "
           "(config=None searches onnx-lint.toml / pyproject.toml from the working folder up; "
           "False uses none). file_timeout: seconds an isolated lint of one model may take "
           "before its worker is killed and the model reported as an internal error (None: "
           "300; 0: no limit), as --file-timeout. require_targets: verdicts every model must reach "
           "(\"full\", \"partial\" or \"TARGET=LEVEL\"), as --require-target: a report below "
           "them has exit_code 1. timings: measure each model's phases, analyses and rules "
           "(FileReport.timings), as --timings. Raises ValueError naming an unknown rule, "
           "target or bad setting.")
      .def("lint", &PyLinter::lint, py::arg("model"), py::kw_only(),
           py::arg("base_dir") = py::none(), py::arg("name") = py::none(),
           py::arg("isolate") = py::none(),
           "Lints a path (file or folder), a bytes-like buffer (not copied) or an "
           "onnx.ModelProto. base_dir: where an in-memory model's external data is; name: the "
           "path reports show for it (default \"-\"). isolate: lint in a worker process, so "
           "that a crash becomes the model's internal-error finding instead of ending the "
           "interpreter (None: for folders only).")
      .def("fix", &PyLinter::fix, py::arg("model"), py::kw_only(), py::arg("unsafe") = false,
           py::arg("dims") = py::none(), py::arg("base_dir") = py::none(),
           py::arg("name") = py::none(),
           "Fixes a path, a bytes-like buffer or an onnx.ModelProto in memory (nothing is "
           "written): returns (fixed bytes, the fixed model's Report). unsafe: apply unsafe "
           "fixes too (--unsafe-fixes); dims: {name: size} for symbolic input dims made fixed "
           "first (--fix-dims). Raises ValueError when the fix cannot be done.")
      .def_property_readonly("enabled_rules", &PyLinter::enabled_rules,
                             "Rule ids the selection enables, sorted.")
      .def_property_readonly("targets", &PyLinter::targets, "Canonical target ids checked.")
      .def_property_readonly("fail_on", &PyLinter::fail_on,
                             "The exit-code threshold in force (argument, else config, else "
                             "\"error\").")
      .def_property_readonly("config_path", &PyLinter::config_path,
                             "The configuration file read, or None.");

  py::class_<OptionInfo>(m, "RuleOption", "An option a rule reads from [rules.<id>].")
      .def_readonly("name", &OptionInfo::name, "Option key.")
      .def_property_readonly(
          "type", [](const OptionInfo& o) { return std::string(option_type_name(o.type())); },
          "\"bool\", \"int\", \"float\", \"string\", "
          "\"strings\".")
      .def_property_readonly(
          "default", [](const OptionInfo& o) { return option_value_text(o.default_value); },
          "Default as TOML text.")
      .def_readonly("description", &OptionInfo::description, "What it does.");

  py::class_<RuleInfo>(m, "Rule", "A rule's metadata (as --list-rules shows it).")
      .def_readonly("id", &RuleInfo::id, "Stable rule id.")
      .def_readonly("category", &RuleInfo::category, "Category (\"graph\", \"shape\", ...).")
      .def_property_readonly(
          "severity", [](const RuleInfo& r) { return severity_str(r.severity); },
          "Default severity.")
      .def_readonly("summary", &RuleInfo::summary, "One sentence.")
      .def_readonly("options", &RuleInfo::options, "Options the rule reads.")
      .def_readonly("fixable", &RuleInfo::fixable,
                    "True when the rule states fixes for its findings (onnxlint.fix).")
      .def("__repr__", [](const RuleInfo& r) { return "<Rule " + r.id + ">"; });

  py::class_<TargetInfo>(m, "Target", "A deployment target runtime (as --list-targets shows).")
      .def_property_readonly(
          "id", [](const TargetInfo& t) { return std::string(t.id); }, "Target id.")
      .def_property_readonly(
          "display_name", [](const TargetInfo& t) { return std::string(t.display_name); },
          "Short name used in messages.")
      .def_property_readonly(
          "aliases",
          [](const TargetInfo& t) {
            std::vector<std::string> out(t.aliases.begin(), t.aliases.end());
            return out;
          },
          "Other names accepted for it.")
      .def_property_readonly(
          "runtime", [](const TargetInfo& t) { return std::string(t.runtime); }, "Runtime.")
      .def_property_readonly(
          "runtime_version", [](const TargetInfo& t) { return std::string(t.runtime_version); },
          "Runtime version the table describes.")
      .def_property_readonly(
          "family", [](const TargetInfo& t) { return std::string(t.family); },
          "The runtime this table is one release of ('tensorrt' for 'tensorrt@8.6').")
      .def_property_readonly(
          "version", [](const TargetInfo& t) { return std::string(t.version); },
          "The release the table describes ('8.6'), '' when the table has no versions.")
      .def_property_readonly(
          "source",
          [](const TargetInfo& t) {
            return std::string(t.source_repo) + " : " + std::string(t.source_path) + " @ " +
                   std::string(t.source_version);
          },
          "Where the support table comes from (repository : path @ version).")
      .def_property_readonly(
          "source_version", [](const TargetInfo& t) { return std::string(t.source_version); },
          "Commit or version the table was extracted from.")
      .def_readonly("requires_static_shapes", &TargetInfo::requires_static_shapes,
                    "The runtime rejects dynamic shapes.")
      .def("__repr__", [](const TargetInfo& t) { return "<Target " + std::string(t.id) + ">"; });

  m.def(
      "rules",
      [] {
        std::vector<const RuleInfo*> out;
        for (const RuleRegistry::Entry& e : builtin_registry().entries()) out.push_back(e.info);
        return out;
      },
      py::return_value_policy::reference, "Every built-in rule, sorted by id.");
  m.def(
      "explain",
      [](const std::string& rule_id) {
        const RuleRegistry::Entry* e = builtin_registry().find(rule_id);
        if (e == nullptr) {
          throw py::value_error("unknown rule '" + rule_id + "' (see onnxlint.rules())");
        }
        std::string_view doc = RuleRegistry::documentation(rule_id);
        if (doc.empty()) return e->info->id + ": " + e->info->summary + "\n";
        return std::string(doc);
      },
      py::arg("rule_id"), "The documentation of a rule, as `onnx-lint --explain`.");
  m.def(
      "targets",
      [] {
        std::vector<const TargetInfo*> out;
        for (const TargetInfo& t : all_targets()) out.push_back(&t);
        return out;
      },
      py::return_value_policy::reference, "Every known target runtime, sorted by id.");
  m.def(
      "table_versions",
      [] {
        py::dict opsets;
        for (const DomainInfo& d : all_domains())
          opsets[py::str(std::string(d.name))] = d.max_opset;
        py::dict targets;
        for (const TargetInfo& t : all_targets()) {
          targets[py::str(std::string(t.id))] = std::string(t.source_version);
        }
        py::dict out;
        out["onnx"] = std::string(onnx_data_version());
        out["ir_version"] = max_known_ir_version();
        out["opsets"] = opsets;
        out["targets"] = targets;
        return out;
      },
      "Versions of the embedded tables: the ONNX release of the operator table, the newest IR "
      "version and opset per domain it knows, and each target table's source version.");
  m.def("_install_crash_handler", &install_crash_handler,
        "For `python3 -m onnxlint` only: a fatal signal prints what was running and exits with "
        "3, as the onnx-lint command does.");
  m.def("_run_cli", &cli_main, py::arg("argv"),
        "Runs the onnx-lint command line (argv[0] is the program name) and returns its exit "
        "code; used by `python3 -m onnxlint`.");
}
