#include "driver/model_summary.h"

#include <fcntl.h>
#include <onnxlint/escape.h>
#include <onnxlint/external_data.h>
#include <onnxlint/provenance.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <memory>
#include <unordered_map>

#include "emit/echo_cap.h"
#include "util/decimal.h"
#include "util/name_map.h"

namespace onnxlint {

namespace fs = std::filesystem;

namespace {

struct DigestDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using Digest = std::unique_ptr<EVP_MD_CTX, DigestDeleter>;

Digest new_sha256() {
  Digest ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return nullptr;
  return ctx;
}

std::string finish_hex(EVP_MD_CTX* ctx) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx, md.data(), &len) != 1) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(size_t{2} * len);
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

// Hashes a regular file in chunks (weights can be far larger than memory). Sets `error` and
// returns "" when it cannot be read; adds the bytes read to `counted`.
std::string sha256_file(const fs::path& path, std::string& error, std::atomic<uint64_t>& counted) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    error = "cannot be opened";
    return {};
  }
  Digest ctx = new_sha256();
  std::string hex;
  if (ctx) {
    std::vector<unsigned char> buffer(1 << 20);
    ssize_t n = 0;
    bool ok = true;
    while ((n = ::read(fd, buffer.data(), buffer.size())) != 0) {
      if (n < 0) {
        if (errno == EINTR) continue;
        ok = false;
        break;
      }
      counted += static_cast<uint64_t>(n);
      ok = EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<size_t>(n)) == 1;
      if (!ok) break;
    }
    if (ok) hex = finish_hex(ctx.get());
  }
  ::close(fd);
  if (hex.empty()) error = "cannot be read";
  return hex;
}

DimSummary declared_dim(const Dim& d) {
  DimSummary s;
  switch (d.kind) {
    case Dim::Kind::Value:
      s.kind = DimSummary::Kind::Fixed;
      s.value = d.value;
      break;
    case Dim::Kind::Param:
      s.kind = DimSummary::Kind::Symbolic;
      s.text = capped(d.param);
      break;
    case Dim::Kind::Unknown:
      break;
  }
  return s;
}

DimSummary analysed_dim(const DimFact& f) {
  DimSummary s;
  switch (f.kind) {
    case DimFact::Kind::Fixed:
      s.kind = DimSummary::Kind::Fixed;
      s.value = f.value;
      break;
    case DimFact::Kind::Symbolic:
      s.kind = DimSummary::Kind::Symbolic;
      s.text = f.expr;
      break;
    case DimFact::Kind::Data:
      s.kind = DimSummary::Kind::Data;
      s.text = f.expr;
      s.bound = f.bound;
      break;
    case DimFact::Kind::Unknown:
      break;
  }
  return s;
}

// The ONNX type as error messages write it: "tensor(float)", "seq(tensor(int64))",
// "optional(seq(tensor(float)))"; a map is "map" (its key type is not kept); "?" for what the
// file leaves unset.
std::string type_string(const TypeInfo& t) {
  auto elem = [&] {
    std::string_view name = data_type_name(t.elem_type);
    return t.elem_type == 0 || name.empty() ? std::string("?") : std::string(name);
  };
  auto innermost = [&] {
    switch (t.inner_kind) {
      case 1:
        return "tensor(" + elem() + ")";
      case 2:
        return "sparse_tensor(" + elem() + ")";
      default:
        return std::string("?");
    }
  };
  switch (t.kind) {
    case TypeInfo::Kind::Tensor:
    case TypeInfo::Kind::SparseTensor:
      return innermost();
    case TypeInfo::Kind::Sequence:
    case TypeInfo::Kind::Optional:
    case TypeInfo::Kind::Map:
      break;
    case TypeInfo::Kind::Other:
    case TypeInfo::Kind::None:
      return {};
  }
  // Wrapping levels, outside in; past the 8 whose kinds are kept, or at a map, stop with "?".
  std::string open, close;
  for (unsigned k = 0; k < t.wrappers; ++k) {
    const unsigned kind = k < 8 ? (t.wrapper_kinds >> (2 * k)) & 3 : 3;
    if (kind == 2) return open + "map" + close;
    if (kind == 3) return open + "?" + close;
    open += kind == 0 ? "seq(" : "optional(";
    close += ")";
  }
  return open + innermost() + close;
}

ValueSignature signature(const ValueInfo& v) {
  ValueSignature s;
  s.name = std::string(v.name);
  s.type = type_string(v.type);
  if (v.type.has_shape) {
    s.dims.emplace();
    for (const Dim& d : v.type.dims) s.dims->push_back(declared_dim(d));
  }
  return s;
}

