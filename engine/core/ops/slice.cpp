// SPDX-License-Identifier: GPL-3.0-or-later
// tf.slice (begin + size), PaddlePaddle's strided_slice (axes, starts, ends, strides) and ONNX's
// Slice (starts, ends, axes, steps).
#include "core/error.h"
#include "core/onnx_slice_axis.h"
#include "core/op.h"
#include "core/ops/common.h"
#include "core/ops/ops.h"

#include <algorithm>

namespace ss {

using namespace ops;

namespace {

// output[p] = input[first + p * step] per dimension.
AffinePiece boxPiece(int slot, const Shape& inputShape, const std::vector<std::int64_t>& first,
                     const std::vector<std::int64_t>& step, const Shape& outShape)
{
    if (numElements(outShape) == 0) return OutputPlan::emptyPiece(slot, outShape);
    AffinePiece p;
    p.slot = slot;
    p.extents = outShape;
    p.outStrides = rowMajorStrides(outShape);
    const auto strides = rowMajorStrides(inputShape);
    for (std::size_t k = 0; k < inputShape.size(); ++k) {
        p.inOffset += first[k] * strides[k];
        p.inStrides.push_back(step[k] * strides[k]);
    }
    return p;
}

OpPlan slice(const OpCall& call)
{
    const Tensor& input = call.input("input");
    const IntTensor begin = call.intTensor("begin");
    const IntTensor sizeArg = call.intTensor("size");
    const int r = input.rank();
    if (begin.shape.size() != 1 || sizeArg.shape.size() != 1 || begin.shape[0] != r ||
        sizeArg.shape[0] != r)
        invalidArgument("Expected begin and size arguments to be 1-D tensors of size " + num(r) +
                        ", but got shapes " + shapeString(begin.shape) + " and " +
                        shapeString(sizeArg.shape) + " instead.");
    OpPlan plan;
    std::vector<std::int64_t> size = sizeArg.values;
    Shape outShape;
    for (int i = 0; i < r; ++i) {
        const std::int64_t d = input.shape()[std::size_t(i)];
        const std::int64_t b = begin.values[std::size_t(i)];
        std::int64_t& s = size[std::size_t(i)];
        Step step{"Dimension " + num(i), "", {}, {i}, {i}};
        std::string detail = "Size " + num(d) + ", begin " + num(b) + ", size " + num(s);
        if (s == -1) {
            // A begin below -(2^63 - d) cannot be subtracted; the begin check refuses it anyway.
            s = checkedSub(d, b).value_or(-1);
            detail +=
                " (-1 means \"to the end\": " + num(d) + " - " + num(b) + " = " + num(s) + ")";
        }
        auto fail = [&](const std::string& message) {
            step.detail = detail + ". " + message;
            plan.steps.push_back(step);
            invalidArgument(message);
        };
        if (d == 0) {
            if (b != 0 || s != 0)
                fail("Expected begin[" + num(i) + "] == 0 (got " + num(b) + ") and size[" + num(i) +
                     "] == 0 (got " + num(s) + ") when input.dim_size(" + num(i) + ") == 0");
        } else {
            if (b < 0 || b > d)
                fail("Expected begin[" + num(i) + "] in [0, " + num(d) + "], but got " + num(b));
            if (s < 0 || s > d - b)
                fail("Expected size[" + num(i) + "] in [0, " + num(d - b) + "], but got " + num(s));
        }
        detail += s == 0 ? ": nothing is taken."
                         : ": takes indices " + num(b) + " to " + num(b + s - 1) + ".";
        step.detail = detail + " No wrap-around and no clamping: tf.slice takes begin and size "
                               "literally.";
        plan.steps.push_back(std::move(step));
        outShape.push_back(s);
    }
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    out.pieces.push_back(boxPiece(call.slot("input"), input.shape(), begin.values,
                                  std::vector<std::int64_t>(std::size_t(r), 1), outShape));
    // A slice that shares a mapped file's pages (all of it, a block of rows) allocates nothing.
    out.checkSize(call.allInputs(), call.limits(), "the output");
    // slice_op.cc: the identity and dimension-0 fast paths take any rank; the Eigen kernel
    // behind them is instantiated for ranks 1 to 8 and runs only when there is something to copy.
    bool identity = true;
    bool dim0 = true;
    for (int i = 0; i < r; ++i) {
        const bool all = begin.values[std::size_t(i)] == 0 &&
                         outShape[std::size_t(i)] == input.shape()[std::size_t(i)];
        identity = identity && all;
        dim0 = dim0 && (i == 0 || all);
    }
    if (r > kEigenKernelMaxRank && !identity &&
        !(dim0 && innerDimsAligned(input.shape(), input.dtype())) && numElements(outShape) > 0)
        unimplemented("SliceOp : Unhandled input dimensions");
    plan.steps.push_back({"Output shape",
                          shapeTuple(outShape) + ": output[p] = input[begin + p] in every "
                                                 "dimension.",
                          {}});
    plan.outputs.push_back(std::move(out));
    return plan;
}

OpPlan paddleStridedSlice(const OpCall& call)
{
    const Tensor& input = call.input("input");
    const int r = input.rank();
    if (r >= 7)
        invalidArgument("The dimension of StridedSlice operator's input should be less than 7, "
                        "but received dimension is " +
                        num(r) + ".");
    const auto axes = call.intList("axes");
    const auto starts = call.intList("starts");
    const auto ends = call.intList("ends");
    const auto strides = call.intList("strides");
    for (std::size_t i = 0; i < axes.size(); ++i) {
        if (axes[i] < 0)
            invalidArgument("The axis should be greater than or equal to 0.But received " +
                            num(axes[i]) + " of axes[" + num(std::int64_t(i)) + "]");
        if (axes[i] >= r)
            invalidArgument("The axes should be less than or equal to input tensor's rank.But "
                            "received " +
                            num(axes[i]) + " of axes[" + num(std::int64_t(i)) +
                            "], input tensor shape [" + num(r) + "]");
    }
    auto checkSize = [&](const std::vector<std::int64_t>& v, const char* name) {
        if (v.size() != axes.size())
            invalidArgument(std::string("The size of ") + name +
                            " attribute in StridedSlice operator is not equal to the size of "
                            "axes attribute. The " +
                            name + " attribute's size is " + num(std::int64_t(v.size())) +
                            ", axes attribute's size is " + num(std::int64_t(axes.size())) + ".");
    };
    checkSize(ends, "ends");
    checkSize(starts, "starts");
    checkSize(strides, "strides");

    OpPlan plan;
    std::vector<std::int64_t> first(std::size_t(r), 0);
    std::vector<std::int64_t> step(std::size_t(r), 1);
    Shape outShape = input.shape();
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const int axis = int(axes[i]);
        const std::int64_t d = input.shape()[std::size_t(axis)];
        std::int64_t start = starts[i];
        std::int64_t end = ends[i];
        const std::int64_t s = strides[i];
        Step st{"Axis " + num(axis), "", {}, {axis}, {axis}};
        std::string detail = "Size " + num(d) + ", start " + num(start) + ", end " + num(end) +
                             ", stride " + num(s) + ".";
        if (s == 0) {
            st.detail = detail + " A stride of 0 is refused.";
            plan.steps.push_back(st);
            invalidArgument("stride index in StridedSlice operator is 0.");
        }
        if (start < 0) {
            start = std::max<std::int64_t>(start + d, 0);
            detail += " Negative start counts from the end and stops at 0: " + num(start) + ".";
        }
        if (end < 0) {
            if (end == -1 && s < 0) {
                detail += " Paddle reads end -1 with a negative stride as \"run through index "
                          "0\" (NumPy and TensorFlow would read it as the last element).";
            } else {
                end = std::max<std::int64_t>(end + d, 0);
                detail += " Negative end counts from the end and stops at 0: " + num(end) + ".";
            }
        }
        // Moving both ends up by one (below) keeps their order, so the direction is checked
        // on the values as given.
        if ((s < 0 && start < end) || (s > 0 && start > end)) {
            st.detail = detail + " The range runs against the stride; Paddle refuses it where "
                                 "TensorFlow would give an empty slice.";
            plan.steps.push_back(st);
            invalidArgument("The start index and end index are invalid for their corresponding "
                            "stride.");
        }
        if (s < 0) {
            // Only where the range meets [0, d] matters below, so an end beyond d is first
            // brought back to d: a start of 2^63 - 1 must not overflow when it moves up.
            start = std::min(start, d) + 1;
            end = std::min(end, d) + 1;
            detail += " With a negative stride both move up by one (start " + num(start) +
                      ", end " + num(end) + ") to make a half-open range.";
        }
        const std::int64_t left = std::max<std::int64_t>(0, std::min(start, end));
        const std::int64_t right = std::min(d, std::max(start, end));
        std::int64_t count = 0;
        if (right > left) {
            const auto span = std::uint64_t(right - left);
            const std::uint64_t mag = s > 0 ? std::uint64_t(s) : 0 - std::uint64_t(s); // |s|
            count = std::int64_t(span / mag + (span % mag != 0));
        } else if (right < left) {
            detail += " The range starts beyond the dimension: Paddle's own size here is "
                      "undefined (its shape inference and kernel disagree); SliceScope gives an "
                      "empty result.";
        }
        first[std::size_t(axis)] = count == 0 ? 0 : (s > 0 ? left : right - 1);
        step[std::size_t(axis)] = count > 1 ? s : 1; // a long stride over one element is unused
        outShape[std::size_t(axis)] = count;
        if (count > 0)
            detail += " Selects " + num(count) + (count == 1 ? " element" : " elements") +
                      ", from index " + num(first[std::size_t(axis)]) + " by " + num(s) + ".";
        else
            detail += " Selects nothing.";
        if (std::count(axes.begin(), axes.end(), axes[i]) > 1)
            detail += " This axis is listed more than once; the last listing wins, as in Paddle.";
        st.detail = detail;
        plan.steps.push_back(std::move(st));
    }
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    out.pieces.push_back(boxPiece(call.slot("input"), input.shape(), first, step, outShape));
    out.checkSize(call.allInputs(), call.limits(), "the output");
    plan.steps.push_back(
        {"Output shape", shapeTuple(outShape) + ": axes not listed are kept whole.", {}});
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ONNX Slice: the axes' rules are the ONNX model's (onnxSliceAxis); this checks the arguments
// as onnx's shape inference does and keeps the opset's limits (steps from opset 10, negative
// axes from opset 11).
OpPlan onnxSlice(const OpCall& call)
{
    const Tensor& input = call.input("data");
    const int r = input.rank();
    const std::int64_t opset = call.getInt("opset", 13);
    if (opset < 1) invalidArgument("opset must be 1 or more, got " + num(opset));
    const auto starts = call.intList("starts");
    const auto ends = call.intList("ends");
    if (starts.size() != ends.size())
        invalidArgument("Incorrect or missing input value for starts and ends: starts has " +
                        num(std::int64_t(starts.size())) + " values, ends " +
                        num(std::int64_t(ends.size())));
    std::vector<std::int64_t> axes;
    if (call.has("axes")) {
        axes = call.intList("axes");
        if (axes.size() != starts.size())
            invalidArgument("Input axes has incorrect length: " + num(std::int64_t(axes.size())) +
                            " axes for " + num(std::int64_t(starts.size())) + " starts");
    } else {
        for (std::size_t i = 0; i < starts.size(); ++i)
            axes.push_back(std::int64_t(i));
    }
    std::vector<std::int64_t> steps(starts.size(), 1);
    if (call.has("steps")) {
        if (opset < 10)
            invalidArgument("Slice before opset 10 has no steps (this is opset " + num(opset) +
                            ")");
        steps = call.intList("steps");
        if (steps.size() != starts.size())
            invalidArgument("Input steps has incorrect length: " + num(std::int64_t(steps.size())) +
                            " steps for " + num(std::int64_t(starts.size())) + " starts");
    }
    OpPlan plan;
    std::vector<std::int64_t> first(std::size_t(r), 0);
    std::vector<std::int64_t> step(std::size_t(r), 1);
    std::vector<bool> seen(std::size_t(r), false);
    Shape outShape = input.shape();
    for (std::size_t i = 0; i < axes.size(); ++i) {
        std::int64_t axis = axes[i];
        if (axis < 0 && opset < 11)
            invalidArgument(strCat(
                "Input axes has invalid data: axis ", axis,
                " is negative, which Slice accepts from opset 11 (this is opset ", opset, ")"));
        if (axis < -r || axis >= r)
            invalidArgument(strCat("Input axes has invalid data: axis ", axis, " is outside ",
                                   listText({-r, r - 1}), " for an input of rank ", r));
        if (axis < 0) axis += r;
        if (seen[std::size_t(axis)]) invalidArgument("'axes' has duplicates");
        seen[std::size_t(axis)] = true;
        if (steps[i] == 0) invalidArgument("'step' cannot be 0 for Slice");
        const std::int64_t d = input.shape()[std::size_t(axis)];
        const OnnxSliceAxis a = onnxSliceAxis(d, starts[i], ends[i], steps[i]);
        std::string title = "Axis " + num(axis);
        std::string detail = "Size " + num(d) + ", " + a.detail;
        if (axes[i] < 0)
            detail =
                "Axis " + num(axes[i]) + " counts from the back: axis " + num(axis) + ". " + detail;
        plan.steps.push_back({title, detail, {}, {int(axis)}, {int(axis)}});
        first[std::size_t(axis)] = a.first;
        step[std::size_t(axis)] = a.count > 1 ? steps[i] : 1; // a long step over one element
        outShape[std::size_t(axis)] = a.count;
    }
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    out.pieces.push_back(boxPiece(call.slot("data"), input.shape(), first, step, outShape));
    out.checkSize(call.allInputs(), call.limits(), "the output");
    plan.steps.push_back(
        {"Output shape", shapeTuple(outShape) + ": axes not listed are kept whole.", {}});
    plan.outputs.push_back(std::move(out));
    return plan;
}

} // namespace

std::vector<OpDef> sliceOps()
{
    return {
        {.name = "slice",
         .summary = "tf.slice: a box given by begin and size (-1: to the end)",
         .inputs = {{"input"}},
         .attrs = {{"begin", "", AttrType::Ints}, {"size", "", AttrType::Ints}},
         .outputs = "output",
         .plan = slice,
         .notation = Notation::Box,
         .example = {{{exampleFill(DType::Int32, {3, 4})}},
                     {{"begin", Attr::ints({1, 1})}, {"size", Attr::ints({2, -1})}}},
         .family = OpFamily::Slicing,
         .equivalents =
             {equivalent(Framework::NumPy, "import numpy as np\n\nx[{begin|box}]"),
              equivalent(Framework::TensorFlow, "import tensorflow as tf\n\ntf.slice({args})"),
              equivalent(Framework::PyTorch, "import torch\n\nx[{begin|box}]"),
              equivalent(Framework::Jax, "import jax.numpy as jnp\n\nx[{begin|box}]"),
              equivalent(Framework::Onnx,
                         "from onnx import helper\n\n# inputs: x, starts = {begin} (int64), ends = "
                         "{begin|onnx_ends} (int64)\nhelper.make_node(\"Slice\", [\"x\", "
                         "\"starts\", \"ends\"], [\"y\"])"),
              equivalent(Framework::Paddle, "import paddle\n\nx[{begin|box}]")}},
        {.name = "paddle_strided_slice",
         .summary = "paddle.strided_slice: axes, starts, ends, strides with Paddle's clamping",
         .inputs = {{"input"}},
         .attrs = {{"axes", "", AttrType::IntList},
                   {"starts", "", AttrType::IntList},
                   {"ends", "", AttrType::IntList},
                   {"strides", "", AttrType::IntList}},
         .outputs = "output",
         .plan = paddleStridedSlice,
         .notation = Notation::PaddleAxes,
         .example = {{{exampleFill(DType::Int32, {3, 4})}},
                     {{"axes", Attr::ints({0, 1})},
                      {"starts", Attr::ints({0, 3})},
                      {"ends", Attr::ints({3, 0})},
                      {"strides", Attr::ints({2, -1})}}},
         .family = OpFamily::Slicing,
         .equivalents =
             {equivalent(Framework::Paddle, "import paddle\n\npaddle.strided_slice(x, axes={axes}, "
                                            "starts={starts}, ends={ends}, strides={strides})"),
              noEquivalent(
                  Framework::NumPy,
                  "NumPy has no call with Paddle's clamping of starts and ends: write the clamped "
                  "slice as a subscript (compare shows where the readings differ)."),
              noEquivalent(
                  Framework::TensorFlow,
                  "TensorFlow has no call with Paddle's clamping of starts and ends: write the "
                  "clamped slice as a subscript (compare shows where the readings differ)."),
              noEquivalent(
                  Framework::PyTorch,
                  "PyTorch has no call with Paddle's clamping of starts and ends: write the "
                  "clamped slice as a subscript (compare shows where the readings differ)."),
              noEquivalent(
                  Framework::Jax,
                  "JAX has no call with Paddle's clamping of starts and ends: write the clamped "
                  "slice as a subscript (compare shows where the readings differ)."),
              noEquivalent(
                  Framework::Onnx,
                  "ONNX has no call with Paddle's clamping of starts and ends: write the clamped "
                  "slice as a subscript (compare shows where the readings differ).")}},
        {.name = "onnx_slice",
         .summary = "ONNX Slice: starts, ends, axes, steps with the spec's clamping (opset 13 "
                    "unless given)",
         .inputs = {{"data"}},
         .attrs = {{"starts", "", AttrType::IntList},
                   {"ends", "", AttrType::IntList},
                   {"axes", "0, 1, ...", AttrType::IntList},
                   {"steps", "1s", AttrType::IntList},
                   {"opset", "13", AttrType::Int}},
         .outputs = "output",
         .plan = onnxSlice,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {3, 4})}},
                     {{"starts", Attr::ints({-1, 1})},
                      {"ends", Attr::ints({-9223372036854775807LL - 1, 1000})},
                      {"axes", Attr::ints({0, 1})},
                      {"steps", Attr::ints({-2, 2})}}},
         .family = OpFamily::Slicing,
         .equivalents =
             {equivalent(
                  Framework::Onnx,
                  "from onnx import helper\n\n# inputs: x, starts = {starts}, ends = {ends}, axes "
                  "= {axes=None}, steps = {steps=None} (int64)\nhelper.make_node(\"Slice\", "
                  "[\"x\", \"starts\", \"ends\", \"axes\", \"steps\"], [\"y\"])",
                  "Leave out axes or steps by giving an empty name in their place."),
              noEquivalent(Framework::NumPy,
                           "NumPy has no call with ONNX Slice's clamping of starts and ends: write "
                           "the clamped slice as a subscript."),
              noEquivalent(Framework::TensorFlow,
                           "TensorFlow has no call with ONNX Slice's clamping of starts and ends: "
                           "write the clamped slice as a subscript."),
              noEquivalent(Framework::PyTorch,
                           "PyTorch has no call with ONNX Slice's clamping of starts and ends: "
                           "write the clamped slice as a subscript."),
              noEquivalent(Framework::Jax, "JAX has no call with ONNX Slice's clamping of starts "
                                           "and ends: write the clamped slice as a subscript."),
              noEquivalent(Framework::Paddle,
                           "PaddlePaddle has no call with ONNX Slice's clamping of starts and "
                           "ends: write the clamped slice as a subscript.")}},
    };
}

} // namespace ss
