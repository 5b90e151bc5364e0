// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx_slice_axis.h"

#include "core/strings.h"

#include <algorithm>
#include <limits>

namespace ss {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

} // namespace

std::string onnxBound(std::int64_t v)
{
    if (v == kMax) return "INT64_MAX";
    if (v == kMin) return "INT64_MIN";
    return num(v);
}

OnnxSliceAxis onnxSliceAxis(std::int64_t d, std::int64_t s, std::int64_t e, std::int64_t step)
{
    OnnxSliceAxis a;
    std::string detail =
        "start " + onnxBound(s) + ", end " + onnxBound(e) + ", step " + num(step) + ".";
    const std::int64_t givenEnd = e;
    if (s < 0) {
        s += d;
        detail += " A negative start has the size added: " + num(s) + ".";
    }
    if (e < 0) {
        e += d;
        detail += " A negative end has the size added: " + onnxBound(e) + ".";
    }
    if (step > 0) {
        const std::int64_t cs = std::clamp<std::int64_t>(s, 0, d);
        const std::int64_t ce = std::clamp<std::int64_t>(e, 0, d);
        if (cs != s || ce != e)
            detail += " For a positive step both are clamped into [0, " + num(d) + "]: start " +
                      num(cs) + ", end " + num(ce) + ".";
        a.first = cs;
        if (ce > cs) a.count = (ce - cs - 1) / step + 1;
    } else if (d == 0) {
        detail += " The axis is empty, so nothing is read.";
    } else {
        const std::int64_t cs = std::clamp<std::int64_t>(s, 0, d - 1);
        const std::int64_t ce = std::clamp<std::int64_t>(e, -1, d - 1);
        if (cs != s || ce != e)
            detail += " For a negative step the start is clamped into [0, " + num(d - 1) +
                      "] and the end into [-1, " + num(d - 1) + "]: start " + num(cs) + ", end " +
                      num(ce) + ".";
        if (s < 0)
            detail += " Unlike NumPy, which clamps a start before the first element to -1 "
                      "and reads nothing, the spec clamps it up to 0, so element 0 is read "
                      "(onnx.reference, from onnx 1.13, slices with NumPy and disagrees "
                      "with the spec here).";
        if (givenEnd == kMax || givenEnd == std::numeric_limits<std::int32_t>::max())
            detail += " This end is " + onnxBound(givenEnd) +
                      ", the bound the spec recommends for slicing forward to the end: with a "
                      "negative step the spec clamps it to " +
                      num(d - 1) +
                      ", so nothing past the start is read, while ONNX Runtime "
                      "reads it as \"through index 0\" (onnxruntime #11107).";
        a.first = cs;
        if (cs > ce) {
            const std::uint64_t mag = 0 - std::uint64_t(step);
            a.count = std::int64_t((std::uint64_t(cs - ce) - 1) / mag + 1);
        }
    }
    a.detail = detail + " " + num(a.count) + (a.count == 1 ? " element." : " elements.");
    return a;
}

} // namespace ss
