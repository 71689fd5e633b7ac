// The onnx-lint executable: the allocator set-up (huge_pages.cc: mimalloc, and an operator new
// that throws std::bad_alloc when memory runs out), fatal signals made reportable, then the
// command line (cli.cc).
#include <onnxlint/isolation.h>

#include "cli.h"
#include "huge_pages.h"

int main(int argc, char** argv) {
  onnxlint::use_huge_pages_for_heap();
  // A fatal signal outside isolation (one file, --no-isolate) prints what was running and
  // exits with 3 (docs/cli.md), instead of ending by the signal.
  onnxlint::install_crash_handler();
  return onnxlint::run_cli(argc, argv);
}
