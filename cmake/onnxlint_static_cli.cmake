# ONNXLINT_STATIC_CLI: onnx-lint as one statically linked executable (-static: glibc, libstdc++,
# protobuf, libcrypto and ONNX's messages inside; docs/install.md). Included by the top-level
# CMakeLists.txt before its find_package calls: the names lib/ and tools/ link (onnx_proto,
# fmt::fmt, tomlplusplus::tomlplusplus, protobuf::libprotobuf, OpenSSL::Crypto) then resolve to
# static archives or header-only targets.
#  - protobuf, libcrypto: Debian's libprotobuf.a and libcrypto.a (FindProtobuf, FindOpenSSL).
#  - fmt: Debian has no libfmt.a; fmt::fmt is the package's fmt::fmt-header-only.
#  - toml++: no static archive either; header-only (TOML_HEADER_ONLY=1).
#  - onnx_proto: libonnx-dev has libonnx_proto.so only. ONNX's messages are generated here, with
#    Debian's protoc, from the onnx.proto libonnx-dev installs, into a static library.
#  - mimalloc: no static archive in Debian; the static command keeps glibc's allocator
#    (tools/CMakeLists.txt).
# The default build is unchanged: it links the system's shared libraries.
if(BUILD_SHARED_LIBS)
  message(FATAL_ERROR "ONNXLINT_STATIC_CLI links static libraries: leave BUILD_SHARED_LIBS off")
endif()
if(ONNXLINT_SANITIZE OR ONNXLINT_FUZZ)
  message(FATAL_ERROR "ONNXLINT_STATIC_CLI does not combine with ONNXLINT_SANITIZE or ONNXLINT_FUZZ")
endif()
if(NOT ONNXLINT_BUILD_TOOLS)
  message(FATAL_ERROR "ONNXLINT_STATIC_CLI builds the onnx-lint command: ONNXLINT_BUILD_TOOLS=ON")
endif()

set(Protobuf_USE_STATIC_LIBS ON)
set(OPENSSL_USE_STATIC_LIBS TRUE)
find_package(Threads REQUIRED)
find_package(Protobuf REQUIRED)

add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/static-cli ${PROJECT_BINARY_DIR}/static-cli)

# fmt: the later find_package(fmt) sees both of its targets defined and keeps them.
add_library(fmt::fmt ALIAS fmt::fmt-header-only)

# toml++: the package's config defines its target only when there is none yet.
add_library(tomlplusplus::tomlplusplus INTERFACE IMPORTED)
set_target_properties(tomlplusplus::tomlplusplus PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${ONNXLINT_STATIC_TOML_INCLUDE_DIRS}"
  INTERFACE_COMPILE_DEFINITIONS "TOML_HEADER_ONLY=1")
target_compile_features(tomlplusplus::tomlplusplus INTERFACE cxx_std_17)

# ONNX's messages. onnx_pb.h (ONNX_ML=1) includes onnx/onnx-ml.pb.h: Debian builds that from
# onnx-ml.proto, which it does not install. onnx-ml.proto is onnx.proto with the ONNX-ML parts
# (TypeProto.Opaque) and without the lite-runtime option, so that is what is written here; the
# header protoc makes of it is Debian's onnx-ml.pb.h but for its ONNX_API export macro.
set(ONNXLINT_ONNX_PROTO_DIR ${PROJECT_BINARY_DIR}/onnx-proto)
include(onnxlint_onnx_ml_proto)
onnxlint_write_onnx_ml_proto(${ONNXLINT_ONNX_PROTO_FILE} ${ONNXLINT_ONNX_PROTO_DIR} OFF)

add_custom_command(
  OUTPUT ${ONNXLINT_ONNX_PROTO_DIR}/onnx/onnx-ml.pb.cc ${ONNXLINT_ONNX_PROTO_DIR}/onnx/onnx-ml.pb.h
  COMMAND protobuf::protoc --cpp_out=${ONNXLINT_ONNX_PROTO_DIR} -I${ONNXLINT_ONNX_PROTO_DIR}
          onnx/onnx-ml.proto
  DEPENDS ${ONNXLINT_ONNX_PROTO_DIR}/onnx/onnx-ml.proto protobuf::protoc
  COMMENT "Generating ONNX's messages (onnx-ml.pb.cc) for the static onnx-lint"
  VERBATIM)
# Named as ONNX's target, which lib/ and tools/ link; find_package(ONNX) is not called at this
# level. Its include folder comes before /usr/include, so <onnx/onnx_pb.h> includes this header.
add_library(onnx_proto STATIC ${ONNXLINT_ONNX_PROTO_DIR}/onnx/onnx-ml.pb.cc)
target_include_directories(onnx_proto SYSTEM PUBLIC ${ONNXLINT_ONNX_PROTO_DIR})
target_compile_definitions(onnx_proto PUBLIC ${ONNXLINT_STATIC_ONNX_DEFINITIONS})
target_link_libraries(onnx_proto PUBLIC protobuf::libprotobuf)
