#include "huge_pages.h"

#if ONNXLINT_USE_MIMALLOC
#include <mimalloc.h>
#include <sys/mman.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>

// Out of memory must throw std::bad_alloc, which the driver turns into the file's internal-error
// finding (issue 28, N12). mimalloc replaces operator new, and when an allocation fails it aborts
// the process (SIGABRT): it looks the new_handler up through a weak symbol that its hidden
// visibility binds to its own stub returning none, so std::set_new_handler is never seen. The
// program's own operator new wins over the library's: these allocate from mimalloc and follow the
// standard (call the new_handler, then throw). Delete frees to mimalloc as before.
namespace {

void* allocate(std::size_t size, std::size_t alignment) {
  if (size == 0) size = 1;
  for (;;) {
    void* p = alignment <= alignof(std::max_align_t) ? mi_malloc(size)
                                                     : mi_malloc_aligned(size, alignment);
    if (p != nullptr) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_or_null(std::size_t size, std::size_t alignment) noexcept {
  try {
    return allocate(size, alignment);
  } catch (...) {
    return nullptr;
  }
}

constexpr std::size_t kDefault = alignof(std::max_align_t);

}  // namespace

void* operator new(std::size_t n) { return allocate(n, kDefault); }
void* operator new[](std::size_t n) { return allocate(n, kDefault); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return allocate_or_null(n, kDefault);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return allocate_or_null(n, kDefault);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate_or_null(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate_or_null(n, std::size_t(a));
}
void operator delete(void* p) noexcept { mi_free(p); }
void operator delete[](void* p) noexcept { mi_free(p); }
void operator delete(void* p, std::size_t) noexcept { mi_free(p); }
void operator delete[](void* p, std::size_t) noexcept { mi_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { mi_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { mi_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { mi_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { mi_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { mi_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { mi_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { mi_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { mi_free(p); }
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
