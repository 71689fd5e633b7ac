# find_package(fmt) of the wheel build (python/wheel/CMakeLists.txt): Debian's fmt headers used
# header-only (Debian ships no static libfmt), so the module does not load libfmt.so.
if(NOT TARGET fmt::fmt)
  add_library(fmt::fmt INTERFACE IMPORTED)
  set_target_properties(fmt::fmt PROPERTIES INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
endif()
