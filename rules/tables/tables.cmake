# Operator tables: generates the embedded ONNX operator table from the JSON data at build time.
#
# Include from the CMakeLists.txt that defines the target using the sources, e.g. in
# rules/CMakeLists.txt:
#
#   include(${CMAKE_CURRENT_SOURCE_DIR}/tables/tables.cmake)
#   add_library(onnxlint_rules ... ${ONNXLINT_TABLE_SOURCES})
#
# It appends to ONNXLINT_TABLE_SOURCES (in the including scope): the generated
# opset_table_data.cc, opset_table.cc and value_availability.cc. The generated file is a
# custom-command OUTPUT, so the target that lists it must be created in the same directory
# that includes this fragment. Sources include "onnxlint/opset_table.h" from <repo>/include.

include_guard(DIRECTORY)  # one custom command per output per directory

find_package(Python3 REQUIRED COMPONENTS Interpreter)

# Paths relative to this file, so it works whichever CMakeLists.txt includes it.
set(_onnxlint_tables_dir "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(_onnxlint_repo_dir "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(_onnxlint_opset_gen "${_onnxlint_repo_dir}/tools/gen_opset_table.py")
set(_onnxlint_opset_out "${CMAKE_CURRENT_BINARY_DIR}/generated/opset_table_data.cc")

add_custom_command(
  OUTPUT "${_onnxlint_opset_out}"
  COMMAND "${Python3_EXECUTABLE}" "${_onnxlint_opset_gen}"
          --operators "${_onnxlint_tables_dir}/onnx-operators.json"
          --versions "${_onnxlint_tables_dir}/onnx-versions.json"
          "${_onnxlint_opset_out}"
  DEPENDS "${_onnxlint_opset_gen}"
          "${_onnxlint_tables_dir}/onnx-operators.json"
          "${_onnxlint_tables_dir}/onnx-versions.json"
  COMMENT "Generating ONNX operator table (opset_table_data.cc)"
  VERBATIM)

list(APPEND ONNXLINT_TABLE_SOURCES
  "${_onnxlint_opset_out}"
  "${_onnxlint_tables_dir}/opset_table.cc"
  "${_onnxlint_tables_dir}/value_availability.cc")
