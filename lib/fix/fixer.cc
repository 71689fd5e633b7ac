// fix_model / fix_bytes (fix.h): lint, apply the fixes allowed, lint again, until no fix is
// left; then write the model beside the input (never over it) and report what is left.
#include <fmt/format.h>
#include <onnx/onnx_pb.h>
#include <onnxlint/element_types.h>
#include <onnxlint/escape.h>
#include <onnxlint/external_data.h>
#include <onnxlint/fix.h>
#include <onnxlint/linter.h>
#include <onnxlint/loader.h>
#include <onnxlint/provenance.h>
#include <onnxlint/verdicts.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <system_error>

namespace onnxlint {

namespace fs = std::filesystem;

namespace {

// The linter `linter` uses for `name` (its configuration and overrides), in this process,
// whatever path it then lints: the written model is linted with the input's options.
Linter own_linter(const Linter& linter, const std::string& name, bool collect_fixes) {
  const Linter& own = linter.for_path(name);
  LintOptions options = own.options();
  options.collect_fixes = collect_fixes;
  options.isolate = false;
  options.per_file = nullptr;
  return Linter(own.registry(), std::move(options));
}

// --fix-dims: the named symbolic dims of the main graph's inputs become sizes, and so does every
// other declaration of the same names in the main graph (outputs, value_info), which would
// otherwise contradict the inputs. Returns the names no graph input has.
std::vector<std::string> fix_input_dims(onnx::ModelProto& model,
                                        const std::map<std::string, int64_t, std::less<>>& dims,
                                        std::vector<std::string>& fixed) {
  std::set<std::string> seen;
  auto visit = [&](google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& values, bool inputs) {
    for (onnx::ValueInfoProto& v : values) {
      if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) continue;
      auto* shape = v.mutable_type()->mutable_tensor_type()->mutable_shape();
      for (auto& d : *shape->mutable_dim()) {
        if (!d.has_dim_param()) continue;
        auto it = dims.find(d.dim_param());
        if (it == dims.end()) continue;
        if (inputs) seen.insert(it->first);
        d.set_dim_value(it->second);
      }
    }
  };
  visit(*model.mutable_graph()->mutable_input(), true);
  visit(*model.mutable_graph()->mutable_output(), false);
  visit(*model.mutable_graph()->mutable_value_info(), false);
  std::vector<std::string> missing;
  for (const auto& [name, size] : dims) {
    if (seen.count(name)) {
      fixed.push_back(fmt::format("{}={}", name, size));
    } else {
      missing.push_back(name);
    }
  }
  return missing;
}

bool serialize(const onnx::ModelProto& model, std::string& out) {
  out.clear();
  return model.SerializeToString(&out);
}

// Places the written model's external-data files (`files`: its report's summary, each location
// once) beside `output` when it goes to another folder: each is copied (streamed by the file
// system, never read into memory) unless the same file is already there. A location must
// resolve inside the model's folder, as data-external-path-escape demands of any model.
// Returns "" or why it cannot be done.
std::string place_external_data(const std::vector<ExternalFile>& files, const fs::path& from_dir,
                                const fs::path& output, std::vector<std::string>& copied) {
  if (files.empty()) return "";
  const fs::path to_dir = output.parent_path().empty() ? fs::path(".") : output.parent_path();
  std::error_code ec;
  if (fs::equivalent(from_dir, to_dir, ec)) return "";
  const fs::path real_dir = fs::canonical(from_dir, ec);
  for (const ExternalFile& file : files) {
    const ExternalLocation where =
        resolve_external_location(from_dir, ec ? fs::path() : real_dir, file.location);
    if (where.problem != ExternalLocation::Problem::None) {
      return fmt::format(
          "its external data '{}' is not inside the model's folder, so it cannot be placed beside "
          "a model written to another folder; write the fixed model in the model's folder",
          visible(file.location));
    }
    const fs::path dst = to_dir / fs::path(file.location);
    if (fs::exists(dst, ec)) {
      if (fs::equivalent(where.path, dst, ec)) continue;
      return fmt::format("'{}' exists beside the output and is not the model's external data",
                         visible(dst.string()));
    }
    fs::create_directories(dst.parent_path(), ec);
    if (!fs::copy_file(where.path, dst, ec) || ec) {
      return fmt::format("could not copy its external data '{}' to '{}': {}",
                         visible(where.path.string()), visible(dst.string()), ec.message());
    }
    copied.push_back(dst.string());
  }
  return "";
}

// Writes `bytes` to `path` through a temporary file in the same folder, renamed into place, so
// that a failure never leaves half a model.
std::string write_atomically(const fs::path& path, const std::string& bytes) {
  const fs::path tmp = path.string() + fmt::format(".tmp{}", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return fmt::format("could not write '{}'", visible(tmp.string()));
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return fmt::format("could not write '{}': {}", visible(path.string()), ec.message());
  }
  return "";
}

// --fix-dims, after the loop: every value_info entry (outside function bodies) the analysis now
// proves static in every dim, and that is declared otherwise, is declared with that shape.
// Returns how many; `current` and `proto` are updated together.
uint64_t declare_static_value_info(const std::string& name, std::string& current,
                                   const std::string& directory, onnx::ModelProto& proto) {
  LoadResult loaded = load_model_from_view(
      name, std::as_bytes(std::span<const char>(current.data(), current.size())), directory);
  if (!loaded.model) return 0;
  const Model& model = *loaded.model;
  AnalysisCache cache(model);
  const Provenance& p = cache.get<Provenance>();
  const ElementTypes& types = cache.get<ElementTypes>();
  Fix fix;
  for (const Graph* g : model.all_graphs()) {
    if (g->kind() == Graph::Kind::Function) continue;
    std::optional<GraphAddress> address;
    for (const ValueInfo& vi : g->value_info()) {
      if (vi.type.kind != TypeInfo::Kind::Tensor || vi.type.is_static_shape()) continue;
      const ValueId v = p.find(*g, vi.name);
      const auto dims = p.proven_dims(v);
      if (!dims) continue;
      std::vector<FixDim> shape;
      for (int64_t size : *dims) shape.push_back(FixDim{size, {}});
      const int32_t elem = vi.type.elem_type != 0 ? vi.type.elem_type : types.elem_type(v);
      if (elem == 0) continue;
      if (!address) address = GraphAddress::of(model, *g);
      if (!address) break;
      Edit& e = fix.edits.emplace_back();
      e.kind = Edit::Kind::SetValueShape;
      e.graph = *address;
      e.text = std::string(vi.name);
      e.number = elem;
      e.shape = std::move(shape);
    }
  }
  if (fix.edits.empty()) return 0;
  const uint64_t count = fix.edits.size();
  if (apply_fixes(proto, {&fix}).applied != 1 || !serialize(proto, current)) return 0;
  return count;
}

void record_verdicts(const FileReport& report, FixSummary& summary) {
  for (const TargetVerdict& v : target_verdicts(report)) {
    summary.verdicts_before.push_back(
        {v.target, std::string(support_name(v.support)), verdict_line(v)});
  }
}

// The loop itself: `current` holds the model's bytes, and on return the fixed bytes.
FileReport fix_loop(const Linter& linter, const std::string& name, std::string& current,
                    const std::string& directory, const FixOptions& options, FixSummary& summary) {
  const Linter fixing = own_linter(linter, name, true);
  onnx::ModelProto proto;
  // Parsing first: a model protobuf cannot parse is reported as the linter finds it.
  if (current.size() > size_t{INT32_MAX} ||
      !proto.ParseFromArray(current.data(), static_cast<int>(current.size()))) {
    summary.not_fixable =
        current.size() > size_t{INT32_MAX}
            ? "the model is over 2 GiB, which protobuf's parser cannot read back to rewrite"
            : "protobuf's parser refuses the model, so it cannot be rewritten";
    return linter.for_path(name).lint_bytes(name, current, directory);
  }
  if (!options.dims.empty()) {
    // The verdicts before are the model's as given, before its dims were fixed.
    const FileReport given = linter.for_path(name).lint_bytes(name, current, directory);
    if (given.status == FileReport::Status::Ok) record_verdicts(given, summary);
    std::vector<std::string> missing = fix_input_dims(proto, options.dims, summary.fixed_dims);
    if (!missing.empty()) {
      summary.error = fmt::format("--fix-dims: no graph input has a dim named '{}'",
                                  visible(fmt::format("{}", fmt::join(missing, "', '"))));
      return linter.for_path(name).lint_bytes(name, current, directory);
    }
    serialize(proto, current);
  }
  FileReport report;
  for (int pass = 1;; ++pass) {
    report = fixing.lint_bytes(name, current, directory);
    if (report.status != FileReport::Status::Ok) break;
    if (pass == 1 && options.dims.empty()) record_verdicts(report, summary);
    std::vector<const Fix*> chosen;
    std::vector<const PlannedFix*> planned;
    for (const PlannedFix& p : report.fixes) {
      if (p.fix.safety == FixSafety::Safe ||
          (p.fix.safety == FixSafety::Unsafe && options.unsafe)) {
        chosen.push_back(&p.fix);
        planned.push_back(&p);
      }
    }
    if (chosen.empty() || pass > options.max_passes) break;
    const ApplyOutcome outcome = apply_fixes(proto, chosen);
    if (outcome.applied == 0) break;
    for (size_t i = 0; i < planned.size(); ++i) {
      if (!outcome.applied_fix[i]) continue;
      AppliedFix& a = summary.applied.emplace_back();
      a.rule_id = planned[i]->rule_id;
      a.location = planned[i]->location;
      a.message = planned[i]->message;
      a.safety = planned[i]->fix.safety;
      a.description = planned[i]->fix.description;
      a.pass = pass;
    }
    summary.passes = pass;
    if (!serialize(proto, current)) {
      summary.error = "protobuf could not serialize the fixed model";
      break;
    }
  }
  if (!options.dims.empty() && summary.error.empty() && report.status == FileReport::Status::Ok) {
    summary.declared_shapes = declare_static_value_info(name, current, directory, proto);
    if (summary.declared_shapes > 0) report = fixing.lint_bytes(name, current, directory);
  }
  report.fixes.clear();
  for (const Diagnostic& d : report.diagnostics) {
    if (d.fix == FixSafety::Unsafe && !options.unsafe) ++summary.unsafe_available;
  }
  return report;
}

}  // namespace

