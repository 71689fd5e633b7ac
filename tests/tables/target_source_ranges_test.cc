// Each target table read the way its source means it: an operator the source lists as
// supported is accepted at the model opsets the source names for it. This catches a
// documentation floor taken for an op's version range (the WebNN table once started every range
// at 7 because ONNX Runtime only guarantees opset >= 7, so LeakyRelu-6 and GlobalAveragePool-1
// were reported unsupported at opset 13).
#include <gtest/gtest.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/targets.h>

#include <string>
#include <vector>

namespace onnxlint {
namespace {

class SourceRanges : public ::testing::TestWithParam<std::string_view> {};

// The model opsets a range names: its first and (when closed) last version, within the opsets
// the target accepts for the domain and the opsets ONNX defines.
std::vector<int> named_opsets(const TargetInfo& t, std::string_view domain, const VersionRange& r,
                              int newest) {
  std::vector<int> out;
  const int lo = target_min_opset(t, domain), hi = target_max_opset(t, domain);
  for (int m : {r.from, r.to}) {
    if (m <= 0) continue;
    if (lo > 0 && m < lo) m = lo;
    if (hi > 0 && m > hi) m = hi;
    if (m > newest || !r.contains(m)) continue;
    out.push_back(m);
  }
  return out;
}

TEST_P(SourceRanges, ListedOpsAreAcceptedAtTheOpsetsTheSourceNames) {
  const TargetInfo* t = find_target(GetParam());
  ASSERT_NE(t, nullptr);
  if (t->semantics == VersionSemantics::None) GTEST_SKIP() << "the source gives no versions";
  const bool kernel_table = t->source_path.ends_with("OperatorKernels.md");
  size_t checked = 0;
  for (const TargetOp& op : t->ops) {
    if (!op.versions_known || !is_standard_domain(op.domain)) continue;
    const DomainInfo* dom = find_domain(op.domain);
    if (dom == nullptr || op_versions(op.domain, op.op).empty()) continue;
    for (const VersionRange& r : op.versions) {
      for (int m : named_opsets(*t, op.domain, r, dom->max_opset)) {
        const OpSchema* s = resolve_schema(op.domain, op.op, m);
        if (s == nullptr) continue;  // the range starts before the op exists
        if (t->semantics == VersionSemantics::OpSinceVersion && s->since_version < r.from) {
          // OperatorKernels.md lists kernel registrations, and ONNX Runtime matches a node to
          // a kernel by its exact start version: a registration that starts at no schema
          // version (DML's If from 7) is the runtime's own fact, not a floor of the doc.
          if (kernel_table) continue;
        }
        if (t->semantics == VersionSemantics::OpSinceVersion) {
          // A since-version range of a schema that never changes inside it: the doc's numbers
          // are schema since-versions, so a model at opset m uses the version in force at m.
          if (s->since_version < r.from && m == r.from) {
            ADD_FAILURE() << t->id << ": " << op.op << " is listed from version " << r.from
                          << ", but at opset " << m << " the op is " << op.op << "-"
                          << s->since_version << " (no version " << r.from
                          << " exists): the range is a doc floor, not the op's version";
            continue;
          }
        }
        const OpCheck c = check_op(*t, op.domain, op.op, s->since_version, m);
        EXPECT_TRUE(c.supported())
            << t->id << ": " << op.op << " at opset " << m << " (as " << op.op << "-"
            << s->since_version << "): " << to_string(c.verdict) << " " << c.reason;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0u) << t->id << ": no listed op was checked";
}

std::vector<std::string_view> all_target_ids() {
  std::vector<std::string_view> ids;
  for (const TargetInfo& t : all_targets()) ids.push_back(t.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(EveryTable, SourceRanges, ::testing::ValuesIn(all_target_ids()),
                         [](const ::testing::TestParamInfo<std::string_view>& info) {
                           std::string name(info.param);
                           for (char& c : name) {
                             if (c == '-') c = '_';
                             if (c == '@') c = '_';
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace onnxlint
