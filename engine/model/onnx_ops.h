// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The ONNX reader's op table (onnx_ops.cpp): the ops of the slicing family, their inputs and
// their translations. The reader (onnx_reader.cpp) includes this; onnxFamilyOps, the table's
// names, is in onnx_reader.h.

#include "model/model_graph.h"

namespace ss::model {

/// Translates one node (op, rawAttrs, opVersion, inputs with their constants) into display
/// attributes and a request or a reason; the reader's `translate`.
void translateOnnxNode(ModelNode& node);

/// Whether the table has op `op` ("Slice").
bool isOnnxFamilyOp(const std::string& op);

} // namespace ss::model
