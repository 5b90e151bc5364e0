// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/shape.h"

#include "core/checked.h"
#include "core/strings.h"

#include <algorithm>
#include <limits>

namespace ss {

std::optional<std::int64_t> checkedNumElements(const Shape& shape)
{
    // NumPy's rule ("array is too big"): the sizes other than 0 must multiply within int64. A
    // zero does not rescue [2^62, 2^62, 0]: such a shape is refused, in whichever order its sizes
    // come, so that every sub-shape of a valid shape (the rows of a view, the outer dimensions
    // of a face) has a count too.
    std::int64_t n = 1;
    bool zero = false;
    for (std::int64_t d : shape) {
        if (d < 0) return std::nullopt;
        if (d == 0)
            zero = true;
        else if (mulOverflows(n, d, &n))
            return std::nullopt;
    }
    return zero ? 0 : n;
}

std::int64_t numElements(const Shape& shape)
{
    const auto n = checkedNumElements(shape);
    if (!n) sizeOverflow("the element count of shape " + shapeString(shape));
    return *n;
}

std::vector<std::int64_t> rowMajorStrides(const Shape& shape)
{
    std::vector<std::int64_t> strides(shape.size());
    std::int64_t s = 1;
    bool unaddressable = false;
    for (std::size_t i = shape.size(); i-- > 0;) {
        strides[i] = unaddressable ? 0 : s;
        if (shape[i] == 0) {
            // Every stride further out is exactly 0 (0 times anything).
            s = 0;
            unaddressable = false;
        } else if (!unaddressable) {
            const auto next = checkedMul(s, shape[i]);
            // Past int64 the tensor can only be a valid one if a dimension further out is 0:
            // it has no elements, and no stride is ever used to address one.
            if (!next)
                unaddressable = true;
            else
                s = *next;
        }
    }
    return strides;
}

std::string listString(const std::vector<std::int64_t>& values)
{
    return "[" + joinText(values, num, ",") + "]";
}

std::string shapeString(const Shape& shape)
{
    return listString(shape);
}

std::string shapeTuple(const Shape& shape)
{
    return "(" + joinInts(shape) + (shape.size() == 1 ? ",)" : ")");
}

std::optional<Shape> broadcastShapes(const std::vector<Shape>& shapes)
{
    std::size_t rank = 0;
    for (const Shape& s : shapes)
        rank = std::max(rank, s.size());
    Shape out(rank, 1);
    for (const Shape& s : shapes) {
        const std::size_t lead = rank - s.size();
        for (std::size_t k = 0; k < s.size(); ++k) {
            std::int64_t& o = out[lead + k];
            if (s[k] == o || s[k] == 1) continue;
            if (o != 1) return std::nullopt;
            o = s[k];
        }
    }
    return out;
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
