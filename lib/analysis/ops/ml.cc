// The ai.onnx.ml operators (classical ML: trees, linear models, encoders), and the
// ai.onnx.preview and ai.onnx.preview.training ones. Outputs follow input shapes; types follow
// the schemas (outputs whose type an attribute picks, LabelEncoder's or CastMap's, stay
// unknown).
#include "analysis/ops/registry.h"

namespace onnxlint::ops {
namespace {

constexpr OpEntry preview(std::string_view op) { return entry("ai.onnx.preview", op, 1); }
constexpr OpEntry training(std::string_view op) { return entry("ai.onnx.preview.training", op, 1); }

constexpr OpEntry kOps[] = {
    ml("ArrayFeatureExtractor", 1),
    ml("Binarizer", 1),
    ml("CastMap", 1),
    ml("CategoryMapper", 1),
    ml("DictVectorizer", 1),
    ml("FeatureVectorizer", 1),
    ml("Imputer", 1),
    ml("LabelEncoder", 1),
    ml("LinearClassifier", 1),
    ml("LinearRegressor", 1),
    ml("Normalizer", 1),
    ml("OneHotEncoder", 1),
    ml("SVMClassifier", 1),
    ml("SVMRegressor", 1),
    ml("Scaler", 1),
    ml("TreeEnsemble", 1),
    ml("TreeEnsembleClassifier", 1),
    ml("TreeEnsembleRegressor", 1),
    ml("ZipMap", 1),
    preview("FlexAttention"),
    training("Adagrad"),
    training("Adam"),
    training("Gradient"),
    training("Momentum"),
};

}  // namespace

std::span<const OpEntry> ml_ops() { return kOps; }

}  // namespace onnxlint::ops
