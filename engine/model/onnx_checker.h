// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// onnx's checker and shape inference, run on a model in a child process (onnx_checker.cpp):
// libonnx 1.12 crashes on some corrupted nodes, and a crash or a minute's run must leave the
// reader (and the GUI) unharmed. The ONNX reader (onnx_reader.cpp) calls it.

#include "model/model_graph.h"

#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace ss::model {

/// onnx.checker and shape inference (initializers and Constant nodes folded in, data
/// propagation on) on `model`, in a child process: the inferred value_info and graph outputs,
/// with their complaints added to `warnings` on one line each. A child that crashes, takes over a
/// minute or cannot start gives an empty model and a warning that says so. Cancelling
/// `limits.job` kills the child and throws OpError(Cancelled).
ONNX_NAMESPACE::ModelProto checkAndInfer(const ONNX_NAMESPACE::ModelProto& model,
                                         const ReadLimits& limits,
                                         std::vector<std::string>& warnings);

} // namespace ss::model
