// The onnx-lint executable: the allocator set-up (huge_pages.cc), then the command line (cli.cc).
#include "cli.h"
#include "huge_pages.h"

int main(int argc, char** argv) {
  onnxlint::use_huge_pages_for_heap();
  return onnxlint::run_cli(argc, argv);
}
