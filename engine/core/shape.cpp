// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/shape.h"

#include <limits>

namespace ss {

std::optional<std::int64_t> checkedNumElements(const Shape& shape)
{
    std::int64_t n = 1;
    bool zero = false;
    for (std::int64_t d : shape) {
        if (d < 0) return std::nullopt;
        if (d == 0) zero = true;
    }
    if (zero) return 0;
    for (std::int64_t d : shape) {
        if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
    }
    return n;
}

std::int64_t numElements(const Shape& shape)
{
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        n *= d;
    return n;
}

std::vector<std::int64_t> rowMajorStrides(const Shape& shape)
{
    std::vector<std::int64_t> strides(shape.size());
    std::int64_t s = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        strides[i] = s;
        s *= shape[i];
    }
    return strides;
}

std::string listString(const std::vector<std::int64_t>& values)
{
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(values[i]);
    }
    return out + "]";
}

std::string shapeString(const Shape& shape)
{
    return listString(shape);
}

std::string shapeTuple(const Shape& shape)
{
    std::string out = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(shape[i]);
    }
    if (shape.size() == 1) out += ',';
    return out + ")";
}

std::vector<std::int64_t> unravelIndex(std::int64_t flat, const Shape& shape)
{
    std::vector<std::int64_t> coords(shape.size());
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (shape[i] > 0) {
            coords[i] = flat % shape[i];
            flat /= shape[i];
        }
    }
    return coords;
}

std::int64_t ravelIndex(const std::vector<std::int64_t>& coords, const Shape& shape)
{
    std::int64_t flat = 0;
    for (std::size_t i = 0; i < shape.size(); ++i)
        flat = flat * shape[i] + coords[i];
    return flat;
}

} // namespace ss