fs::path default_fix_output(const fs::path& input) {
  fs::path out = input;
  out.replace_filename(input.stem().string() + ".fixed.onnx");
  return out;
}

FileReport fix_bytes(const Linter& linter, const std::string& name, std::string_view bytes,
                     const std::string& directory, const FixOptions& options, std::string& fixed) {
  FixSummary summary;
  summary.input = name;
  summary.dry_run = true;
  fixed.assign(bytes.data(), bytes.size());
  FileReport report = fix_loop(linter, name, fixed, directory, options, summary);
  report.fixing = std::move(summary);
  return report;
}

FileReport fix_model(const Linter& linter, const std::string& path, const FixOptions& options) {
  FixSummary summary;
  summary.input = path;
  summary.dry_run = options.dry_run;
  const fs::path output = options.output.empty() ? default_fix_output(path) : options.output;
  const fs::path parent = fs::path(path).parent_path();
  const std::string directory = parent.empty() ? std::string(".") : parent.string();

  std::error_code ec;
  auto refuse = [&](std::string why) {
    FileReport report = linter.lint_file(path);
    summary.error = std::move(why);
    report.fixing = std::move(summary);
    return report;
  };
  if (!options.dry_run && !output.parent_path().empty() &&
      !fs::is_directory(output.parent_path(), ec)) {
    return refuse(
        fmt::format("the folder of the output '{}' does not exist", visible(output.string())));
  }
  if (fs::exists(output, ec) && fs::equivalent(output, path, ec)) {
    return refuse(
        fmt::format("the output '{}' is the model itself; nothing given to onnx-lint "
                    "is modified (choose another --fix-output)",
                    visible(output.string())));
  }
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return refuse("the model could not be read");
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0);
    if (size < 0) return refuse("the model could not be read");
    bytes.resize(static_cast<size_t>(size));
    in.read(bytes.data(), size);
    if (!in) return refuse("the model could not be read");
  }
  FileReport report = fix_loop(linter, path, bytes, directory, options, summary);
  const bool changed =
      summary.error.empty() && (!summary.applied.empty() || !summary.fixed_dims.empty());
  if (changed && !options.dry_run) {
    // The report is the written bytes' (the loop's last lint): its summary lists the external
    // data they name.
    std::string why = report.model ? place_external_data(report.model->external_data, directory,
                                                         output, summary.copied_data)
                                   : std::string("the fixed model could not be read back");
    if (why.empty()) why = write_atomically(output, bytes);
    if (why.empty()) {
      summary.output = output.string();
      summary.written = true;
      // The report is the written model's, linted where it lies (its external data), with the
      // input's options.
      report = own_linter(linter, path, false).lint_file(output.string());
    } else {
      summary.error = std::move(why);
    }
  }
  report.fixing = std::move(summary);
  return report;
}

}  // namespace onnxlint
