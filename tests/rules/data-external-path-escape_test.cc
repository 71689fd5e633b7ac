#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "loader/external_model.h"
#include "loader/temp_dir.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "data-external-path-escape";

// A model folder "model/" with a weights file, next to a folder "outside/" that holds a file
// the model must never reach.
struct Layout {
  TempDir root;
  Layout() {
    root.write("model/w.bin", std::string(16, '\0'));
    root.write("model/weights/w.bin", std::string(16, '\0'));
    root.write("outside/secret.bin", std::string(16, '\0'));
  }
  std::string model(const std::string& location) {
    return root.write("model/model.onnx",
                      model_with_initializer(external_tensor("W", {4}, location)).bytes());
  }
  std::string message(const std::string& location) {
    auto d = file_diagnostics(kRule, model(location));
    EXPECT_EQ(d.size(), 1u) << location;
    return d.empty() ? "" : d[0].message;
  }
};

TEST(DataExternalPathEscape, AbsolutePath) {
  Layout l;
  const std::string target = l.root.str("outside/secret.bin");
  EXPECT_THAT(file_findings(kRule, l.model(target)),
              ElementsAre("data-external-path-escape main:'W'"));
  EXPECT_EQ(l.message(target),
            "external data location '" + target + "' of tensor 'W' is an absolute path");
  EXPECT_EQ(file_diagnostics(kRule, l.model(target))[0].severity, Severity::Error);
}

TEST(DataExternalPathEscape, WindowsAbsolutePaths) {
  Layout l;
  EXPECT_THAT(l.message("C:\\weights\\w.bin"), HasSubstr("is an absolute path"));
  EXPECT_THAT(l.message("\\\\server\\share\\w.bin"), HasSubstr("is an absolute path"));
}

TEST(DataExternalPathEscape, ParentFolder) {
  Layout l;
  EXPECT_EQ(l.message("../outside/secret.bin"),
            "external data location '../outside/secret.bin' of tensor 'W' is outside the "
            "model's folder ('..')");
  EXPECT_THAT(l.message("weights/../../outside/secret.bin"), HasSubstr("outside the model's"));
  EXPECT_THAT(l.message("..\\outside\\secret.bin"), HasSubstr("outside the model's"));
  EXPECT_THAT(l.message(".."), HasSubstr("outside the model's"));
}

TEST(DataExternalPathEscape, SymlinkToAFileOutside) {
  Layout l;
  ASSERT_EQ(
      ::symlink(l.root.str("outside/secret.bin").c_str(), l.root.str("model/link.bin").c_str()), 0);
  EXPECT_EQ(l.message("link.bin"),
            "external data location 'link.bin' of tensor 'W' resolves through a symlink to a "
            "file outside the model's folder");  // the target's path is not revealed
}

TEST(DataExternalPathEscape, SymlinkedFolderLeadingOut) {
  Layout l;
  ASSERT_EQ(::symlink("../outside", l.root.str("model/shared").c_str()), 0);
  EXPECT_THAT(l.message("shared/secret.bin"), HasSubstr("through a symlink"));
  // For the OS, "shared/.." is the parent of the symlink's target, not "model/": lexically
  // this looks like "model/outside/secret.bin", but it resolves to the outside folder.
  EXPECT_THAT(l.message("shared/../outside/secret.bin"), HasSubstr("through a symlink"));
}

TEST(DataExternalPathEscape, NearMissPathsInsideTheFolder) {
  Layout l;
  EXPECT_THAT(file_findings(kRule, l.model("w.bin")), IsEmpty());
  EXPECT_THAT(file_findings(kRule, l.model("weights/w.bin")), IsEmpty());
  EXPECT_THAT(file_findings(kRule, l.model("./weights/w.bin")), IsEmpty());
  // ".." that stays inside is fine (ONNX's checker folds it the same way).
  EXPECT_THAT(file_findings(kRule, l.model("weights/../w.bin")), IsEmpty());
  // A symlink that stays inside the folder is fine.
  ASSERT_EQ(::symlink("weights/w.bin", l.root.str("model/alias.bin").c_str()), 0);
  EXPECT_THAT(file_findings(kRule, l.model("alias.bin")), IsEmpty());
  // A missing file is data-external-missing's business.
  EXPECT_THAT(file_findings(kRule, l.model("gone.bin")), IsEmpty());
}

TEST(DataExternalPathEscape, NestedInLoopBody) {
  Layout l;
  auto m = model_with_initializer(external_tensor("W", {4}, "../outside/secret.bin"));
  std::string model = l.root.write("model/nested.onnx", nest_in_loop(m.proto()));
  EXPECT_THAT(file_findings(kRule, model),
              ElementsAre(std::string("data-external-path-escape ") + kNestedPath + ":'W'"));
}

TEST(DataExternalPathEscape, NestedInIfBranch) {
  Layout l;
  auto m = model_with_initializer(external_tensor("W", {4}, "/etc/passwd"));
  std::string model = l.root.write("model/nested.onnx", nest_in_if(m.proto()));
  EXPECT_THAT(file_findings(kRule, model),
              ElementsAre(std::string("data-external-path-escape ") + kNestedIfPath + ":'W'"));
}

}  // namespace
}  // namespace onnxlint::testing
