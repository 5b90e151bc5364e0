// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The small computations exporters write around a slicing node (torch.onnx.export's chunk:
// Shape -> Gather -> Add -> Div -> Mul into Slice's ends; F.pad: ConstantOfShape -> Concat ->
// Reshape -> Slice -> Transpose -> Cast into Pad's pads), folded when the file fixes their
// inputs: the shapes it stores in full and its constants. The ONNX reader (onnx_reader.cpp) runs
// every node through foldNode in graph order, so a Slice whose ends follow from a static input
// shape gets them as values instead of "computed at run time". The family's own ops (Gather,
// Concat, Slice, Unsqueeze, ...) are computed by the engine with ONNX's semantics (the op table);
// the others (Shape, Cast, integer arithmetic, Range, ...) here, on small integer tensors only.

#include "core/executor.h"
#include "model/model_graph.h"

#include <optional>
#include <vector>

namespace ss::model {

/// What a node outside the family carries besides its integer and string attributes.
struct FoldAttributes
{
    /// ConstantOfShape's `value` (absent: float 0, as ONNX says).
    std::optional<Tensor> value;
    /// Cast's `to`, when it is a type SliceScope has.
    std::optional<DType> to;
};

/// The most elements a folded value may have: shape computations are short, and a hostile file
/// must not make the reader fill memory with ConstantOfShape.
constexpr std::int64_t kMaxFoldedElements = 1 << 16;

/// The values of `node`'s outputs, computed from its inputs' constants (and, for Shape and Size,
/// their stored shapes), or none: an input is unknown, the op is not one this folds, or ONNX
/// would refuse it (the runtime's error is left to the runtime). `node` is as the reader
/// describes it (op, opVersion, inputs, outputs, rawAttrs); `executor` runs the family's ops.
std::optional<std::vector<Tensor>> foldNode(const ModelNode& node, const FoldAttributes& extra,
                                            Executor& executor);

} // namespace ss::model
