// Markdown summary: exact document for a small report, escaping of names from the model,
// collapsed long lists and the size cap.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/report.h>

#include <sstream>

#include "support/findings.h"

namespace onnxlint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Findings at node `name` (index 0, an Abs) of graph "main" in a.onnx.
FindingAt abs_node(std::string name) {
  return {.node = std::move(name), .node_index = 0, .op_type = "Abs", .file = "a.onnx"};
}

std::string emit(Report& r, std::optional<Severity> fail_on = Severity::Error,
                 size_t max_bytes = kMarkdownMaxBytes) {
  decide_verdicts(r, fail_on);
  Linter linter(builtin_registry(), LintOptions{});
  std::stringstream out;
  emit_markdown(r, linter, out, max_bytes);
  return out.str();
}

TEST(Markdown, VerdictTableAndFindings) {
  Report r;
  r.files.resize(3);
  r.files[0].path = "./a.onnx";
  Diagnostic e = finding("graph-dead-node", Severity::Error, "broken", abs_node("n1"));
  e.notes = {"why"};
  e.help = "fix";
  r.files[0].diagnostics = {e, finding("graph-dead-node", Severity::Info, "fyi", abs_node("n2"))};
  r.files[1].path = "b.onnx";
  r.files[2].path = "gone.onnx";
  r.files[2].status = FileReport::Status::PathError;
  r.files[2].error = "no such file or folder";
  EXPECT_EQ(emit(r),
            "## \xE2\x9D\x8C onnx-lint: 2 of 3 files failed (fail-on: error)\n"
            "\n"
            "| File | Errors | Warnings | Infos | Verdict |\n"
            "|---|---:|---:|---:|---|\n"
            "| a.onnx | 1 | 0 | 1 | \xE2\x9D\x8C fail |\n"
            "| b.onnx | 0 | 0 | 0 | \xE2\x9C\x85 pass |\n"
            "| gone.onnx | – | – | – | \xE2\x9D\x8C no such file or folder |\n"
            "\n"
            "### a.onnx\n"
            "\n"
            "- \xE2\x9D\x8C **error** `graph-dead-node` main/n1 (Abs): broken\n"
            "  - note: why\n"
            "  - help: fix\n"
            "- \xE2\x84\xB9\xEF\xB8\x8F **info** `graph-dead-node` main/n2 (Abs): fyi\n");
}

TEST(Markdown, PassingRun) {
  Report r;
  r.files.resize(1);
  r.files[0].path = "a.onnx";
  r.files[0].diagnostics = {finding("graph-dead-node", Severity::Warning, "odd", abs_node("n"))};
  const std::string md = emit(r);
  EXPECT_THAT(md, HasSubstr("## \xE2\x9C\x85 onnx-lint: 1 file passed (fail-on: error)\n"));
  EXPECT_THAT(md, HasSubstr("| a.onnx | 0 | 1 | 0 | \xE2\x9C\x85 pass |\n"));
}

TEST(Markdown, NamesFromTheModelAreEscaped) {
  Report r;
  r.files.resize(1);
  r.files[0].path = "a|b`c.onnx";
  Diagnostic d = finding("graph-dead-node", Severity::Warning, "m: ok",
                         abs_node("x|y`z<img src=x>*_[l](u)@dev\x1b\n"));
  r.files[0].diagnostics = {d};
  const std::string md = emit(r);
  EXPECT_THAT(md, HasSubstr("| a\\|b\\`c.onnx | 0 | 1 | 0 |"));
  EXPECT_THAT(md,
              HasSubstr("main/x\\|y\\`z&lt;img src=x&gt;\\*\\_\\[l\\](u)@&#8203;dev\\\\x1b\\\\x0a"
                        " (Abs): m\\: ok\n"));
  EXPECT_THAT(md, Not(HasSubstr("<img")));
}

TEST(Markdown, LongListsCollapseAndTheSizeIsCapped) {
  Report r;
  r.files.resize(2);
  r.files[0].path = "a.onnx";
  r.files[1].path = "b.onnx";
  for (int i = 0; i < 200; ++i) {
    Diagnostic d = finding("graph-dead-node", Severity::Warning, std::string(40, 'x'),
                           abs_node("node_" + std::to_string(i)));
    d.location.file = i < 100 ? "a.onnx" : "b.onnx";
    r.files[i < 100 ? 0 : 1].diagnostics.push_back(d);
  }
  const std::string all = emit(r);
  EXPECT_THAT(all, HasSubstr("### a.onnx\n\n<details><summary>100 findings</summary>\n\n- "));
  EXPECT_THAT(all, HasSubstr("\n</details>\n"));
  EXPECT_THAT(all, Not(HasSubstr("not shown")));

  const std::string capped = emit(r, Severity::Error, 4000);
  EXPECT_LE(capped.size(), 4000u);
  EXPECT_THAT(capped, HasSubstr("more findings not shown"));
  EXPECT_THAT(capped, HasSubstr("| b.onnx | 0 | 100 | 0 |"));  // the table is always whole
  EXPECT_THAT(capped, HasSubstr("</details>"));                // and the block is closed

  // The default cap keeps a huge report under a pull-request comment's 65 536 characters.
  Report huge;
  huge.files.resize(1);
  huge.files[0].path = "a.onnx";
  for (int i = 0; i < 5000; ++i) {
    huge.files[0].diagnostics.push_back(
        finding("graph-dead-node", Severity::Info, "m", abs_node("n" + std::to_string(i))));
  }
  const std::string big = emit(huge);
  EXPECT_LE(big.size(), kMarkdownMaxBytes);
  EXPECT_LT(big.size(), 65536u);
  EXPECT_THAT(big, HasSubstr("more findings not shown"));
}

TEST(Markdown, EmptyReport) {
  Report r;
  EXPECT_EQ(emit(r), "## \xE2\x9C\x85 onnx-lint: 0 files passed (fail-on: error)\n\n");
}

}  // namespace
}  // namespace onnxlint::testing
