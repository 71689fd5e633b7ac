#include "huge_pages.h"

#if ONNXLINT_USE_MIMALLOC
#include <mimalloc.h>
#include <sys/mman.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <string>
#endif

namespace onnxlint {

// 2 MiB pages for the heap (transparent huge pages where the OS has them): a large graph's
// indexes are fresh memory, and faulting it in 4 KiB pages took a third of a 200k-node run.
// mimalloc's large-page option applies to memory it maps from now on; the segment it mapped
// before main() (for static initializers), which then serves most of the run, is marked
// here: the anonymous mapping that holds a fresh small block.
void use_huge_pages_for_heap() {
#if ONNXLINT_USE_MIMALLOC
  mi_option_enable(mi_option_large_os_pages);
  // A thread's first segments are otherwise reserved uncommitted, and mimalloc gives large
  // pages only to memory it commits up front: the --jobs workers would fault in 4 KiB pages.
  mi_option_set(mi_option_eager_commit_delay, 0);
  void* probe = mi_malloc(16);
  const auto at = reinterpret_cast<uintptr_t>(probe);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) != 2 || at < lo || at >= hi) {
      continue;
    }
    ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // advisory
    break;
  }
  mi_free(probe);
#endif
}

}  // namespace onnxlint