// Each external-data location once, with the tensors stored in it; sized (and hashed) only when
// it resolves inside the model's folder.
std::vector<ExternalFile> external_files(const Model& model, FileHashCache* hashes) {
  std::vector<ExternalFile> files;
  std::unordered_map<std::string_view, size_t> index;
  for (const Graph* g : model.all_graphs()) {
    for_each_tensor(*g, [&](const TensorSite& site) {
      const TensorData& t = *site.tensor;
      if (t.storage != TensorData::Storage::External) return;
      std::string_view location = t.external_value("location");
      auto [it, inserted] = index.try_emplace(location, files.size());
      if (inserted) files.push_back(ExternalFile{.location = std::string(location)});
      ++files[it->second].tensors;
    });
  }
  if (files.empty()) return files;
  const fs::path dir(model.directory());
  const fs::path real_dir = real_model_dir(model);
  for (ExternalFile& f : files) {
    const ExternalLocation where = resolve_external_location(dir, real_dir, f.location);
    switch (where.problem) {
      case ExternalLocation::Problem::Empty:
        f.error = "no location";
        continue;
      case ExternalLocation::Problem::Absolute:
        f.error = "an absolute path (not looked at)";
        continue;
      case ExternalLocation::Problem::LeavesFolder:
      case ExternalLocation::Problem::SymlinkEscape:
        f.error = "outside the model's folder (not looked at)";
        continue;
      case ExternalLocation::Problem::None:
        break;
    }
    struct stat st {};
    if (::stat(where.path.c_str(), &st) != 0) {
      f.error = "does not exist";
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      f.error = "not a regular file";
      continue;
    }
    f.bytes = static_cast<uint64_t>(st.st_size);
    if (hashes != nullptr) f.sha256 = hashes->sha256(where.path, st, f.error);
  }
  return files;
}

}  // namespace

std::string FileHashCache::sha256(const fs::path& path, const struct stat& st, std::string& error) {
  const FileIdentity key = file_identity(st);
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard lock(mutex_);
    std::shared_ptr<Entry>& slot = entries_[key];
    if (!slot) slot = std::make_shared<Entry>();
    entry = slot;
  }
  std::call_once(entry->once, [&] { entry->hex = sha256_file(path, entry->error, bytes_hashed_); });
  if (entry->hex.empty()) error = entry->error;
  return entry->hex;
}

std::string sha256_hex(std::span<const std::byte> bytes) {
  Digest ctx = new_sha256();
  if (!ctx || EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1) return {};
  return finish_hex(ctx.get());
}

ModelSummary summarize(const Model& model, AnalysisCache& cache, bool hash, FileHashCache* files) {
  ModelSummary s;
  s.ir_version = model.ir_version();
  for (const OpsetImport& imp : model.opset_imports()) {
    s.opset_imports.emplace_back(std::string(imp.domain), imp.version);
  }
  std::sort(s.opset_imports.begin(), s.opset_imports.end());
  s.producer_name = std::string(model.producer_name());
  s.producer_version = std::string(model.producer_version());
  s.model_version = model.model_version();
  s.doc_string_bytes = model.doc_string().size();
  s.doc_string = std::string(model.doc_string().substr(0, kSummaryDocStringBytes));
  s.graph_name = std::string(model.graph().name());
  for (const StringPair& p : model.metadata_props()) {
    s.metadata_props.emplace_back(std::string(p.key), std::string(p.value));
  }
  s.graphs = model.all_graphs().size();
  s.functions = model.functions().size();
  s.file_bytes = model.file_size();

  // Counted by Node::op_id (an array index per node); the strings are copied into the sorted
  // map once per op.
  std::vector<uint64_t> op_counts(model.op_kinds().size());
  for (const Graph* g : model.all_graphs()) {
    s.nodes += g->nodes().size();
    s.initializers += g->initializers().size() + g->sparse_initializers().size();
    for (const Node& n : g->nodes()) ++op_counts[n.op_id()];
    for (const TensorData& t : g->initializers()) {
      if (t.storage == TensorData::Storage::External) {
        // Lengths are the file's numbers: the sum saturates rather than wrap.
        const std::optional<uint64_t> n = parse_decimal(t.external_value("length"));
        const std::optional<uint64_t> bytes = n ? n : t.expected_bytes();
        if (bytes) {
          s.external_bytes =
              *bytes > UINT64_MAX - s.external_bytes ? UINT64_MAX : s.external_bytes + *bytes;
        }
      } else {
        s.initializer_bytes += t.payload.size;
      }
    }
  }
  for (size_t k = 0; k < op_counts.size(); ++k) {
    if (op_counts[k] == 0) continue;
    const OpKind& op = model.op_kinds()[k];
    s.ops[std::string(domain_display_name(op.domain))][std::string(op.op_type)] = op_counts[k];
  }

  const Graph& main = model.graph();
  // IR < 4 lists initializers as inputs too: those are weights, not the signature. One bit per
  // name of the main graph says which names are initializers.
  std::vector<bool> is_weight(main.name_count());
  auto mark = [&](NameId id) {
    if (id != kNoNameId) is_weight[id] = true;
  };
  for (const TensorData& t : main.initializers()) mark(t.name_id);
  for (const SparseTensorData& t : main.sparse_initializers()) mark(t.values.name_id);
  for (const ValueInfo& v : main.inputs()) {
    if (v.name_id == kNoNameId || !is_weight[v.name_id]) s.inputs.push_back(signature(v));
  }
  // The analysis is what most rules already asked for; should it fail on this model (an
  // internal error its rules report), the outputs carry their declared dims only.
  const Provenance* analysis = nullptr;
  try {
    analysis = &cache.get<Provenance>();
  } catch (const std::exception&) {
  }
  for (const ValueInfo& v : main.outputs()) {
    ValueSignature out = signature(v);
    if (auto facts = analysis ? analysis->dims(analysis->find(main, v.name)) : std::nullopt) {
      out.analysis.emplace();
      for (const DimFact& f : *facts) out.analysis->push_back(analysed_dim(f));
    }
    s.outputs.push_back(std::move(out));
  }
  if (hash) s.sha256 = sha256_hex(model.bytes());
  std::optional<FileHashCache> own;
  if (hash && files == nullptr) files = &own.emplace();
  s.external_data = external_files(model, hash ? files : nullptr);
  cap_echoes(s);
  return s;
}

}  // namespace onnxlint
