#include "util/arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace onnxlint {

namespace {

constexpr size_t kFirstBlock = size_t{64} << 10;  // small models stay in one small block
constexpr size_t kMaxBlock = size_t{64} << 20;
constexpr size_t kHugePage = size_t{2} << 20;

// Blocks come straight from mmap: large ones are 2 MiB aligned and marked for transparent
// huge pages, so a 100 MiB model view takes ~50 page faults instead of ~25 000 (faults are
// the most expensive part of touching fresh memory, markedly so in virtual machines).
std::byte* map_block(size_t size) {
  const bool huge = size >= kHugePage;
  const size_t request = huge ? size + kHugePage : size;
  void* p = ::mmap(nullptr, request, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  auto* base = static_cast<std::byte*>(p);
  if (!huge) return base;
  const auto addr = reinterpret_cast<uintptr_t>(base);
  const size_t head = ((addr + kHugePage - 1) & ~(kHugePage - 1)) - addr;
  if (head > 0) ::munmap(base, head);
  if (kHugePage - head > 0) ::munmap(base + head + size, kHugePage - head);
  ::madvise(base + head, size, MADV_HUGEPAGE);  // advisory: ignored where THP is off
  return base + head;
}

}  // namespace

Arena::~Arena() {
  for (const Block& b : blocks_) ::munmap(b.base, b.size);
}

void* Arena::allocate(size_t bytes, size_t align) {
  auto fits = [&] {
    const auto at = reinterpret_cast<uintptr_t>(cursor_);
    const uintptr_t aligned = (at + align - 1) & ~(uintptr_t{align} - 1);
    return cursor_ != nullptr && aligned + bytes <= reinterpret_cast<uintptr_t>(end_);
  };
  if (!fits()) grow(bytes + align);
  const auto at = reinterpret_cast<uintptr_t>(cursor_);
  auto* p = reinterpret_cast<std::byte*>((at + align - 1) & ~(uintptr_t{align} - 1));
  cursor_ = p + bytes;
  return p;
}

std::string_view Arena::copy_string(std::string_view s) {
  if (s.empty()) return {};
  auto* p = static_cast<char*>(allocate(s.size(), 1));
  std::memcpy(p, s.data(), s.size());
  return {p, s.size()};
}

void Arena::grow(size_t at_least) {
  // Doubling keeps the number of blocks logarithmic; the cap bounds the untouched tail.
  size_t size = blocks_.empty() ? kFirstBlock : std::min(blocks_.back().size * 2, kMaxBlock);
  size = std::max(size, at_least);
  if (size >= kHugePage) size = (size + kHugePage - 1) & ~(kHugePage - 1);
  std::byte* base = map_block(size);
  blocks_.push_back(Block{base, size});
  reserved_ += size;
  cursor_ = base;
  end_ = base + size;
}

}  // namespace onnxlint
