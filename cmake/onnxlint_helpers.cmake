# Compiler hygiene shared by every target of the project.
function(onnxlint_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 (Debian 12's) warns on `"literal" + std::string` where inlining at -O2 makes it
    # look like an overlapping memcpy: a false -Wrestrict (GCC bug 105329, fixed in 13), raised
    # at some of the many such sites depending on the build's flags.
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(ONNXLINT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(ONNXLINT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

if(ONNXLINT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "ONNXLINT_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++")
  endif()
  # Everything instrumented for coverage and checked by ASan+UBSan; libFuzzer's main is linked
  # into the fuzz targets only (tests/fuzz).
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
