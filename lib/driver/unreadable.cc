#include "driver/unreadable.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <onnxlint/registry.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <optional>

namespace onnxlint {

namespace {

constexpr std::string_view kLfsPointer = "version https://git-lfs.github.com/spec/";
// Bytes read from the start of a file to tell what it is.
constexpr size_t kHeadBytes = 64;

// What a file that is not a model is, from its first bytes, with the fix; nullopt when it
// does not look like anything known (then the parser's own words are the best description).
struct Kind {
  std::string_view what, help;
};
// Printable ASCII and whitespace, and well-formed UTF-8 for the rest (a sequence cut by the end
// of the head is fine): text. A protobuf's tags and lengths are not.
bool looks_like_text(std::string_view s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u < 0x80) {
      if (u < 0x20 && u != '\n' && u != '\r' && u != '\t') return false;
      if (u == 0x7f) return false;
      ++i;
      continue;
    }
    const size_t len = u >= 0xf0 && u <= 0xf4 ? 4 : u >= 0xe0 ? 3 : u >= 0xc2 && u <= 0xdf ? 2 : 0;
    if (len == 0 || u > 0xf4) return false;
    for (size_t k = 1; k < len; ++k) {
      if (i + k >= s.size()) return true;  // cut by the end of the head
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

std::optional<Kind> file_kind(std::string_view head) {
  auto starts = [&](std::string_view magic) { return head.starts_with(magic); };
  if (starts("PK\x03\x04")) {
    return Kind{"a zip archive (torch.save writes PyTorch checkpoints as one)",
                "export the model to ONNX first: torch.onnx.export(model, example_input, "
                "\"model.onnx\"); a .pt/.pth checkpoint holds weights, not an ONNX graph"};
  }
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x80 && head[1] >= 2 &&
      head[1] <= 5) {
    return Kind{"a Python pickle (a PyTorch checkpoint saved with torch.save)",
                "export the model to ONNX first: torch.onnx.export(model, example_input, "
                "\"model.onnx\")"};
  }
  if (starts("\x89HDF")) {
    return Kind{"an HDF5 file (a Keras model)",
                "convert it to ONNX first (tf2onnx: python -m tf2onnx.convert --keras ...)"};
  }
  if (head.size() >= 8 && head.substr(4, 4) == "TFL3") {
    return Kind{"a TensorFlow Lite model",
                "convert it to ONNX first (python -m tf2onnx.convert --tflite ...)"};
  }
  if (starts("GGUF")) return Kind{"a GGUF model (llama.cpp)", "onnx-lint reads ONNX models"};
  if (starts("\x89PNG") || starts("\xff\xd8\xff") || starts("GIF8")) {
    return Kind{"an image", "pass the .onnx model file"};
  }
  // Text: a web page a download returned, ONNX's text format, or other text.
  size_t i = 0;
  while (i < head.size() &&
         (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) {
    ++i;
  }
  const std::string_view text = head.substr(i);
  auto lower_starts = [&](std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    for (size_t k = 0; k < prefix.size(); ++k) {
      if (std::tolower(static_cast<unsigned char>(text[k])) != prefix[k]) return false;
    }
    return true;
  };
  if (lower_starts("<!doctype html") || lower_starts("<html")) {
    return Kind{"an HTML page (a download that returned a web page instead of the file)",
                "download the model file itself (for a Hugging Face or GitHub link, the "
                "'resolve'/'raw' URL, not the page)"};
  }
  if (text.starts_with("ir_version") || text.starts_with("<\n") ||
      text.starts_with("producer_name")) {
    return Kind{"ONNX in text form, not the binary model",
                "convert it to the binary format: onnx.save(onnx.parser.parse_model(text), "
                "\"model.onnx\") (or protobuf's text_format.Parse for a printed ModelProto)"};
  }
  if (looks_like_text(text)) {
    return Kind{"a text file", "pass the .onnx model file (a binary protobuf)"};
  }
  return std::nullopt;
}

// The first bytes of a regular file (empty when it cannot be read, or is not a regular file:
// opening a FIFO must not wait for a writer, as in the loader).
std::string file_head(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return {};
  std::string head(kHeadBytes, '\0');
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
  } else if (auto kind = error.offset < kHeadBytes && !head.empty()
                             ? file_kind(head.substr(0, std::min(head.size(), kHeadBytes)))
                             : std::nullopt) {
    // Not a model at all: say what the file is, in the user's terms; the parser's words
    // (wire types, fields) only as a note.
    d.message = fmt::format("cannot read the model: the file is {}, not an ONNX model", kind->what);
    d.notes.push_back(
        fmt::format("the protobuf parser stopped at byte {}: {}", error.offset, error.message));
    d.help = std::string(kind->help);
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
