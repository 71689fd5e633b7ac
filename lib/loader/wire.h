// A minimal reader for the protobuf wire format over a byte buffer, with 64-bit offsets.
// The loader walks ModelProto/GraphProto/NodeProto/TensorProto with it so that payloads are
// located, not copied, and files over 2 GiB (protobuf's own limit) still load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

namespace onnxlint::wire {

/// Thrown inside the loader; turned into a LoadError (model-unreadable) at the top.
struct Failure {
  std::string message;
  uint64_t offset;
};

enum WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLen = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5
};

struct Field {
  uint32_t number = 0;
  WireType type = kVarint;
  uint64_t varint = 0;      // kVarint, kFixed64, kFixed32 (raw bits)
  uint64_t data = 0;        // kLen: absolute offset of the payload
  uint64_t size = 0;        // kLen: payload length
  uint64_t tag_offset = 0;  // absolute offset of the field's tag
};

class Reader {
 public:
  Reader(std::span<const std::byte> buffer, uint64_t begin, uint64_t end)
      : base_(reinterpret_cast<const uint8_t*>(buffer.data())), pos_(begin), end_(end) {}

  bool done() const { return pos_ >= end_; }
  uint64_t position() const { return pos_; }

  /// Reads the next field. Throws Failure on malformed input. Inlined: the loader reads a
  /// handful of fields per node, and the common case (one-byte tag and length) is a few
  /// instructions; every failure path is out of line.
  [[gnu::always_inline]] Field next() {
    Field f;
    f.tag_offset = pos_;
    const uint64_t tag = varint();
    f.number = static_cast<uint32_t>(tag >> 3);
    f.type = static_cast<WireType>(tag & 7);
    if (tag > UINT32_MAX || f.number == 0) [[unlikely]] {
      bad_tag(tag, f.tag_offset);
    }
    if (f.type == kLen) [[likely]] {
      const uint64_t len_at = pos_;
      const uint64_t len = varint();
      if (len > end_ - pos_) [[unlikely]] {
        past_end(len, f.number, len_at, end_ - pos_);
      }
      f.data = pos_;
      f.size = len;
      pos_ += len;
      return f;
    }
    scalar(f);
    return f;
  }

  [[gnu::always_inline]] uint64_t varint() {
    // Fast path: tags and short lengths are almost always a single byte.
    if (pos_ < end_ && base_[pos_] < 0x80) [[likely]] {
      return base_[pos_++];
    }
    return varint_slow();
  }

  [[noreturn]] static void fail(std::string message, uint64_t offset) {
    throw Failure{std::move(message), offset};
  }

 private:
  void need(uint64_t n) {
    if (n > end_ - pos_) fail("truncated fixed-width field", pos_);
  }

  [[gnu::noinline]] uint64_t varint_slow() {
    uint64_t result = 0;
    const uint64_t start = pos_;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos_ >= end_) fail("truncated varint", start);
      const uint8_t b = base_[pos_++];
      if (shift == 63 && b > 1) fail("varint overflows 64 bits", start);
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
    }
    fail("varint longer than 10 bytes", start);
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void bad_tag(uint64_t tag, uint64_t at) {
    if (tag > UINT32_MAX) fail("field tag out of range", at);
    fail("field number 0 (not a protobuf message)", at);
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void past_end(uint64_t len, uint32_t number,
                                                              uint64_t len_at, uint64_t left) {
    fail("length " + std::to_string(len) + " of field " + std::to_string(number) +
             " runs past the end of its message (" + std::to_string(left) + " bytes left)",
         len_at);
  }

  // The other wire types (out of line: rarer than length-delimited fields in a model).
  [[gnu::noinline]] void scalar(Field& f) {
    switch (f.type) {
      case kVarint:
        f.varint = varint();
        break;
      case kFixed64:
        need(8);
        std::memcpy(&f.varint, base_ + pos_, 8);
        pos_ += 8;
        break;
      case kFixed32: {
        need(4);
        uint32_t v;
        std::memcpy(&v, base_ + pos_, 4);
        f.varint = v;
        pos_ += 4;
        break;
      }
      default:
        fail("unsupported wire type " + std::to_string(static_cast<int>(f.type)) + " for field " +
                 std::to_string(f.number),
             f.tag_offset);
    }
  }

  const uint8_t* base_;
  uint64_t pos_;
  uint64_t end_;
};

inline std::string_view as_string(std::span<const std::byte> buffer, const Field& f) {
  return std::string_view(reinterpret_cast<const char*>(buffer.data()) + f.data, f.size);
}

}  // namespace onnxlint::wire
