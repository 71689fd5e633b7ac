#include "driver/unreadable.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <onnxlint/registry.h>
#include <sys/stat.h>
#include <unistd.h>

namespace onnxlint {

namespace {

constexpr std::string_view kLfsPointer = "version https://git-lfs.github.com/spec/";

// The first bytes of a regular file (empty when it cannot be read, or is not a regular file:
// opening a FIFO must not wait for a writer, as in the loader).
std::string file_head(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return {};
  std::string head(kLfsPointer.size(), '\0');
  struct stat st {};
  ssize_t n = -1;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) n = ::read(fd, head.data(), head.size());
  ::close(fd);
  head.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return head;
}

}  // namespace

FileReport unreadable_report(const std::string& path, const LoadError& error,
                             std::optional<std::string_view> bytes) {
  std::string read_head;
  if (!bytes && path != "-") read_head = file_head(path);
  const std::string_view head = bytes ? *bytes : std::string_view(read_head);

  FileReport r;
  r.path = path;
  r.status = FileReport::Status::Unreadable;
  Diagnostic d;
  d.rule_id = std::string(kModelUnreadable);
  d.severity = Severity::Error;
  d.location.file = path;
  d.location.byte_offset = error.offset;
  if (head.starts_with(kLfsPointer)) {
    d.location.byte_offset.reset();
    d.message = "cannot read the model: this is a Git LFS pointer, not the model";
    d.help = "run `git lfs pull` (or `git lfs checkout` for this file) to fetch the model";
  } else if (error.message == "not a regular file") {
    d.location.byte_offset.reset();
    d.message = "cannot read the model: not a regular file (a FIFO, socket or device)";
    d.help = "pass the path of the model file itself; onnx-lint does not wait on a pipe";
  } else {
    d.message = fmt::format("cannot read the model: {} (at byte {})", error.message, error.offset);
    d.help =
        "re-export the model, or check that the file was copied completely (partial downloads "
        "look like this)";
  }
  r.diagnostics.push_back(std::move(d));
  return r;
}

}  // namespace onnxlint
