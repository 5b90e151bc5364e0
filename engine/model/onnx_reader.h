// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/model_graph.h"

namespace ss::model {

/// The ONNX reader (`.onnx`): loads the ModelProto with onnx's own classes, runs onnx.checker
/// (its complaints become warnings) and shape inference (initializers and Constant nodes folded
/// in), takes the opset from opset_import, and translates the family's nodes (Slice, Gather,
/// GatherND, GatherElements, Pad, Transpose, Tile, Concat, Split, Squeeze, Unsqueeze,
/// DepthToSpace, SpaceToDepth, OneHot, ReverseSequence, Unique, Compress) into engine requests
/// with ONNX's semantics.
ModelReader onnxModelReader();

/// The ops of the family, as ONNX names them.
const std::vector<std::string>& onnxFamilyOps();

} // namespace ss::model
