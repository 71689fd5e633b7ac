# Compiler hygiene shared by every target of the project.
function(onnxlint_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
  if(ONNXLINT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(ONNXLINT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
