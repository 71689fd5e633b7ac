# Writes ONNX's onnx-ml.proto from libonnx-dev's onnx.proto, for the builds that compile ONNX's
# messages themselves (the static onnx-lint, cmake/onnxlint_static_cli.cmake; the wheel,
# python/wheel/CMakeLists.txt). Debian builds libonnx_proto.so from onnx-ml.proto, which it does
# not install: onnx.proto plus the ONNX-ML type TypeProto.Opaque. Adding it here makes every
# build read the same messages (a value of opaque type is TypeProto::kOpaqueType in each, not an
# unknown field).
#
#   onnxlint_write_onnx_ml_proto(SOURCE OUT_DIR LITE)
#
# writes OUT_DIR/onnx/onnx-ml.proto (rewritten only when it changes, so a reconfigure does not
# recompile the messages). LITE: keep onnx.proto's `optimize_for = LITE_RUNTIME` (the wheel links
# protobuf-lite); otherwise it is dropped, as in Debian's full-runtime onnx-ml.pb.h.
function(onnxlint_write_onnx_ml_proto source out_dir lite)
  file(READ ${source} proto)
  macro(edit what from to)
    string(FIND "${proto}" "${from}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${source}: cannot ${what} (no '${from}')")
    endif()
    string(REPLACE "${from}" "${to}" proto "${proto}")
  endmacro()
  if(lite)
    edit("find the lite-runtime option" "option optimize_for = LITE_RUNTIME;"
         "option optimize_for = LITE_RUNTIME;")
  else()
    edit("drop the lite-runtime option" "option optimize_for = LITE_RUNTIME;" "")
  endif()
  edit("add TypeProto.Opaque" "\n  oneof value {\n" [=[

  message Opaque {
    // When missing, the domain is the same as the model's.
    optional string domain = 1;
    // The name is optional but significant when provided.
    optional string name = 2;
  }

  oneof value {
]=])
  edit("add TypeProto.opaque_type" "    SparseTensor sparse_tensor_type = 8;\n"
       "    SparseTensor sparse_tensor_type = 8;\n\n    Opaque opaque_type = 7;\n")
  file(MAKE_DIRECTORY ${out_dir}/onnx)
  file(WRITE ${out_dir}/onnx-ml.proto.new "${proto}")
  file(COPY_FILE ${out_dir}/onnx-ml.proto.new ${out_dir}/onnx/onnx-ml.proto ONLY_IF_DIFFERENT)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
endfunction()
