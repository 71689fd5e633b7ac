# find_package(ONNX) of the wheel build (python/wheel/CMakeLists.txt): onnx_proto is ONNX's
# onnx.proto compiled for the lite protobuf runtime into a static, hidden archive, in place of
# libonnx-dev's libonnx_proto.so.
get_filename_component(_onnxlint_deps "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(ONNX_INCLUDE_DIRS "${_onnxlint_deps}/include")
if(NOT TARGET onnx_proto)
  add_library(onnx_proto STATIC IMPORTED)
  set_target_properties(onnx_proto PROPERTIES
    IMPORTED_LOCATION "${_onnxlint_deps}/lib/libonnx_proto.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_onnxlint_deps}/include"
    INTERFACE_LINK_LIBRARIES protobuf::libprotobuf)
endif()
unset(_onnxlint_deps)
