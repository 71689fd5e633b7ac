// A file's identity for the caches that read a file once per run (parsed configuration files,
// --hash digests): its device and inode, so that every spelling of a path and every link to the
// file is one entry, plus its size and modification and change times, so that a file rewritten
// in place is read again.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <tuple>

namespace onnxlint {

using FileIdentity = std::tuple<uint64_t, uint64_t, int64_t, int64_t, int64_t, int64_t, int64_t>;

inline FileIdentity file_identity(const struct stat& st) {
  return {static_cast<uint64_t>(st.st_dev),
          static_cast<uint64_t>(st.st_ino),
          static_cast<int64_t>(st.st_size),
          st.st_mtim.tv_sec,
          st.st_mtim.tv_nsec,
          st.st_ctim.tv_sec,
          st.st_ctim.tv_nsec};
}

}  // namespace onnxlint
