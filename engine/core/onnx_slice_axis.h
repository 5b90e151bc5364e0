// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace ss {

/// One axis of ONNX's Slice by the operator's spec (opsets 10 to 13): negative start and end
/// have the size added, then a positive step clamps both into [0, dim], a negative one the start
/// into [0, dim - 1] and the end into [-1, dim - 1]. `step` must not be 0. The onnx_slice op
/// and the ONNX model of a subscript (frameworks library) both read their axes through this one
/// function, which is why it lives in the core, below both.
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

} // namespace ss
