# find_package(tomlplusplus) of the wheel build (python/wheel/CMakeLists.txt): Debian's toml++
# headers used header-only, so the module does not load libtomlplusplus.so.
if(NOT TARGET tomlplusplus::tomlplusplus)
  add_library(tomlplusplus::tomlplusplus INTERFACE IMPORTED)
  set_target_properties(tomlplusplus::tomlplusplus PROPERTIES
    INTERFACE_COMPILE_DEFINITIONS "TOML_HEADER_ONLY=1")
endif()
