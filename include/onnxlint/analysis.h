// Analyses: facts computed once per model on first request and shared by every rule.
#pragma once

#include <onnxlint/export.h>

#include <cstdint>
#include <memory>
#include <typeindex>
#include <unordered_map>

namespace ONNXLINT_API onnxlint {

class Model;

/// While an analysis is being computed, names it in crash reports (the phase crash isolation
/// and the crash handler print: lib/driver/isolation.cc); the previous name comes back after.
class AnalysisScope {
 public:
  explicit AnalysisScope(const char* type_name);  // typeid(A).name()
  ~AnalysisScope();
  AnalysisScope(const AnalysisScope&) = delete;
  AnalysisScope& operator=(const AnalysisScope&) = delete;

 private:
  uint32_t previous_phase_;
  bool timed_ = false;  // measured as an analysis (LintOptions::timings)
  char previous_[64];
};

/// Per-model cache of analyses. An analysis is any type constructible as
/// `A(const Model&, AnalysisCache&)`; it may request other analyses from the cache.
class AnalysisCache {
 public:
  explicit AnalysisCache(const Model& model) : model_(model) {}
  AnalysisCache(const AnalysisCache&) = delete;
  AnalysisCache& operator=(const AnalysisCache&) = delete;

  template <class A>
  const A& get() {
    auto it = entries_.find(std::type_index(typeid(A)));
    if (it != entries_.end()) return *static_cast<const A*>(it->second.get());
    AnalysisScope named(typeid(A).name());
    auto made = std::make_shared<A>(model_, *this);
    const A& ref = *made;
    entries_.emplace(std::type_index(typeid(A)), std::move(made));
    return ref;
  }

  const Model& model() const { return model_; }

 private:
  const Model& model_;
  std::unordered_map<std::type_index, std::shared_ptr<const void>> entries_;
};

}  // namespace onnxlint
