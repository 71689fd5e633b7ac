// model-too-large: files or embedded data beyond protobuf's 2 GiB message limit.
#include <fmt/format.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

constexpr uint64_t kProtobufLimit = 2147483647;  // INT32_MAX: protobuf's serialized-size limit

class TooLarge final : public RuleBase<TooLarge> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "model-too-large",
        .category = "model",
        .severity = Severity::Error,
        .summary =
            "Model file or embedded data beyond the 2 GiB protobuf limit that most "
            "runtimes enforce",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_model(const Model& m, RuleContext& ctx) override {
    if (m.file_size() <= kProtobufLimit) return;
    uint64_t embedded = 0;
    for (const Graph* g : m.all_graphs()) {
      for (const TensorData& t : g->initializers()) {
        if (t.storage != TensorData::Storage::External) embedded += t.payload.size;
      }
    }
    Diagnostic& d = ctx.report(
        ctx.at_model(),
        fmt::format("the model file is {:.2f} GiB, over the 2 GiB protobuf limit; onnx, ONNX "
                    "Runtime and TensorRT cannot parse it",
                    static_cast<double>(m.file_size()) / (1ull << 30)));
    d.notes.push_back(fmt::format("{} bytes of it are embedded initializer data", embedded));
    d.help =
        "store the weights as external data: torch.onnx.export(...) writes them "
        "automatically for >2 GiB models, or use onnx.save_model(model, path, "
        "save_as_external_data=True)";
  }
};

}  // namespace

void add_model_too_large(RuleRegistry& registry) { registry.add<TooLarge>(); }

}  // namespace onnxlint::rules
