// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ss {

/// Dimension sizes, outermost first. Row-major (C order) everywhere.
using Shape = std::vector<std::int64_t>;

/// The largest rank a tensor may have. TensorFlow itself has no cap of 8 (its TensorShape allows
/// 254 dimensions); each kernel has its own limit instead, which the op reproduces with
/// TensorFlow's message (StridedSlice's 8 processing dimensions, MirrorPad's 5, ...). 32 is
/// the most a strided-slice spec can address (its masks are 32 bits) and far beyond any kernel
/// limit.
inline constexpr int kMaxRank = 32;

/// Product of the sizes, or std::nullopt if a size is negative or the sizes other than 0
/// multiply past int64: as NumPy ("array is too big"), a 0 does not make [2^62, 2^62, 0] valid.
/// Every shape check (Limits::check, parseShape, the .npy and JSON readers) comes here.
std::optional<std::int64_t> checkedNumElements(const Shape& shape);
/// Product of the sizes of a shape known to be valid.
std::int64_t numElements(const Shape& shape);
/// Row-major element strides: the last is 1.
std::vector<std::int64_t> rowMajorStrides(const Shape& shape);
/// TensorFlow's TensorShape::DebugString form: "[2,3]", "[]".
std::string shapeString(const Shape& shape);
/// Any integer list in the same form: "[1,-2]".
std::string listString(const std::vector<std::int64_t>& values);
/// Python tuple form used in explanations: "(2, 3)", "(5,)", "()".
std::string shapeTuple(const Shape& shape);

/// The broadcast shape of `shapes` (NumPy's rule: right-aligned, 1 stretches), or nothing.
std::optional<Shape> broadcastShapes(const std::vector<Shape>& shapes);

/// Splits a flat row-major index into coordinates.
std::vector<std::int64_t> unravelIndex(std::int64_t flat, const Shape& shape);
/// Joins coordinates into a flat row-major index.
std::int64_t ravelIndex(const std::vector<std::int64_t>& coords, const Shape& shape);

} // namespace ss
