# Installs the libraries, headers, CLI, a CMake package (find_package(onnxlint)) and a
# pkg-config file. Tested by tests/package (install to a temporary prefix, build a consumer).
# The static command's build (ONNXLINT_STATIC_CLI) installs the command, its completions and man
# page only: its libraries link ONNX's messages compiled in the build tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ONNXLINT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/onnxlint)

if(TARGET onnx-lint)
  install(TARGETS onnx-lint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # Generated from the command's option definitions (tools/CMakeLists.txt).
  install(FILES ${ONNXLINT_GENERATED_DIR}/onnx-lint.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME onnx-lint)
  install(FILES ${ONNXLINT_GENERATED_DIR}/_onnx-lint
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
  install(FILES ${ONNXLINT_GENERATED_DIR}/onnx-lint.fish
          DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
  install(FILES ${ONNXLINT_GENERATED_DIR}/onnx-lint.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
if(ONNXLINT_STATIC_CLI)
  return()
endif()

install(TARGETS onnxlint_core onnxlint_rules onnxlint
  EXPORT onnxlint-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/onnxlint DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/include/onnxlint/version.h
              ${PROJECT_BINARY_DIR}/include/onnxlint/export.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/onnxlint)

install(EXPORT onnxlint-targets NAMESPACE onnxlint:: DESTINATION ${ONNXLINT_CMAKE_DIR})
# Build-tree package: find_package(onnxlint) with onnxlint_DIR=<build dir> also works.
export(EXPORT onnxlint-targets NAMESPACE onnxlint::
       FILE ${PROJECT_BINARY_DIR}/onnxlint-targets.cmake)

# Static archives carry no dependency information: the package config must find what they link
# privately. Shared libraries only need the public (header) dependency.
get_target_property(ONNXLINT_CORE_TYPE onnxlint_core TYPE)
if(ONNXLINT_CORE_TYPE STREQUAL "STATIC_LIBRARY")
  set(ONNXLINT_STATIC ON)
else()
  set(ONNXLINT_STATIC OFF)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/onnxlint-config.cmake.in
  ${PROJECT_BINARY_DIR}/onnxlint-config.cmake INSTALL_DESTINATION ${ONNXLINT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/onnxlint-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/onnxlint-config.cmake
              ${PROJECT_BINARY_DIR}/onnxlint-config-version.cmake
        DESTINATION ${ONNXLINT_CMAKE_DIR})

# pkg-config: relocatable (prefix found from the .pc file's own folder), so that
# `cmake --install --prefix X` and packaging with DESTDIR both give a correct file.
set(ONNXLINT_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH ONNXLINT_PC_TO_PREFIX /${ONNXLINT_PC_DIR} /)
string(REGEX REPLACE "/$" "" ONNXLINT_PC_TO_PREFIX "${ONNXLINT_PC_TO_PREFIX}")
if(ONNXLINT_STATIC)
  set(ONNXLINT_PC_REQUIRES "nlohmann_json protobuf fmt tomlplusplus libcrypto")
  set(ONNXLINT_PC_REQUIRES_PRIVATE "")
  set(ONNXLINT_PC_LIBS_DEPS "-lonnx_proto -pthread")
else()
  set(ONNXLINT_PC_REQUIRES "nlohmann_json")
  set(ONNXLINT_PC_REQUIRES_PRIVATE "protobuf fmt tomlplusplus libcrypto")
  set(ONNXLINT_PC_LIBS_DEPS "")
endif()
if(ONNXLINT_SANITIZE)
  # A sanitized build's libraries need the sanitizer runtimes in whatever links them.
  string(APPEND ONNXLINT_PC_LIBS_DEPS " -fsanitize=address,undefined")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/onnxlint.pc.in ${PROJECT_BINARY_DIR}/onnxlint.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/onnxlint.pc DESTINATION ${ONNXLINT_PC_DIR})

# The .deb (cpack -G DEB; tools/dev.sh deb).
include(onnxlint_cpack)
