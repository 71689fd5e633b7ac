# Installs the libraries, headers, CLI and a CMake package so that find_package(onnxlint) works.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ONNXLINT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/onnxlint)

install(TARGETS onnxlint_core onnxlint_rules onnxlint
  EXPORT onnxlint-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/onnxlint DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET onnx-lint)
  install(TARGETS onnx-lint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT onnxlint-targets NAMESPACE onnxlint:: DESTINATION ${ONNXLINT_CMAKE_DIR})
export(EXPORT onnxlint-targets NAMESPACE onnxlint::
       FILE ${PROJECT_BINARY_DIR}/onnxlint-targets.cmake)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/onnxlint-config.cmake.in
  ${PROJECT_BINARY_DIR}/onnxlint-config.cmake INSTALL_DESTINATION ${ONNXLINT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/onnxlint-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/onnxlint-config.cmake
              ${PROJECT_BINARY_DIR}/onnxlint-config-version.cmake
        DESTINATION ${ONNXLINT_CMAKE_DIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/onnxlint.pc.in ${PROJECT_BINARY_DIR}/onnxlint.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/onnxlint.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
