# Deployment-target tables: generates target_tables_data.cc from rules/tables/targets/*.json
# (plus extra_facts.json) with tools/gen_target_tables.py, and appends the generated source and
# the lookup code (target_tables.cc) to ONNXLINT_TABLE_SOURCES.
#
# include() this file from rules/CMakeLists.txt. The output goes to
# ${CMAKE_CURRENT_BINARY_DIR}/generated/ of the including directory. Targets compiling these
# sources need the project's include/ directory (onnxlint/targets.h) on their include path.

find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(ONNXLINT_TARGETS_DIR "${CMAKE_CURRENT_LIST_DIR}/targets")
get_filename_component(ONNXLINT_TARGETS_GENERATOR
                       "${CMAKE_CURRENT_LIST_DIR}/../../tools/gen_target_tables.py" ABSOLUTE)
set(ONNXLINT_TARGETS_GENERATED "${CMAKE_CURRENT_BINARY_DIR}/generated/target_tables_data.cc")

# CONFIGURE_DEPENDS: adding or removing a table re-runs the glob at build time.
file(GLOB ONNXLINT_TARGET_JSON CONFIGURE_DEPENDS "${ONNXLINT_TARGETS_DIR}/*.json")
list(SORT ONNXLINT_TARGET_JSON)

add_custom_command(
  OUTPUT "${ONNXLINT_TARGETS_GENERATED}"
  COMMAND "${Python3_EXECUTABLE}" "${ONNXLINT_TARGETS_GENERATOR}" "${ONNXLINT_TARGETS_DIR}"
          "${ONNXLINT_TARGETS_GENERATED}"
  DEPENDS "${ONNXLINT_TARGETS_GENERATOR}" ${ONNXLINT_TARGET_JSON}
  COMMENT "Generating deployment-target tables (target_tables_data.cc)"
  VERBATIM)

list(APPEND ONNXLINT_TABLE_SOURCES "${ONNXLINT_TARGETS_GENERATED}"
     "${CMAKE_CURRENT_LIST_DIR}/target_tables.cc")
