// Writes the small models the integration scripts commit, lint and baseline, so that the
// scripts need neither Python's onnx nor files that other rules' changes could affect:
//   clean.onnx   no findings in the graph/model categories
//   bad.onnx     graph-undefined-value (an error): node 'Add_bad' reads 'ghost'
//   legacy.onnx  graph-undefined-value (an error): node 'Mul_old' reads 'missing'
//   suppressed.onnx  like bad.onnx, with onnx-lint:disable "graph-undefined-value,
//                graph-dead-nod -- reason": one suppressed finding, one unknown entry
//   external.onnx + external.bin  no findings; the Add's weight W (float[1,4]) is external data
// Usage: onnxlint_make_test_models OUT_DIR
#include <filesystem>
#include <fstream>
#include <iostream>

#include "support/model_builder.h"

namespace {

using onnxlint::testing::ModelBuilder;

std::string clean() {
  ModelBuilder m;
  m.producer("onnxlint-tests", "1");
  m.graph()
      .input("x", onnxlint::testing::kFloat, {1, 4})
      .output("y", onnxlint::testing::kFloat, {1, 4});
  m.graph().node("Relu", {"x"}, {"y"}, "Relu_0");
  return m.bytes();
}

std::string undefined_input(const std::string& node, const std::string& ghost,
                            const std::string& disable = "") {
  ModelBuilder m;
  m.producer("onnxlint-tests", "1");
  if (!disable.empty()) m.metadata("onnx-lint:disable", disable);
  m.graph()
      .input("x", onnxlint::testing::kFloat, {1, 4})
      .output("y", onnxlint::testing::kFloat, {1, 4});
  m.graph().node(node.substr(0, node.find('_')), {"x", ghost}, {"y"}, node);
  return m.bytes();
}

std::string external(const std::string& location) {
  ModelBuilder m;
  m.producer("onnxlint-tests", "1");
  onnx::TensorProto w;
  w.set_name("W");
  w.set_data_type(onnx::TensorProto::FLOAT);
  w.add_dims(1);
  w.add_dims(4);
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* entry = w.add_external_data();
  entry->set_key("location");
  entry->set_value(location);
  entry = w.add_external_data();
  entry->set_key("length");
  entry->set_value("16");
  m.graph()
      .input("x", onnxlint::testing::kFloat, {1, 4})
      .output("y", onnxlint::testing::kFloat, {1, 4})
      .initializer(w);
  m.graph().node("Add", {"x", "W"}, {"y"}, "Add_0");
  return m.bytes();
}

bool write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: onnxlint_make_test_models OUT_DIR\n";
    return 2;
  }
  std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  bool ok = write(dir / "clean.onnx", clean()) &&
            write(dir / "bad.onnx", undefined_input("Add_bad", "ghost")) &&
            write(dir / "legacy.onnx", undefined_input("Mul_old", "missing")) &&
            write(dir / "suppressed.onnx",
                  undefined_input("Add_bad", "ghost",
                                  "graph-undefined-value, graph-dead-nod -- known, fixed in v2")) &&
            write(dir / "external.onnx", external("external.bin")) &&
            write(dir / "external.bin", std::string(16, '\0'));
  return ok ? 0 : 1;
}
