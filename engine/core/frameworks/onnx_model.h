// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/frameworks/framework_model.h"

namespace ss {

/// ONNX's reading of a basic-indexing spec (see onnx_model.cpp for the version and rules).
class OnnxModel final : public FrameworkModel
{
public:
    Framework id() const override;
    std::string_view key() const override { return "onnx"; }
    std::string_view title() const override;
    FrameworkOutcome plan(const IndexSpec& spec, const Tensor& input,
                          const Limits& limits) const override;
    std::string code(const IndexSpec& spec, const std::optional<Shape>& shape) const override;
};

namespace frameworks {

/// One axis of ONNX's Slice by the operator's spec (opsets 10 to 13): negative start and end
/// have the size added, then a positive step clamps both into [0, dim], a negative one the start
/// into [0, dim - 1] and the end into [-1, dim - 1]. `step` must not be 0. The ONNX model of a
/// subscript and the onnx_slice op both read their axes through this one function.
struct OnnxSliceAxis
{
    std::int64_t first = 0; ///< the first index read (0 when nothing is read)
    std::int64_t count = 0; ///< how many elements are read, by `step`
    std::string detail;     ///< the rules applied, in words
};
OnnxSliceAxis onnxSliceAxis(std::int64_t dim, std::int64_t start, std::int64_t end,
                            std::int64_t step);
/// A bound as ONNX users write it: "INT64_MAX", "INT64_MIN" or the number.
std::string onnxBound(std::int64_t value);

} // namespace frameworks

} // namespace ss
