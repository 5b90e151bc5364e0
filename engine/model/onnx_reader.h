// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/model_graph.h"

namespace ss::model {

/// The ONNX reader (`.onnx`): loads the ModelProto with onnx's own classes, runs onnx.checker
/// (its complaints become warnings) and shape inference (initializers and Constant nodes folded
/// in), takes the opset from opset_import, and translates the family's nodes (its op table,
/// onnx_ops.cpp: `ops`) into engine requests with ONNX's semantics.
ModelReader onnxModelReader();

/// The tensor an ONNX TensorProto file holds (`bytes`: the file's contents), read as the reader
/// reads initializers: the node tests' `test_data_set_0/input_0.pb`. Throws
/// OpError(invalid_argument) starting with `path` if it does not parse or has no value SliceScope
/// can take (an external file, a type it lacks, more than `limits.maxConstantElements`).
Tensor readOnnxTensor(const std::string& path, const std::string& bytes, const ReadLimits& limits);

/// The ops of the family, as ONNX names them: the op table's (onnx_ops.cpp), in its order.
const std::vector<std::string>& onnxFamilyOps();

} // namespace ss::model
