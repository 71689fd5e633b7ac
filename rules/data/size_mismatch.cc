// data-size-mismatch: embedded payload length disagrees with dims × element size.
#include <fmt/format.h>
#include <onnxlint/data_type.h>

#include "rules/categories.h"
#include "rules/data/external_data.h"

namespace onnxlint::rules {
namespace {

// How many entries the typed field must hold for `n` elements (ONNX packs some types).
std::optional<uint64_t> typed_entries(int32_t data_type, uint64_t n) {
  switch (static_cast<DataType>(data_type)) {
    case DataType::Complex64:   // real/imag pairs in float_data
    case DataType::Complex128:  // pairs in double_data
      // Saturated, never wrapped: no file holds 2^64 entries, so that is a mismatch too.
      return n > UINT64_MAX / 2 ? UINT64_MAX : 2 * n;
    case DataType::Uint4:  // two per int32_data entry
    case DataType::Int4:
    case DataType::Float4E2M1:
      return n / 2 + n % 2;
    case DataType::Uint2:  // four per entry
    case DataType::Int2:
      return n / 4 + (n % 4 != 0);
    case DataType::Undefined:
      return std::nullopt;
    default:
      return n;
  }
}

class SizeMismatch final : public RuleBase<SizeMismatch> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "data-size-mismatch",
        .category = "data",
        .severity = Severity::Error,
        .summary =
            "Embedded tensor payload whose length disagrees with its dims and element "
            "type",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    for_each_tensor(g, [&](const TensorSite& site) {
      const TensorData& t = *site.tensor;
      std::string problem = check(t);
      if (problem.empty()) return;
      Location loc = site.node ? ctx.at_node_value(*site.node, t.name) : ctx.at_value(g, t.name);
      loc.attribute = std::string(site.attribute);
      loc.byte_offset = t.offset;
      Diagnostic& d = ctx.report(std::move(loc), problem);
      d.key = std::string(site.attribute);
      d.help =
          "the tensor was written incorrectly (or the file is corrupt); re-export or "
          "re-save the model";
    });
  }

 private:
  static std::string label(const TensorData& t) {
    std::string dims;
    for (size_t i = 0; i < t.dims.size(); ++i) {
      if (i) dims += ',';
      dims += std::to_string(t.dims[i]);
    }
    return fmt::format("tensor '{}' ({}[{}])", t.name, data_type_name(t.data_type), dims);
  }

  static std::string check(const TensorData& t) {
    auto n = t.element_count();
    if (!n) {
      return fmt::format("{} has negative or overflowing dims", label(t));
    }
    switch (t.storage) {
      case TensorData::Storage::External:
        return {};
      case TensorData::Storage::Raw: {
        auto expected = t.expected_bytes();
        if (expected && *expected != t.payload.size) {
          return fmt::format("{} has {} bytes of raw_data but needs {}", label(t), t.payload.size,
                             *expected);
        }
        if (!expected && data_type_bits(t.data_type)) {  // dims x width past 2^64 bytes
          return fmt::format("{} has {} bytes of raw_data but needs more than 2^64", label(t),
                             t.payload.size);
        }
        return {};
      }
      case TensorData::Storage::Typed: {
        auto expected = typed_entries(t.data_type, *n);
        if (expected && *expected != t.typed_count) {
          return fmt::format("{} holds {} values but needs {}", label(t), t.typed_count, *expected);
        }
        return {};
      }
      case TensorData::Storage::Empty:
        if (*n > 0)
          return fmt::format("{} has no data but its dims need {} elements", label(t), *n);
        return {};
    }
    return {};
  }
};

}  // namespace

void add_data_size_mismatch(RuleRegistry& registry) { registry.add<SizeMismatch>(); }

}  // namespace onnxlint::rules
