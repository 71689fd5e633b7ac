# CPack: `cpack -G DEB` in a build folder makes onnxlint_<version>_<arch>.deb of what `cmake
# --install` installs: the command with its man page and completions, the libraries, headers,
# CMake package and pkg-config file (tools/dev.sh deb; docs/install.md). Configure with
# -DCMAKE_INSTALL_PREFIX=/usr: the package installs under the same prefix, so the library folder
# is Debian's multiarch one (GNUInstallDirs).
set(ONNXLINT_PACKAGE_CONTACT "onnx-lint maintainers"
    CACHE STRING "Maintainer field of the .deb (cmake/onnxlint_cpack.cmake)")

set(CPACK_PACKAGE_NAME onnxlint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${ONNXLINT_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "static linter for ONNX models (command and C++ library)")
set(CPACK_PACKAGE_DESCRIPTION
    "onnx-lint reads a .onnx file without a runtime and reports what will break when the model
meets ONNX Runtime, TensorRT, OpenVINO, CoreML, NNAPI or a converter: dynamic shapes and why,
data-dependent control flow, ops newer than the pinned opset, training-mode exports, unsupported
ops per target runtime, broken external data and structural errors.
.
This package holds the onnx-lint command (man page, bash, zsh and fish completions) and the C++
library with its headers, CMake package (find_package(onnxlint)) and pkg-config file.")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # onnxlint_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The command's shared libraries (libprotobuf, libonnx_proto, fmt, toml++, libcrypto, mimalloc,
# libstdc++, glibc): dpkg-shlibdeps (dpkg-dev) finds their packages and versions.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The libraries are static archives: what links them needs the packages their CMake package
# finds (cmake/onnxlint-config.cmake.in) and the header nlohmann/json.hpp.
get_target_property(_onnxlint_core_type onnxlint_core TYPE)
if(_onnxlint_core_type STREQUAL "STATIC_LIBRARY")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "nlohmann-json3-dev, libprotobuf-dev, libonnx-dev, libfmt-dev, libtomlplusplus-dev, libssl-dev")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "nlohmann-json3-dev")
endif()
unset(_onnxlint_core_type)
include(CPack)
