// Umbrella header for library users.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/data_type.h>
#include <onnxlint/diagnostic.h>
#include <onnxlint/fix.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/linter.h>
#include <onnxlint/loader.h>
#include <onnxlint/model.h>
#include <onnxlint/registry.h>
#include <onnxlint/report.h>
#include <onnxlint/rule.h>
#include <onnxlint/version.h>
