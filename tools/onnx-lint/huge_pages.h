// The onnx-lint command's allocator set-up: mimalloc with 2 MiB pages, and (huge_pages.cc) the
// program's operator new/delete over mimalloc, which throw std::bad_alloc when memory runs out
// where mimalloc's own abort. Its own file because it reads /proc/self/maps, which has nothing to
// do with the command line; the library and the Python module keep whatever allocator their host
// uses.
#pragma once

namespace onnxlint {

/// Asks mimalloc for large OS pages and marks the heap segment it mapped before main() for
/// transparent huge pages. Call first thing in main(). Does nothing in builds without mimalloc
/// (ONNXLINT_USE_MIMALLOC off, e.g. sanitizer builds).
void use_huge_pages_for_heap();

}  // namespace onnxlint
