// The byte encoding of a FileReport that a worker process sends its parent (crash isolation):
// every field the emitters read, so that a report that crossed the pipe prints byte for byte as
// one linted in-process. Fixed-width little-endian integers and length-prefixed strings; the
// decoder checks every length against what is left, so bytes from a worker that went wrong are
// refused, never read past.
#include <onnxlint/isolation.h>
#include <onnxlint/report_section.h>

#include <map>
#include <stdexcept>

namespace onnxlint {

namespace {

// A field added to one of these structs must be added to the encoder and the decoder below:
// the sizes make the build fail until it is (x86-64 libstdc++, the build CI runs).
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
// FileReport::fixes and ::fixing are not carried: only a lint in the calling process has them
// (fix_model() never lints in a worker).
static_assert(sizeof(FileReport) == 952, "FileReport changed: update report_wire.cc");
static_assert(sizeof(Diagnostic) == 600, "Diagnostic changed: update report_wire.cc");
static_assert(sizeof(Location) == 248, "Location changed: update report_wire.cc");
static_assert(sizeof(RelatedLocation) == 280, "RelatedLocation changed: update report_wire.cc");
static_assert(sizeof(ModelSummary) == 408, "ModelSummary changed: update report_wire.cc");
static_assert(sizeof(ValueSignature) == 128, "ValueSignature changed: update report_wire.cc");
static_assert(sizeof(DimSummary) == 56, "DimSummary changed: update report_wire.cc");
static_assert(sizeof(ExternalFile) == 120, "ExternalFile changed: update report_wire.cc");
static_assert(sizeof(ReportSection) == 72, "ReportSection changed: update report_wire.cc");
#endif

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u64(uint64_t v) {
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(v >> (8 * i));
    out_.append(b, 8);
  }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void str(std::string_view s) {
    u64(s.size());
    out_.append(s);
  }
  void flag(bool b) { u8(b ? 1 : 0); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

struct Malformed : std::runtime_error {
  Malformed() : std::runtime_error("malformed report bytes") {}
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  uint8_t u8() {
    need(1);
    return static_cast<uint8_t>(in_[pos_++]);
  }
  uint64_t u64() {
    need(8);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<uint8_t>(in_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  int64_t i64() { return static_cast<int64_t>(u64()); }
  std::string str() {
    const uint64_t n = u64();
    need(n);
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  bool flag() {
    const uint8_t b = u8();
    if (b > 1) throw Malformed();
    return b == 1;
  }
  // A count of items that each take at least `min_bytes`: bounded by what is left, so a bad
  // count cannot make the decoder reserve or loop beyond the input.
  uint64_t count(uint64_t min_bytes = 1) {
    const uint64_t n = u64();
    if (n > (in_.size() - pos_) / min_bytes) throw Malformed();
    return n;
  }
  bool done() const { return pos_ == in_.size(); }

 private:
  void need(uint64_t n) const {
    if (n > in_.size() - pos_) throw Malformed();
  }
  std::string_view in_;
  size_t pos_ = 0;
};

void put(Writer& w, const Location& l) {
  w.str(l.file);
  w.str(l.graph_path);
  w.flag(l.node_index.has_value());
  if (l.node_index) w.u64(*l.node_index);
  w.str(l.node_name);
  w.str(l.op_type);
  w.str(l.domain);
  w.str(l.value_name);
  w.str(l.attribute);
  w.flag(l.byte_offset.has_value());
  if (l.byte_offset) w.u64(*l.byte_offset);
}

Location get_location(Reader& r) {
  Location l;
  l.file = r.str();
  l.graph_path = r.str();
  if (r.flag()) {
    const uint64_t index = r.u64();
    if (index > UINT32_MAX) throw Malformed();
    l.node_index = static_cast<uint32_t>(index);
  }
  l.node_name = r.str();
  l.op_type = r.str();
  l.domain = r.str();
  l.value_name = r.str();
  l.attribute = r.str();
  if (r.flag()) l.byte_offset = r.u64();
  return l;
}

Severity get_severity(Reader& r) {
  const uint8_t s = r.u8();
  if (s > uint8_t(Severity::Error)) throw Malformed();
  return static_cast<Severity>(s);
}

void put(Writer& w, const Diagnostic& d) {
  w.str(d.rule_id);
  w.u8(static_cast<uint8_t>(d.severity));
  w.str(d.message);
  put(w, d.location);
  w.u64(d.notes.size());
  for (const std::string& n : d.notes) w.str(n);
  w.str(d.help);
  w.str(d.target);
  w.u64(d.related.size());
  for (const RelatedLocation& rl : d.related) {
    put(w, rl.location);
    w.str(rl.message);
  }
  w.str(d.key);
  w.str(d.cause);
  w.u64(d.count);
  w.str(d.restates);
  w.u64(d.also.size());
  for (const FoldedFinding& f : d.also) {
    w.str(f.rule_id);
    w.str(f.target);
    w.u8(static_cast<uint8_t>(f.severity));
    w.str(f.message);
  }
  w.u8(static_cast<uint8_t>(d.fix));
  w.str(d.fix_description);
}

Diagnostic get_diagnostic(Reader& r) {
  Diagnostic d;
  d.rule_id = r.str();
  d.severity = get_severity(r);
  d.message = r.str();
  d.location = get_location(r);
  for (uint64_t n = r.count(8); n > 0; --n) d.notes.push_back(r.str());
  d.help = r.str();
  d.target = r.str();
  for (uint64_t n = r.count(8); n > 0; --n) {
    RelatedLocation& rl = d.related.emplace_back();
    rl.location = get_location(r);
    rl.message = r.str();
  }
  d.key = r.str();
  d.cause = r.str();
  const uint64_t count = r.u64();
  if (count == 0 || count > UINT32_MAX) throw Malformed();
  d.count = static_cast<uint32_t>(count);
  d.restates = r.str();
  for (uint64_t n = r.count(8); n > 0; --n) {
    FoldedFinding& f = d.also.emplace_back();
    f.rule_id = r.str();
    f.target = r.str();
    f.severity = get_severity(r);
    f.message = r.str();
  }
  const uint8_t fix = r.u8();
  if (fix > uint8_t(FixSafety::Unsafe)) throw Malformed();
  d.fix = static_cast<FixSafety>(fix);
  d.fix_description = r.str();
  return d;
}

void put(Writer& w, const std::optional<std::vector<DimSummary>>& dims) {
  w.flag(dims.has_value());
  if (!dims) return;
  w.u64(dims->size());
  for (const DimSummary& d : *dims) {
    w.u8(static_cast<uint8_t>(d.kind));
    w.i64(d.value);
    w.str(d.text);
    w.i64(d.bound);
  }
}

std::optional<std::vector<DimSummary>> get_dims(Reader& r) {
  if (!r.flag()) return std::nullopt;
  std::vector<DimSummary> dims;
  for (uint64_t n = r.count(8); n > 0; --n) {
    DimSummary& d = dims.emplace_back();
    const uint8_t kind = r.u8();
    if (kind > uint8_t(DimSummary::Kind::Unknown)) throw Malformed();
    d.kind = static_cast<DimSummary::Kind>(kind);
    d.value = r.i64();
    d.text = r.str();
    d.bound = r.i64();
  }
  return dims;
}

void put(Writer& w, const std::vector<ValueSignature>& values) {
  w.u64(values.size());
  for (const ValueSignature& v : values) {
    w.str(v.name);
    w.str(v.type);
    put(w, v.dims);
    put(w, v.analysis);
  }
}

std::vector<ValueSignature> get_values(Reader& r) {
  std::vector<ValueSignature> out;
  for (uint64_t n = r.count(8); n > 0; --n) {
    ValueSignature& v = out.emplace_back();
    v.name = r.str();
    v.type = r.str();
    v.dims = get_dims(r);
    v.analysis = get_dims(r);
  }
  return out;
}

void put(Writer& w, const ModelSummary& m) {
  w.i64(m.ir_version);
  w.u64(m.opset_imports.size());
  for (const auto& [domain, version] : m.opset_imports) {
    w.str(domain);
    w.i64(version);
  }
  w.str(m.producer_name);
  w.str(m.producer_version);
  w.i64(m.model_version);
  w.str(m.doc_string);
  w.u64(m.doc_string_bytes);
  w.str(m.graph_name);
  w.u64(m.metadata_props.size());
  for (const auto& [key, value] : m.metadata_props) {
    w.str(key);
    w.str(value);
  }
  put(w, m.inputs);
  put(w, m.outputs);
  w.u64(m.ops.size());
  for (const auto& [domain, ops] : m.ops) {
    w.str(domain);
    w.u64(ops.size());
    for (const auto& [op, n] : ops) {
      w.str(op);
      w.u64(n);
    }
  }
  w.u64(m.graphs);
  w.u64(m.nodes);
  w.u64(m.initializers);
  w.u64(m.functions);
  w.u64(m.file_bytes);
  w.u64(m.initializer_bytes);
  w.u64(m.external_bytes);
  w.str(m.sha256);
  w.u64(m.external_data.size());
  for (const ExternalFile& f : m.external_data) {
    w.str(f.location);
    w.u64(f.tensors);
    w.flag(f.bytes.has_value());
    if (f.bytes) w.u64(*f.bytes);
    w.str(f.sha256);
    w.str(f.error);
  }
}

ModelSummary get_model(Reader& r) {
  ModelSummary m;
  m.ir_version = r.i64();
  for (uint64_t n = r.count(16); n > 0; --n) {
    std::string domain = r.str();
    m.opset_imports.emplace_back(std::move(domain), r.i64());
  }
  m.producer_name = r.str();
  m.producer_version = r.str();
  m.model_version = r.i64();
  m.doc_string = r.str();
  m.doc_string_bytes = r.u64();
  m.graph_name = r.str();
  for (uint64_t n = r.count(16); n > 0; --n) {
    std::string key = r.str();
    m.metadata_props.emplace_back(std::move(key), r.str());
  }
  m.inputs = get_values(r);
  m.outputs = get_values(r);
  for (uint64_t n = r.count(16); n > 0; --n) {
    std::map<std::string, uint64_t>& ops = m.ops[r.str()];
    for (uint64_t k = r.count(16); k > 0; --k) {
      std::string op = r.str();
      ops[std::move(op)] = r.u64();
    }
  }
  m.graphs = r.u64();
  m.nodes = r.u64();
  m.initializers = r.u64();
  m.functions = r.u64();
  m.file_bytes = r.u64();
  m.initializer_bytes = r.u64();
  m.external_bytes = r.u64();
  m.sha256 = r.str();
  for (uint64_t n = r.count(8); n > 0; --n) {
    ExternalFile& f = m.external_data.emplace_back();
    f.location = r.str();
    f.tensors = r.u64();
    if (r.flag()) f.bytes = r.u64();
    f.sha256 = r.str();
    f.error = r.str();
  }
  return m;
}

}  // namespace

std::string encode_file_report(const FileReport& report) {
  Writer w;
  w.str(report.path);
  w.u8(static_cast<uint8_t>(report.status));
  w.str(report.error);
  w.flag(report.model.has_value());
  if (report.model) put(w, *report.model);
  w.u64(report.diagnostics.size());
  for (const Diagnostic& d : report.diagnostics) put(w, d);
  w.u64(report.sections.size());
  for (const ReportSection& s : report.sections) {
    w.str(s.name);
    // CBOR: binary, keeps every JSON value (strings that are not UTF-8 too, which a JSON dump
    // would refuse), and the emitters print what comes back exactly as the original.
    const std::vector<uint8_t> data = nlohmann::json::to_cbor(s.data);
    w.str(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
    w.u64(s.text.size());
    for (const std::string& line : s.text) w.str(line);
  }
  w.u64(report.suppressed);
  w.u64(report.baselined);
  w.u64(report.hidden);
  w.u64(report.capped.size());
  for (const auto& [rule, n] : report.capped) {
    w.str(rule);
    w.u64(n);
  }
  w.flag(report.failed);
  w.str(report.config_file);
  w.u64(report.timings.size());
  for (const TimingEntry& t : report.timings) {
    w.u8(static_cast<uint8_t>(t.kind));
    w.str(t.name);
    w.u64(t.nanoseconds);
    w.u64(t.calls);
  }
  return w.take();
}

std::optional<FileReport> decode_file_report(std::string_view bytes) {
  try {
    Reader r(bytes);
    FileReport f;
    f.path = r.str();
    const uint8_t status = r.u8();
    if (status > uint8_t(FileReport::Status::PathError)) return std::nullopt;
    f.status = static_cast<FileReport::Status>(status);
    f.error = r.str();
    if (r.flag()) f.model = get_model(r);
    for (uint64_t n = r.count(8); n > 0; --n) f.diagnostics.push_back(get_diagnostic(r));
    for (uint64_t n = r.count(8); n > 0; --n) {
      ReportSection& s = f.sections.emplace_back();
      s.name = r.str();
      const std::string data = r.str();
      s.data = nlohmann::json::from_cbor(data.begin(), data.end());
      for (uint64_t k = r.count(8); k > 0; --k) s.text.push_back(r.str());
    }
    f.suppressed = r.u64();
    f.baselined = r.u64();
    f.hidden = r.u64();
    for (uint64_t n = r.count(16); n > 0; --n) {
      std::string rule = r.str();
      f.capped[std::move(rule)] = r.u64();
    }
    f.failed = r.flag();
    f.config_file = r.str();
    for (uint64_t n = r.count(8); n > 0; --n) {
      TimingEntry& t = f.timings.emplace_back();
      const uint8_t kind = r.u8();
      if (kind > uint8_t(TimingEntry::Kind::Rule)) return std::nullopt;
      t.kind = static_cast<TimingEntry::Kind>(kind);
      t.name = r.str();
      t.nanoseconds = r.u64();
      t.calls = r.u64();
    }
    if (!r.done()) return std::nullopt;
    return f;
  } catch (const std::exception&) {  // Malformed, or CBOR that nlohmann refuses
    return std::nullopt;
  }
}

}  // namespace onnxlint
