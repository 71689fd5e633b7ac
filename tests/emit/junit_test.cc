// JUnit XML: exact document for a small report, failures only at or above --fail-on, errors for
// unreadable models and path errors, XML escaping of any bytes, and validation against Jenkins'
// JUnit XSD (tests/data/junit-10.xsd) with xmllint.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/report.h>

#include <sstream>

#include "emit/validate.h"
#include "support/findings.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Findings at node `name` (index 0) of graph "main" in a.onnx.
FindingAt node_0(std::string name) {
  return {.node = std::move(name), .node_index = 0, .file = "a.onnx"};
}

std::string emit(Report& r, std::optional<Severity> fail_on) {
  decide_verdicts(r, fail_on);
  Linter linter(builtin_registry(), LintOptions{});
  std::stringstream out;
  emit_junit(r, linter, out);
  return out.str();
}

TEST(Junit, OneTestcasePerModelFailuresAtTheThreshold) {
  Report r;
  r.files.resize(3);
  r.files[0].path = "./a.onnx";
  Diagnostic e = finding("graph-dead-node", Severity::Error, "broken", node_0("n1"));
  e.help = "fix";
  r.files[0].diagnostics = {e, finding("graph-dead-node", Severity::Warning, "odd", node_0("n2")),
                            finding("graph-dead-node", Severity::Info, "fyi", node_0("n3"))};
  r.files[1].path = "b.onnx";
  r.files[2].path = "gone.onnx";
  r.files[2].status = FileReport::Status::PathError;
  r.files[2].error = "no such file or folder";
  r.run.targets = {"tensorrt"};
  const std::string xml = emit(r, Severity::Warning);
  EXPECT_EQ(xml,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"onnx-lint\" tests=\"3\" failures=\"1\" errors=\"1\">\n"
            "  <testsuite name=\"onnx-lint\" tests=\"3\" failures=\"1\" errors=\"1\" "
            "skipped=\"0\">\n"
            "    <properties>\n"
            "      <property name=\"fail-on\" value=\"warning\"/>\n"
            "      <property name=\"target\" value=\"tensorrt\"/>\n"
            "    </properties>\n"
            "    <testcase classname=\"onnx-lint\" name=\"a.onnx\">\n"
            "      <failure type=\"graph-dead-node\" message=\"main/n1: broken\">a.onnx: main/n1: "
            "error: broken [graph-dead-node]\n"
            "    help: fix</failure>\n"
            "      <failure type=\"graph-dead-node\" message=\"main/n2: odd\">a.onnx: main/n2: "
            "warning: odd [graph-dead-node]</failure>\n"
            "      <system-out>a.onnx: main/n3: info: fyi [graph-dead-node]\n"
            "</system-out>\n"
            "    </testcase>\n"
            "    <testcase classname=\"onnx-lint\" name=\"b.onnx\">\n"
            "    </testcase>\n"
            "    <testcase classname=\"onnx-lint\" name=\"gone.onnx\">\n"
            "      <error type=\"path-error\" message=\"no such file or folder\">gone.onnx: no "
            "such file or folder</error>\n"
            "    </testcase>\n"
            "  </testsuite>\n"
            "</testsuites>\n");
  EXPECT_EQ(xsd_errors(xml, "junit-10.xsd"), "");
}

TEST(Junit, NothingFailsBelowTheThresholdOrWithFailOnNever) {
  Report r;
  r.files.resize(1);
  r.files[0].path = "a.onnx";
  r.files[0].diagnostics = {finding("graph-dead-node", Severity::Warning, "odd", node_0("n"))};
  Report never = r;
  const std::string at_error = emit(r, Severity::Error);
  EXPECT_THAT(at_error, Not(HasSubstr("<failure")));
  EXPECT_THAT(at_error, HasSubstr("failures=\"0\""));
  EXPECT_THAT(at_error, HasSubstr("<system-out>a.onnx: main/n: warning: odd"));
  const std::string at_never = emit(never, std::nullopt);
  EXPECT_THAT(at_never, Not(HasSubstr("<failure")));
  EXPECT_THAT(at_never, HasSubstr("<property name=\"fail-on\" value=\"never\"/>"));
}

TEST(Junit, UnreadableModelIsAnError) {
  Linter linter(builtin_registry(), LintOptions{});
  Report r;
  r.files.push_back(linter.lint_bytes("bad.onnx", "not a model"));
  const std::string xml = emit(r, Severity::Error);
  EXPECT_THAT(xml, HasSubstr("errors=\"1\""));
  EXPECT_THAT(xml, HasSubstr("<error type=\"model-unreadable\""));
  EXPECT_EQ(xsd_errors(xml, "junit-10.xsd"), "");
}

TEST(Junit, NamesFromTheModelAreEscapedAndStayXml) {
  Report r;
  r.files.resize(1);
  r.files[0].path = "m<&>\"'.onnx";
  // Markup, a control character, a noncharacter (not an XML character), a byte that is not
  // UTF-8, a bidi override and a CDATA end in a node name.
  const std::string name =
      std::string("</failure><x a=\"1\">&amp;\x01\x1b[31m\xEF\xBF\xBF\xFF\xE2\x80\xAE]]>");
  Diagnostic d = finding("graph-dead-node", Severity::Error, "line1\nline2\r", node_0(name));
  d.location.file = r.files[0].path;
  r.files[0].diagnostics = {d};
  const std::string xml = emit(r, Severity::Error);
  EXPECT_EQ(xsd_errors(xml, "junit-10.xsd"), "") << xml;
  EXPECT_THAT(xml, HasSubstr("name=\"m&lt;&amp;&gt;&quot;&apos;.onnx\""));
  EXPECT_THAT(xml, HasSubstr("&lt;/failure&gt;&lt;x a=&quot;1&quot;&gt;&amp;amp;\\x01\\x1b[31m"
                             "\\u{FFFF}\\xff\\u{202E}]]&gt;"));
  EXPECT_THAT(xml, HasSubstr("line1\\x0aline2\\x0d\""));  // attribute: one line
  // Element text too: the only line breaks are the finding's own note lines, so a report
  // printed in a CI log holds no line a model wrote (issue 28, N15).
  EXPECT_THAT(xml, HasSubstr("line1\\x0aline2\\x0d [graph-dead-node]</failure>"));
}

TEST(Junit, EmptyReportIsValid) {
  Report r;
  const std::string xml = emit(r, Severity::Error);
  EXPECT_THAT(xml, HasSubstr("tests=\"0\""));
  EXPECT_EQ(xsd_errors(xml, "junit-10.xsd"), "");
}

}  // namespace
}  // namespace onnxlint::testing
