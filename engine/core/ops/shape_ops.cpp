// SPDX-License-Identifier: GPL-3.0-or-later
// The shape family: split, tile, pad, concat, stack, unstack, reverse_sequence, reverse, roll and
// transpose. Each one is planned as a few box copies between the right views of its tensors.
#include "core/error.h"
#include "core/op.h"
#include "core/ops/common.h"
#include "core/ops/ops.h"
#include "core/slice_expr.h"
#include "core/strings.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>

namespace ss {

using namespace ops;

namespace {

using Coords = std::vector<std::int64_t>;

// Lists at most a handful of items, so that a step about a million pieces stays readable and
// cheap: only the items shown are ever made.
std::string firstFew(std::int64_t count, const std::function<std::string(std::int64_t)>& item)
{
    constexpr std::int64_t kShown = 8;
    std::string out;
    for (std::int64_t i = 0; i < count && i < kShown; ++i)
        out += (i ? "; " : "") + item(i);
    if (count > kShown) out += "; ... (" + num(count) + " in all)";
    return out;
}

// Copies the box `extents` of a source, read from `inFirst` moving `inStep` elements per
// coordinate step, into the box of the output that starts at `outFirst`.
AffinePiece boxCopy(int slot, const Shape& inShape, const Coords& inFirst, const Coords& inStep,
                    const Shape& outShape, const Coords& outFirst, const Shape& extents)
{
    if (numElements(extents) == 0) return OutputPlan::emptyPiece(slot, extents);
    AffinePiece p;
    p.slot = slot;
    p.extents = extents;
    const auto inStrides = rowMajorStrides(inShape);
    p.outStrides = rowMajorStrides(outShape);
    for (std::size_t k = 0; k < extents.size(); ++k) {
        p.inOffset += inFirst[k] * inStrides[k];
        p.outOffset += outFirst[k] * p.outStrides[k];
        p.inStrides.push_back(inStep[k] * inStrides[k]);
    }
    return p;
}

// The box of the output starting at `outFirst` filled with constants[constant].
AffinePiece constantBox(std::int64_t constant, const Shape& outShape, const Coords& outFirst,
                        const Shape& extents)
{
    if (numElements(extents) == 0) return OutputPlan::emptyPiece(kConstantSlot, extents);
    AffinePiece p;
    p.slot = kConstantSlot;
    p.inOffset = constant;
    p.extents = extents;
    p.inStrides.assign(extents.size(), 0);
    p.outStrides = rowMajorStrides(outShape);
    for (std::size_t k = 0; k < extents.size(); ++k)
        p.outOffset += outFirst[k] * p.outStrides[k];
    return p;
}

// Every output costs a plan and a tensor header even when it holds no element, so splitting an
// empty axis a billion ways is refused like any other request too big to hold.
void checkOutputCount(const OpCall& call, std::int64_t count)
{
    constexpr std::int64_t kBytesPerOutput = 1024;
    const std::int64_t most =
        std::min(call.limits().maxElements, call.limits().maxBytes / kBytesPerOutput);
    if (count > most)
        throw OpError(ErrorCode::ResourceExhausted, call.def().name + " would make " + num(count) +
                                                        " outputs, over the limit of " + num(most));
}

// TensorFlow's op builder refuses a list input whose tensors differ in dtype.
void checkSameDtypes(const std::vector<Tensor>& values, const std::string& tfOp)
{
    const bool same = std::all_of(values.begin(), values.end(), [&](const Tensor& t) {
        return t.dtype() == values.front().dtype();
    });
    if (same) return;
    std::string types;
    for (const Tensor& t : values)
        types += (types.empty() ? "" : ", ") + std::string(dtypeName(t.dtype()));
    invalidArgument("Tensors in list passed to 'values' of '" + tfOp + "' Op have types [" + types +
                    "] that don't all match.");
}

// ---------------------------------------------------------------------------------------------
// split (Split for a count, SplitV for a list of sizes)

// SplitV adds sizes that may be anywhere in int64; the exact sum keeps its check honest.
__extension__ using WideInt = __int128;

std::string wideNum(WideInt v)
{
    if (v >= std::numeric_limits<std::int64_t>::min() &&
        v <= std::numeric_limits<std::int64_t>::max())
        return num(std::int64_t(v));
    const bool negative = v < 0;
    std::string digits;
    for (; v != 0; v /= 10)
        digits.insert(digits.begin(), char('0' + int(negative ? -(v % 10) : v % 10)));
    return (negative ? "-" : "") + digits;
}

/// The dimension split_dim names, checked as both kernels check it.
int splitDim(const IntTensor& axisArg, int r)
{
    const std::int64_t given = axisArg.values[0];
    const std::int64_t a = given < 0 ? given + r : given;
    if (a < 0 || a >= r)
        invalidArgument("-input rank(-" + num(r) + ") <= split_dim < input rank (" + num(r) +
                        "), but got " + num(given));
    return int(a);
}

Step splitAxisStep(const IntTensor& axisArg, int r, int axis, std::int64_t d)
{
    return {"Axis",
            "axis " + num(axisArg.values[0]) + " of a rank-" + num(r) + " input is dimension " +
                num(axis) + ", of size " + num(d) + ".",
            {},
            {axis},
            {}};
}

/// Split: num_or_size_splits is the integer count of equal pieces. Sets `axis`.
std::vector<std::int64_t> equalSplitSizes(const OpCall& call, const Shape& shape,
                                          const IntTensor& how, const IntTensor& axisArg, int& axis,
                                          OpPlan& plan)
{
    const int r = int(shape.size());
    const std::int64_t n = how.values[0];
    // Split's op definition declares num_split >= 1, checked before the kernel runs.
    checkAttrMinimum("num_split", n, 1);
    if (!axisArg.shape.empty())
        invalidArgument("split_dim must be a scalar but has rank " +
                        num(std::int64_t(axisArg.shape.size())));
    axis = splitDim(axisArg, r);
    const std::int64_t d = shape[std::size_t(axis)];
    if (d % n != 0)
        invalidArgument("Number of ways to split should evenly divide the split dimension, "
                        "but got split_dim " +
                        num(axis) + " (size = " + num(d) + ") and num_split " + num(n));
    checkOutputCount(call, n);
    plan.steps.push_back({"Form",
                          "num_or_size_splits is the integer " + num(n) +
                              ": tf.split calls Split, which cuts the axis into " + num(n) +
                              " equal pieces.",
                          {}});
    plan.steps.push_back(splitAxisStep(axisArg, r, axis, d));
    plan.steps.push_back({"Sizes",
                          num(d) + " / " + num(n) + " = " + num(d / n) +
                              (d / n == 1 ? " element" : " elements") + " in every piece" +
                              (n == 1 ? "; one piece is the input itself." : "."),
                          {},
                          {axis},
                          {}});
    return std::vector<std::int64_t>(std::size_t(n), d / n);
}

/// split_v_op.cc's first easy case: one output is the input itself; its size must be the whole
/// dimension, or -1 standing for it.
Step oneSplitSize(std::vector<std::int64_t>& sizes, int axis, std::int64_t d)
{
    if (sizes[0] != d && sizes[0] != -1)
        invalidArgument("If there is only one output, it must have the same size as the "
                        "input. Input size: " +
                        num(d) + " output size: " + num(sizes[0]));
    const bool negOne = sizes[0] == -1;
    sizes[0] = d;
    return {"Sizes",
            (negOne ? "The one size is -1, which stands for the whole dimension (" + num(d) +
                          "). Older TensorFlow 2 releases refused a -1 here (\"If there is "
                          "only one output, it must have the same size as the input\")."
                    : "The one size is the whole dimension (" + num(d) + ").") +
                " The piece is the input itself.",
            {},
            {axis},
            {}};
}

/// SplitV's sizes of several pieces: at most one -1, which takes the rest, and a sum that fits
/// the dimension (exactly when there is no -1).
Step listedSplitSizes(std::vector<std::int64_t>& sizes, int axis, std::int64_t d)
{
    int negOne = -1;
    WideInt determined = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == -1) {
            if (negOne >= 0) invalidArgument("There can only be one -1 in the input.");
            negOne = int(i);
        } else {
            determined += sizes[i];
        }
    }
    if (!((negOne < 0 && determined == d) || (negOne >= 0 && determined <= d))) {
        // TensorFlow's words, then the sum it means against the dimension it missed.
        std::string sum;
        std::size_t listed = 0;
        for (std::size_t i = 0; i < sizes.size(); ++i)
            if (int(i) != negOne && listed++ < 8) sum += (sum.empty() ? "" : " + ") + num(sizes[i]);
        if (listed > 8) sum = "the " + num(std::int64_t(listed)) + " sizes";
        sum += (listed > 8 ? " add up to " : " = ") + wideNum(determined);
        if (negOne >= 0) sum += " without the -1";
        invalidArgument("Determined shape must either match input shape along split_dim "
                        "exactly if fully specified, or be less than the size of the "
                        "input along split_dim if not fully specified.  Got: " +
                        wideNum(determined) + " (" + sum + ", but dimension " + num(axis) +
                        " has size " + num(d) + ")");
    }
    // Exact arithmetic: with a wild negative size the rest may not fit in int64, and that
    // size is refused below anyway.
    const WideInt rest = WideInt(d) - determined;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const WideInt size = int(i) == negOne ? rest : WideInt(sizes[i]);
        if (size < 0)
            invalidArgument("Split size at index " + num(std::int64_t(i)) +
                            " must be >= 0. Got: " + wideNum(size));
    }
    std::string detail = "The sizes add up to " + wideNum(determined);
    if (negOne >= 0) {
        sizes[std::size_t(negOne)] = std::int64_t(rest);
        detail += "; the -1 at index " + num(negOne) + " takes the rest: " + num(d) + " - " +
                  wideNum(determined) + " = " + wideNum(rest) + ".";
    } else {
        detail += ", the whole dimension.";
    }
    return {"Sizes", detail, {}, {axis}, {}};
}

/// SplitV: num_or_size_splits lists the sizes of consecutive pieces. Sets `axis`.
std::vector<std::int64_t> splitVSizes(const OpCall& call, const Shape& shape, const IntTensor& how,
                                      const IntTensor& axisArg, int& axis, OpPlan& plan)
{
    const int r = int(shape.size());
    const std::int64_t n = how.shape[0];
    if (axisArg.values.size() != 1)
        invalidArgument("split_dim_tensor must have exactly one element.");
    if (how.shape.size() != 1)
        invalidArgument("size of the split_tensor must be 1-D and have the same elements as "
                        "outputs got " +
                        num(std::int64_t(how.shape.size())) + " -D and " +
                        num(std::int64_t(how.values.size())) + " elements");
    if (n <= 0) invalidArgument("Number of ways to split should be > 0, but got " + num(n));
    axis = splitDim(axisArg, r);
    const std::int64_t d = shape[std::size_t(axis)];
    std::vector<std::int64_t> sizes = how.values;
    plan.steps.push_back({"Form",
                          "num_or_size_splits is a list of " + num(n) +
                              " sizes: tf.split calls SplitV, which cuts consecutive pieces "
                              "of the listed sizes" +
                              (n <= 16 ? " " + listString(sizes) : "") + ".",
                          {}});
    plan.steps.push_back(splitAxisStep(axisArg, r, axis, d));
    plan.steps.push_back(n == 1 ? oneSplitSize(sizes, axis, d) : listedSplitSizes(sizes, axis, d));
    checkOutputCount(call, n);
    return sizes;
}

/// One output per size: consecutive boxes of the axis, every other dimension whole.
void addSplitPieces(const OpCall& call, int axis, const std::vector<std::int64_t>& sizes,
                    OpPlan& plan)
{
    const Tensor& value = call.input("value");
    const Shape& shape = value.shape();
    const int r = value.rank();
    Coords starts;
    std::int64_t start = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        Shape outShape = shape;
        outShape[std::size_t(axis)] = sizes[i];
        Coords inFirst(std::size_t(r), 0);
        inFirst[std::size_t(axis)] = start;
        OutputPlan out;
        out.dtype = value.dtype();
        out.shape = outShape;
        out.pieces.push_back(boxCopy(call.slot("value"), shape, inFirst, Coords(std::size_t(r), 1),
                                     outShape, Coords(std::size_t(r), 0), outShape));
        plan.outputs.push_back(std::move(out));
        starts.push_back(start);
        start += sizes[i];
    }
    const std::string pieces = firstFew(std::int64_t(sizes.size()), [&](std::int64_t i) {
        const std::int64_t size = sizes[std::size_t(i)], first = starts[std::size_t(i)];
        return "piece " + num(i) + ": " +
               (size == 0 ? "empty" : "indices " + num(first) + " to " + num(first + size - 1)) +
               ", shape " + shapeString(plan.outputs[std::size_t(i)].shape);
    });
    plan.steps.push_back({"Pieces",
                          "Each piece keeps every other dimension whole. " + pieces + ".",
                          {},
                          {axis},
                          {axis}});
}

OpPlan split(const OpCall& call)
{
    const Shape& shape = call.input("value").shape();
    const IntTensor how = call.intTensor("num_or_size_splits");
    const IntTensor axisArg = call.intTensor("axis", IntTensor{{}, {0}});
    OpPlan plan;
    int axis = 0;
    const std::vector<std::int64_t> sizes =
        how.shape.empty() ? equalSplitSizes(call, shape, how, axisArg, axis, plan)
                          : splitVSizes(call, shape, how, axisArg, axis, plan);
    addSplitPieces(call, axis, sizes, plan);
    return plan;
}

// ---------------------------------------------------------------------------------------------
// tile

OpPlan tile(const OpCall& call)
{
    const Tensor& input = call.input("input");
    const Shape& shape = input.shape();
    const int r = input.rank();
    const IntTensor multiples = call.intTensor("multiples");
    if (multiples.shape.size() != 1)
        invalidArgument("Expected multiples to be 1-D, but got shape " +
                        shapeString(multiples.shape));
    if (multiples.shape[0] != r)
        invalidArgument("Expected multiples argument to be a vector of length " + num(r) +
                        " but got length " + num(multiples.shape[0]));
    OpPlan plan;
    Shape outShape;
    for (int i = 0; i < r; ++i) {
        const std::int64_t d = shape[std::size_t(i)];
        const std::int64_t m = multiples.values[std::size_t(i)];
        if (m < 0) invalidArgument("Expected multiples[" + num(i) + "] >= 0, but got " + num(m));
        std::int64_t out = 0;
        if (mulOverflows(d, m, &out))
            throw OpError(ErrorCode::ResourceExhausted, "the output's dimension " + num(i) +
                                                            " would be " + num(d) + " * " + num(m) +
                                                            ", more than a 64-bit count can hold");
        outShape.push_back(out);
    }
    checkCountFits(call, outShape, input.dtype(), "the output");
    plan.steps.push_back({"Output shape",
                          r == 0 ? "A scalar takes no multiples; the output is the input."
                                 : firstFew(r,
                                            [&](std::int64_t i) {
                                                return "dimension " + num(i) + ": " +
                                                       num(shape[std::size_t(i)]) + " x " +
                                                       num(multiples.values[std::size_t(i)]) +
                                                       " = " + num(outShape[std::size_t(i)]);
                                            }) +
                                       ", so the output is " + shapeTuple(outShape) + ".",
                          {},
                          dimRange(0, r),
                          dimRange(0, r)});
    plan.steps.push_back(
        {"Repeat",
         "output[p] = input[p mod d] in every dimension: the input is laid down multiples[i] "
         "times along dimension i." +
             std::string(outShape == shape ? " Every multiple keeps the shape, so the output is "
                                             "the input itself."
                                           : ""),
         {},
         dimRange(0, r),
         dimRange(0, r)});

    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    // In the output seen as [m0, d0, m1, d1, ...], the coordinate over a multiple moves to the
    // next whole copy and reads nothing new (input stride 0): one affine piece. An empty output
    // needs none, and its strides may not multiply within int64.
    if (numElements(outShape) > 0) {
        AffinePiece p;
        p.slot = call.slot("input");
        const auto inStrides = rowMajorStrides(shape);
        const auto outStrides = rowMajorStrides(outShape);
        for (std::size_t i = 0; i < shape.size(); ++i) {
            p.extents.push_back(multiples.values[i]);
            p.inStrides.push_back(0);
            p.outStrides.push_back(shape[i] * outStrides[i]);
            p.extents.push_back(shape[i]);
            p.inStrides.push_back(inStrides[i]);
            p.outStrides.push_back(outStrides[i]);
        }
        out.pieces.push_back(std::move(p));
    }
    out.checkSize(call.allInputs(), call.limits(), "the output");
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// pad (Pad / PadV2 for CONSTANT, MirrorPad for REFLECT and SYMMETRIC)

// A bool, number or string attribute as Python's repr() prints it.
std::string pythonRepr(const Attr& a)
{
    if (a.isBool()) return a.toBool() ? "True" : "False";
    if (a.isInt()) return num(a.toInt());
    if (a.isFloat()) return pythonFloatRepr(a.toDouble());
    return pythonStringRepr(a.toString());
}

// tf.pad calls Pad when constant_values equals zero (0, 0.0, False, ""): it fills with the
// dtype's zero and converts nothing. Otherwise PadV2 gets tf.convert_to_tensor(value, dtype),
// and TensorFlow's converter takes a str for string, a bool for bool, an int for the integers, a
// bool as well for int32 and int64 (Python's bool is an int), and anything but a str for the
// floats. The rest is its TypeError; a float is never truncated to an integer.
Tensor padConstant(const Attr* given, DType dtype)
{
    if (!given || given->isNull()) return Tensor::zeros(dtype, {});
    if (!given->isBool() && !given->isNumber() && !given->isString())
        badRequest("attribute 'constant_values' must be a number, a bool or a string");
    const bool zero = given->isString() ? given->toString().empty()
                      : given->isBool() ? !given->toBool()
                                        : given->toDouble() == 0;
    if (zero) return Tensor::zeros(dtype, {});
    bool converts = false;
    switch (dtype) {
    case DType::String: converts = given->isString(); break;
    case DType::Bool: converts = given->isBool(); break;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128: converts = !given->isString(); break;
    case DType::Int32:
    case DType::Int64: converts = given->isInt() || given->isBool(); break;
    case DType::Int8:
    case DType::UInt8:
    case DType::Int16:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64: converts = given->isInt(); break;
    }
    if (!converts)
        invalidArgument("Cannot convert " + pythonRepr(*given) + " to EagerTensor of dtype " +
                        std::string(tfDataTypeString(dtype)));
    if (given->isString()) return Tensor::scalar(DType::String, given->toString());
    if (given->isFloat()) return Tensor::scalar(DType::Float64, given->toDouble());
    const std::int64_t v = given->isBool() ? 1 : given->toInt();
    // TensorFlow would wrap an int outside the dtype; SliceScope refuses it instead.
    if (isInteger(dtype) && (v < integerMin(dtype) || v > integerMax(dtype)))
        invalidArgument("constant_values " + pythonRepr(*given) +
                        " does not fit the tensor's dtype " + std::string(dtypeName(dtype)));
    return Tensor::scalar(DType::Int64, v);
}

/// The padded box: what each dimension gains before and after the input, and the output's shape.
struct PadBox
{
    Coords before, after;
    Shape outShape;
};

/// The mode, upper-cased as tf.pad does: CONSTANT, REFLECT or SYMMETRIC.
std::string padMode(const OpCall& call)
{
    std::string mode = call.getString("mode", "CONSTANT");
    std::transform(mode.begin(), mode.end(), mode.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    if (mode != "CONSTANT" && mode != "REFLECT" && mode != "SYMMETRIC")
        invalidArgument("Unknown padding mode: " + mode);
    return mode;
}

/// Which kernel tf.pad calls for `mode`, and what the border holds.
Step padModeStep(const std::string& mode, const Tensor& fill, const Attr* constantAttr, DType dtype)
{
    if (mode == "CONSTANT") {
        const bool zero = fill.dtype() == DType::String ? fill.data<std::string>()[0].empty()
                                                        : fill.doubleAt(0) == 0;
        const std::string text = zero ? std::string("the dtype's zero")
                                      : pythonRepr(*constantAttr) + " (converted to " +
                                            std::string(dtypeName(dtype)) + ")";
        return {"Mode",
                "CONSTANT: tf.pad calls " + std::string(zero ? "Pad" : "PadV2") +
                    "; the border holds " + text + " and the input sits inside it.",
                {}};
    }
    return {"Mode",
            mode +
                ": tf.pad calls MirrorPad, which fills the border with a "
                "mirror image of the input that " +
                (mode == "REFLECT" ? "leaves out the edge element." : "repeats the edge element.") +
                " MirrorPad takes ranks up to 5 and ignores constant_values.",
            {}};
}

/// Each dimension's paddings, checked as the mode's kernel checks them (a mirror repeats at
/// most the whole dimension), and the output's size, which must fit a 64-bit count.
PadBox padDimensions(const IntTensor& paddings, const Shape& shape, const std::string& mode,
                     OpPlan& plan)
{
    const bool constant = mode == "CONSTANT";
    PadBox box;
    for (int i = 0; i < int(shape.size()); ++i) {
        const std::int64_t b = paddings.values[std::size_t(2 * i)];
        const std::int64_t a = paddings.values[std::size_t(2 * i + 1)];
        const std::int64_t d = shape[std::size_t(i)];
        if (b < 0 || a < 0)
            invalidArgument(std::string(constant ? "Paddings" : "paddings") +
                            " must be non-negative: " + num(b) + " " + num(a));
        std::string limit;
        if (mode == "SYMMETRIC") {
            if (b > d || a > d)
                invalidArgument("paddings must be no greater than the dimension size: " + num(b) +
                                ", " + num(a) + " greater than " + num(d));
            limit = " SYMMETRIC allows up to " + num(d) + " on each side.";
        } else if (mode == "REFLECT") {
            if (b >= d || a >= d)
                invalidArgument("paddings must be less than the dimension size: " + num(b) + ", " +
                                num(a) + " not less than " + num(d));
            limit = " REFLECT allows up to " + num(d - 1) + " on each side.";
        }
        std::int64_t size = 0;
        if (addOverflows(b, d, &size) || addOverflows(size, a, &size))
            throw OpError(ErrorCode::ResourceExhausted,
                          "the output's dimension " + num(i) + " would be " + num(b) + " + " +
                              num(d) + " + " + num(a) + ", more than a 64-bit count can hold");
        box.before.push_back(b);
        box.after.push_back(a);
        box.outShape.push_back(size);
        plan.steps.push_back({"Dimension " + num(i),
                              num(b) + " before + " + num(d) + " + " + num(a) +
                                  " after = " + num(size) + "." + limit,
                              {},
                              {i},
                              {i}});
    }
    return box;
}

/// CONSTANT: the input as one box, the border as disjoint slabs of the constant.
void padWithConstant(const Tensor& tensor, int slot, const Tensor& fill, const PadBox& box,
                     OutputPlan& out, OpPlan& plan)
{
    const Shape& shape = tensor.shape();
    const int r = tensor.rank();
    const Coords& before = box.before;
    const std::int64_t c = out.addConstant(fill);
    out.pieces.push_back(boxCopy(slot, shape, Coords(std::size_t(r), 0), Coords(std::size_t(r), 1),
                                 box.outShape, before, shape));
    // The border as disjoint slabs: along dimension k, the part before and after the input,
    // spanning the input's range in the dimensions before k and everything after k.
    for (int k = 0; k < r; ++k) {
        Coords first(std::size_t(r), 0);
        Shape extents = box.outShape;
        for (int j = 0; j < k; ++j) {
            first[std::size_t(j)] = before[std::size_t(j)];
            extents[std::size_t(j)] = shape[std::size_t(j)];
        }
        extents[std::size_t(k)] = before[std::size_t(k)];
        if (numElements(extents) > 0)
            out.pieces.push_back(constantBox(c, box.outShape, first, extents));
        first[std::size_t(k)] = before[std::size_t(k)] + shape[std::size_t(k)];
        extents[std::size_t(k)] = box.after[std::size_t(k)];
        if (numElements(extents) > 0)
            out.pieces.push_back(constantBox(c, box.outShape, first, extents));
    }
    plan.steps.push_back({"Place the input",
                          "The input fills the box starting at " + listString(before) +
                              " of the output; the " +
                              num(numElements(box.outShape) - tensor.size()) +
                              " elements around it take the constant.",
                          {},
                          dimRange(0, r),
                          dimRange(0, r)});
}

/// REFLECT and SYMMETRIC (`offset` 1 and 0: REFLECT skips the edge element when mirroring,
/// SYMMETRIC repeats it). Per dimension the output is three runs: the mirrored border before
/// (read backwards from index b - 1 + offset), the input itself, and the mirrored border after
/// (read backwards from d - 1 - offset). Their product over the dimensions is a set of disjoint
/// affine pieces.
void padWithMirror(const Shape& shape, int slot, std::int64_t offset, const PadBox& box,
                   OutputPlan& out, OpPlan& plan)
{
    const int r = int(shape.size());
    struct Run
    {
        std::int64_t outStart, length, inStart, step;
    };
    std::vector<std::vector<Run>> runs(static_cast<std::size_t>(r));
    for (std::size_t k = 0; k < std::size_t(r); ++k) {
        const std::int64_t d = shape[k], b = box.before[k], a = box.after[k];
        const Run all[] = {
            {0, b, b - 1 + offset, -1}, {b, d, 0, 1}, {b + d, a, d - 1 - offset, -1}};
        for (const Run& run : all)
            if (run.length > 0) runs[k].push_back(run);
    }
    const bool empty =
        std::any_of(runs.begin(), runs.end(), [](const auto& v) { return v.empty(); });
    std::vector<std::size_t> pick(std::size_t(r), 0);
    for (bool more = !empty; more;) {
        Coords inFirst, step, outFirst;
        Shape extents;
        for (std::size_t k = 0; k < std::size_t(r); ++k) {
            const Run& run = runs[k][pick[k]];
            inFirst.push_back(run.inStart);
            step.push_back(run.step);
            outFirst.push_back(run.outStart);
            extents.push_back(run.length);
        }
        out.pieces.push_back(boxCopy(slot, shape, inFirst, step, box.outShape, outFirst, extents));
        // The next combination of runs, the last dimension fastest.
        more = false;
        for (std::size_t k = std::size_t(r); k-- > 0 && !more;) {
            more = ++pick[k] < runs[k].size();
            if (!more) pick[k] = 0;
        }
    }
    plan.steps.push_back(
        {"Mirror",
         "Along each dimension output index o reads input index i = o - before; where i < 0 "
         "it reads " +
             std::string(offset ? "-i" : "-i - 1") + ", where i >= d it reads " +
             (offset ? "2d - i - 2" : "2d - i - 1") + ". " + num(std::int64_t(out.pieces.size())) +
             (out.pieces.size() == 1 ? " block is" : " blocks are") +
             " copied, each one straight or mirrored per dimension.",
         {},
         dimRange(0, r),
         dimRange(0, r)});
}

OpPlan pad(const OpCall& call)
{
    const Tensor& tensor = call.input("tensor");
    const Shape& shape = tensor.shape();
    const int r = tensor.rank();
    IntTensor paddings = call.intTensor("paddings");
    const std::string mode = padMode(call);
    const bool constant = mode == "CONSTANT";
    const Attr* constantAttr = call.attr("constant_values");
    Tensor fill;
    if (constant && !(constantAttr && constantAttr->isList()))
        fill = padConstant(constantAttr, tensor.dtype());

    // The kernels' own limits (pad_op.cc, mirror_pad_op.cc), checked before anything else.
    const int maxRank = constant ? 8 : 5;
    if (r > maxRank) unimplemented("inputs rank not in [0," + num(maxRank) + "]: " + num(r));
    // JSON has no spelling for an empty [0, 2] matrix: [] stands for it.
    if (paddings.shape == Shape{0}) paddings.shape = {0, 2};
    if (paddings.shape.size() != 2 || paddings.shape[1] != 2)
        invalidArgument("paddings must be a matrix with 2 columns: " + shapeString(paddings.shape));
    if (paddings.shape[0] != r)
        invalidArgument("The first dimension of paddings must be the rank of inputs" +
                        shapeString(paddings.shape) + (constant ? " " : ", ") + shapeString(shape));
    if (constant && !fill.isValid())
        invalidArgument("constant_values must be a scalar. Found: " +
                        shapeString(attrShape(*constantAttr)));

    OpPlan plan;
    plan.steps.push_back(padModeStep(mode, fill, constantAttr, tensor.dtype()));
    const PadBox box = padDimensions(paddings, shape, mode, plan);
    checkCountFits(call, box.outShape, tensor.dtype(), "the output");

    OutputPlan out;
    out.dtype = tensor.dtype();
    out.shape = box.outShape;
    const int slot = call.slot("tensor");
    if (constant)
        padWithConstant(tensor, slot, fill, box, out, plan);
    else
        padWithMirror(shape, slot, mode == "REFLECT" ? 1 : 0, box, out, plan);
    out.checkSize(call.allInputs(), call.limits(), "the output");
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// concat

OpPlan concat(const OpCall& call)
{
    const std::vector<Tensor>& values = call.inputList("values");
    const int n = int(values.size());
    if (n == 0)
        invalidArgument("List argument 'values' to 'ConcatV2' Op with length 0 shorter than "
                        "minimum length 2.");
    checkSameDtypes(values, "ConcatV2");
    const IntTensor axisArg = call.intTensor("axis");
    OpPlan plan;
    OutputPlan out;
    out.dtype = values[0].dtype();
    if (n == 1) {
        // Python checks only that the axis is a scalar (TensorShape.assert_has_rank).
        if (!axisArg.shape.empty())
            invalidArgument("Shape " + shapeTuple(axisArg.shape) + " must have rank 0");
        const std::int64_t given = axisArg.values[0];
        out.shape = values[0].shape();
        out.pieces.push_back(OutputPlan::identityPiece(call.slot("values"), out.shape));
        plan.steps.push_back({"One input",
                              "Quirk: tf.concat of a single tensor returns it unchanged (an "
                              "identity) without checking axis " +
                                  num(given) + " against its rank.",
                              {}});
        plan.outputs.push_back(std::move(out));
        return plan;
    }
    // The kernel also takes the legacy form of the axis: a vector of one element.
    if (!axisArg.shape.empty() && axisArg.shape != Shape{1})
        invalidArgument(call.spelledAs("axis") +
                        " tensor should be a scalar integer, but got shape " +
                        shapeString(axisArg.shape));
    const std::int64_t given = axisArg.values[0];
    const Shape& s0 = values[0].shape();
    const int r = int(s0.size());
    if (r == 0) invalidArgument("Can't concatenate scalars (use tf.stack instead)");
    const std::int64_t a = given < 0 ? given + r : given;
    if (a < 0 || a >= r)
        invalidArgument("ConcatOp : Expected concatenating dimensions in the range [" + num(-r) +
                        ", " + num(r) + "), but got " + num(given));
    const int axis = int(a);
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
        const Shape& si = values[std::size_t(i)].shape();
        if (si.size() != s0.size())
            invalidArgument("ConcatOp : Ranks of all input tensors should match: shape[0] = " +
                            shapeString(s0) + " vs. shape[" + num(i) + "] = " + shapeString(si));
        for (int k = 0; k < r; ++k)
            if (k != axis && si[std::size_t(k)] != s0[std::size_t(k)])
                invalidArgument(
                    "ConcatOp : Dimensions of inputs should match: shape[0] = " + shapeString(s0) +
                    " vs. shape[" + num(i) + "] = " + shapeString(si));
        total = addOrThrow(total, si[std::size_t(axis)],
                           "the output's dimension " + num(axis) + " (the sum of the inputs')");
    }
    out.shape = s0;
    out.shape[std::size_t(axis)] = total;
    checkCountFits(call, out.shape, out.dtype, "the output");
    plan.steps.push_back(
        {"Axis",
         "axis " + num(given) +
             (axisArg.shape.empty() ? ""
                                    : " (given as [" + num(given) +
                                          "], the one-element vector the kernel also takes)") +
             " of rank-" + num(r) + " inputs is dimension " + num(axis) + ".",
         {},
         {axis},
         {axis}});
    std::string sum;
    for (int i = 0; i < n && n <= 16; ++i)
        sum += (i ? " + " : "") + num(values[std::size_t(i)].shape()[std::size_t(axis)]);
    plan.steps.push_back({"Output shape",
                          "Dimension " + num(axis) +
                              " adds up: " + (n > 16 ? num(n) + " sizes" : sum) + " = " +
                              num(total) + "; every other dimension matches, so the output is " +
                              shapeTuple(out.shape) + ".",
                          {},
                          {axis},
                          {axis}});
    Coords starts;
    std::int64_t start = 0;
    for (int i = 0; i < n; ++i) {
        const Shape& si = values[std::size_t(i)].shape();
        if (numElements(si) > 0) {
            Coords outFirst(std::size_t(r), 0);
            outFirst[std::size_t(axis)] = start;
            out.pieces.push_back(boxCopy(call.slot("values", i), si, Coords(std::size_t(r), 0),
                                         Coords(std::size_t(r), 1), out.shape, outFirst, si));
        }
        starts.push_back(start);
        start += si[std::size_t(axis)];
    }
    const std::string places = firstFew(n, [&](std::int64_t i) {
        const std::int64_t len = values[std::size_t(i)].shape()[std::size_t(axis)];
        const std::int64_t first = starts[std::size_t(i)];
        return "values[" + num(i) + "] " +
               (len == 0 ? "adds nothing"
                         : "goes to indices " + num(first) + " to " + num(first + len - 1));
    });
    plan.steps.push_back({"Place the inputs",
                          "Along dimension " + num(axis) + ": " + places + ".",
                          {},
                          {axis},
                          {axis}});
    out.checkSize(call.allInputs(), call.limits(), "the output");
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// stack and unstack

OpPlan stack(const OpCall& call)
{
    const std::vector<Tensor>& values = call.inputList("values");
    const int n = int(values.size());
    if (n == 0)
        invalidArgument("List argument 'values' to 'Pack' Op with length 0 shorter than minimum "
                        "length 1.");
    checkSameDtypes(values, "Pack");
    const std::int64_t given = call.getInt("axis", 0);
    const Shape& s0 = values[0].shape();
    const int expanded = int(s0.size()) + 1;
    const std::int64_t a = given < 0 ? given + expanded : given;
    if (a < 0 || a >= expanded)
        invalidArgument("axis = " + num(given) + " not in [" + num(-expanded) + ", " +
                        num(expanded) + ")");
    const int axis = int(a);
    for (int i = 1; i < n; ++i)
        if (values[std::size_t(i)].shape() != s0)
            invalidArgument("Shapes of all inputs must match: values[0].shape = " +
                            shapeString(s0) + " != values[" + num(i) +
                            "].shape = " + shapeString(values[std::size_t(i)].shape()));
    if (expanded > kMaxRank)
        invalidArgument("stack would make a tensor of rank " + num(expanded) +
                        "; SliceScope's tensors have rank 0 to " + num(kMaxRank));
    OutputPlan out;
    out.dtype = values[0].dtype();
    out.shape = s0;
    out.shape.insert(out.shape.begin() + axis, n);
    checkCountFits(call, out.shape, out.dtype, "the output");
    // Each input, seen with a dimension of size 1 at the axis, is one box of the output.
    Shape unit = s0;
    unit.insert(unit.begin() + axis, 1);
    for (int k = 0; k < n; ++k) {
        Coords outFirst(unit.size(), 0);
        outFirst[std::size_t(axis)] = k;
        out.pieces.push_back(boxCopy(call.slot("values", k), unit, Coords(unit.size(), 0),
                                     Coords(unit.size(), 1), out.shape, outFirst, unit));
    }
    OpPlan plan;
    plan.steps.push_back({"Axis",
                          "axis " + num(given) + " of the rank-" + num(expanded) +
                              " output is dimension " + num(axis) + ".",
                          {},
                          {},
                          {axis}});
    plan.steps.push_back({"Output shape",
                          num(n) + (n == 1 ? " input" : " inputs") + " of shape " + shapeTuple(s0) +
                              " give " + shapeTuple(out.shape) + ": " + num(n) +
                              " is inserted at position " + num(axis) + ".",
                          {},
                          {},
                          {axis}});
    plan.steps.push_back({"Place the inputs",
                          "output[..., k, ...] = values[k], with k at dimension " + num(axis) + ".",
                          {},
                          {},
                          {axis}});
    out.checkSize(call.allInputs(), call.limits(), "the output");
    plan.outputs.push_back(std::move(out));
    return plan;
}

OpPlan unstack(const OpCall& call)
{
    const Tensor& value = call.input("value");
    const Shape& shape = value.shape();
    const int r = value.rank();
    // Unpack's op definition declares num >= 0, checked before the kernel runs.
    if (call.has("num")) checkAttrMinimum("num", call.requireInt("num"), 0);
    const std::int64_t given = call.getInt("axis", 0);
    const std::int64_t a = given < 0 ? given + r : given;
    if (a < 0 || a >= r)
        invalidArgument("axis = " + num(given) + " not in [" + num(-r) + ", " + num(r) + ")");
    const int axis = int(a);
    const std::int64_t d = shape[std::size_t(axis)];
    const std::int64_t n = call.getInt("num", d);
    if (n != d)
        invalidArgument("Input shape axis " + num(axis) + " must equal " + num(n) + ", got shape " +
                        shapeString(shape));
    checkOutputCount(call, n);
    // Output k, seen with a dimension of size 1 at the axis, is one box of the input.
    Shape unit = shape;
    unit[std::size_t(axis)] = 1;
    Shape outShape = shape;
    outShape.erase(outShape.begin() + axis);
    OpPlan plan;
    for (std::int64_t k = 0; k < n; ++k) {
        Coords inFirst(shape.size(), 0);
        inFirst[std::size_t(axis)] = k;
        OutputPlan out;
        out.dtype = value.dtype();
        out.shape = outShape;
        out.pieces.push_back(boxCopy(call.slot("value"), shape, inFirst, Coords(shape.size(), 1),
                                     unit, Coords(shape.size(), 0), unit));
        plan.outputs.push_back(std::move(out));
    }
    plan.steps.push_back({"Axis",
                          "axis " + num(given) + " of a rank-" + num(r) + " input is dimension " +
                              num(axis) + ", of size " + num(d) + ": " + num(d) +
                              (d == 1 ? " output." : " outputs."),
                          {},
                          {axis},
                          {}});
    plan.steps.push_back({"Slices",
                          "output k = value[..., k, ...] with k at dimension " + num(axis) +
                              "; the dimension is removed, so each output has shape " +
                              shapeTuple(outShape) + ".",
                          {},
                          {axis},
                          {}});
    return plan;
}

// ---------------------------------------------------------------------------------------------
// reverse_sequence

OpPlan reverseSequence(const OpCall& call)
{
    const Tensor& input = call.input("input");
    const Tensor& lengths = call.input("seq_lengths");
    const Shape& shape = input.shape();
    const int r = input.rank();
    if (lengths.dtype() != DType::Int32 && lengths.dtype() != DType::Int64)
        invalidArgument("Value passed to parameter 'seq_lengths' has DataType " +
                        std::string(dtypeName(lengths.dtype())) +
                        " not in list of allowed values: int32, int64");
    const std::int64_t seqDim = call.requireInt("seq_axis");
    const std::int64_t batchDim = call.getInt("batch_axis", 0);
    // Negative axes are refused, not wrapped.
    if (batchDim < 0) invalidArgument("Invalid batch_dim " + num(batchDim));
    if (seqDim < 0) invalidArgument("Invalid seq_dim " + num(seqDim));
    if (lengths.rank() != 1)
        invalidArgument("seq_lengths must be 1-dim, not " + num(lengths.rank()));
    if (batchDim == seqDim) invalidArgument("batch_dim == seq_dim == " + num(seqDim));
    if (seqDim >= r)
        invalidArgument("seq_dim must be < input rank ( " + num(seqDim) + " vs. " + num(r) + ")");
    if (batchDim >= r)
        invalidArgument("batch_dim must be < input rank ( " + num(batchDim) + " vs. " + num(r) +
                        ")");
    const std::size_t s = std::size_t(seqDim);
    const std::size_t b = std::size_t(batchDim);
    if (lengths.size() != shape[b])
        invalidArgument("Length of seq_lengths != input.dims(" + num(batchDim) + "), (" +
                        num(lengths.size()) + " vs. " + num(shape[b]) + ")");
    const std::vector<std::int64_t> lens = lengths.toInt64Vector();
    for (std::size_t k = 0; k < lens.size(); ++k) {
        if (lens[k] < 0) invalidArgument("seq_lens(" + num(std::int64_t(k)) + ") < 0");
        if (lens[k] > shape[s])
            invalidArgument("seq_lens(" + num(std::int64_t(k)) + ") > input.dims(" + num(seqDim) +
                            ")");
    }
    // Ranks below 2 cannot get here: the two axes must differ and both be below the rank.
    if (r > 5) invalidArgument("ReverseSequenceOp : Unhandled input dimensions: " + num(r));

    OpPlan plan;
    plan.steps.push_back({"Axes",
                          "Dimension " + num(batchDim) + " (size " + num(shape[b]) +
                              ") is the batch; along dimension " + num(seqDim) + " (size " +
                              num(shape[s]) +
                              ") each batch entry has its first seq_lengths[i] elements reversed. "
                              "Negative axes are not wrapped.",
                          {},
                          {int(batchDim), int(seqDim)},
                          {int(batchDim), int(seqDim)}});
    const std::string perBatch = firstFew(std::int64_t(lens.size()), [&](std::int64_t k) {
        const std::int64_t len = lens[std::size_t(k)];
        return "entry " + num(k) + ": " +
               (len <= 1 ? "unchanged" : "first " + num(len) + " reversed");
    });
    plan.steps.push_back({"Lengths",
                          (lens.empty() ? std::string("No batch entries") : perBatch) +
                              ". An element at sequence index j < L reads index L - 1 - j; the "
                              "rest is copied through (L may equal the whole dimension).",
                          {},
                          {int(batchDim), int(seqDim)},
                          {int(batchDim), int(seqDim)}});

    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = shape;
    const int slot = call.slot("input");
    // Reversing one element changes nothing, so L <= 1 counts as 0 and joins the copies.
    auto effective = [&](std::size_t k) { return lens[k] <= 1 ? 0 : lens[k]; };
    std::size_t runs = 0;
    for (std::size_t k = 0; k < lens.size(); ++k)
        runs += k == 0 || effective(k) != effective(k - 1);
    // Batch entries with equal lengths in a row form two affine pieces (reversed head, copied
    // tail). When those pieces would be tiny, one list of contiguous rows costs less.
    const std::int64_t total = input.size();
    const std::size_t innerFrom = std::max(s, b) + 1;
    // An empty input's trailing dimensions may multiply past int64; it takes the box path.
    const std::int64_t inner = total == 0 ? 0 : product(shape, innerFrom, shape.size());
    const std::int64_t rowCount = inner == 0 ? 0 : total / inner;
    if (std::int64_t(runs) * 64 <= rowCount || total == 0) {
        const Coords ones(shape.size(), 1);
        for (std::size_t k = 0; k < lens.size();) {
            std::size_t end = k + 1;
            while (end < lens.size() && effective(end) == effective(k))
                ++end;
            const std::int64_t len = effective(k);
            Shape extents = shape;
            extents[b] = std::int64_t(end - k);
            Coords first(shape.size(), 0);
            first[b] = std::int64_t(k);
            extents[s] = len;
            if (numElements(extents) > 0) {
                Coords inFirst = first;
                inFirst[s] = len - 1;
                Coords step = ones;
                step[s] = -1;
                out.pieces.push_back(boxCopy(slot, shape, inFirst, step, shape, first, extents));
            }
            extents[s] = shape[s] - len;
            first[s] = len;
            if (numElements(extents) > 0)
                out.pieces.push_back(boxCopy(slot, shape, first, ones, shape, first, extents));
            k = end;
        }
    } else {
        RowsPiece rows = rowList(call, rowCount, inner);
        const Shape outer(shape.begin(), shape.begin() + std::ptrdiff_t(innerFrom));
        const std::int64_t seqStride = rowMajorStrides(shape)[s];
        Coords c(outer.size(), 0);
        for (std::int64_t row = 0; row < rowCount; ++row) {
            // Row `row` starts at element row * inner; only its sequence coordinate moves.
            const std::int64_t len = lens[std::size_t(c[b])];
            const std::int64_t j = c[s];
            rows.rows.push_back(
                packSource(slot, row * inner + (j < len ? len - 1 - 2 * j : 0) * seqStride));
            for (std::size_t k = outer.size(); k-- > 0;) {
                if (++c[k] < outer[k]) break;
                c[k] = 0;
            }
        }
        out.pieces.push_back(std::move(rows));
    }
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// reverse (ReverseV2's axis list, or the 1.x Reverse's one bool per dimension)

// The flags of `dims`, row-major; every list at one depth as long as the first (the shape).
std::vector<bool> boolList(const Attr& a, Shape& shape)
{
    shape = attrShape(a);
    std::vector<bool> flags;
    const auto flatten = [&](const auto& self, const Attr& x, std::size_t depth) -> void {
        if (depth == shape.size()) {
            if (!x.isBool()) badRequest("attribute 'dims' must be a list of booleans");
            flags.push_back(x.toBool());
            return;
        }
        if (!x.isList() || std::int64_t(x.toList().size()) != shape[depth])
            badRequest("attribute 'dims' must be a rectangular list of booleans");
        for (const Attr& item : x.toList())
            self(self, item, depth + 1);
    };
    flatten(flatten, a, 0);
    return flags;
}

OpPlan reverse(const OpCall& call)
{
    const Tensor& tensor = call.input("tensor");
    const Shape& shape = tensor.shape();
    const int r = tensor.rank();
    if (call.has("axis") == call.has("dims"))
        badRequest("op 'reverse' needs exactly one of 'axis' (a list of dimensions) and 'dims' "
                   "(one bool per dimension, the 1.x form)");
    OpPlan plan;
    OutputPlan out;
    out.dtype = tensor.dtype();
    out.shape = shape;
    auto identity = [&](const std::string& why) {
        out.pieces.push_back(OutputPlan::identityPiece(call.slot("tensor"), shape));
        plan.steps.push_back({"Nothing to reverse", why, {}});
        plan.outputs.push_back(std::move(out));
        return plan;
    };
    std::vector<bool> reversed(std::size_t(r), false);
    if (call.has("axis")) {
        const IntTensor axes = call.intTensor("axis");
        if (r == 0 || tensor.size() == 0)
            return identity("Quirk: ReverseV2 returns a " +
                            std::string(r == 0 ? "scalar" : "tensor with no elements") +
                            " unchanged without looking at axis at all.");
        if (axes.shape.size() != 1)
            invalidArgument("'dims' must be 1-dimension, not " +
                            num(std::int64_t(axes.shape.size())));
        for (std::size_t k = 0; k < axes.values.size(); ++k) {
            const std::int64_t given = axes.values[k];
            const std::int64_t a = given < 0 ? given + r : given;
            if (a < 0 || a >= r)
                invalidArgument("'axis'[" + num(std::int64_t(k)) + "] = " + num(given) +
                                " is out of valid range [0, " + num(r - 1));
            if (reversed[std::size_t(a)])
                invalidArgument("axis " + num(a) + " specified more than once.");
            reversed[std::size_t(a)] = true;
        }
    } else {
        Shape dimsShape;
        const std::vector<bool> dims = boolList(*call.attr("dims"), dimsShape);
        if (r == 0) return identity("Reverse returns a scalar unchanged without looking at dims.");
        if (dimsShape.size() != 1)
            invalidArgument("'dims' must be 1-dimension, not " +
                            num(std::int64_t(dimsShape.size())));
        if (dimsShape[0] != r)
            invalidArgument("'dims' must have the same number of values as 'input' has dimensions. "
                            "'input' has " +
                            num(r) + "'dims' has " + num(dimsShape[0]) + " values");
        reversed = dims;
    }
    // reverse_op.cc instantiates its Eigen kernel for ranks 0 to 8 only.
    if (r > 8) unimplemented("reverse is not implemented for tensors of rank > 8.");
    std::vector<int> which;
    Coords first(std::size_t(r), 0), step(std::size_t(r), 1);
    for (int k = 0; k < r; ++k)
        if (reversed[std::size_t(k)]) {
            which.push_back(k);
            first[std::size_t(k)] = shape[std::size_t(k)] - 1;
            step[std::size_t(k)] = -1;
        }
    const std::string names = firstFew(std::int64_t(which.size()), [&](std::int64_t i) {
        const int k = which[std::size_t(i)];
        return "dimension " + num(k) + " (size " + num(shape[std::size_t(k)]) + ")";
    });
    plan.steps.push_back({"Axes",
                          which.empty()
                              ? "No dimension is reversed: the output is a copy."
                              : names + (which.size() == 1 ? " is" : " are") + " reversed.",
                          {},
                          which,
                          which});
    plan.steps.push_back({"Rule",
                          "out[c] = in[c'] where c'_j = d_j - 1 - c_j in every reversed "
                          "dimension j and c'_j = c_j elsewhere.",
                          {},
                          which,
                          which});
    out.pieces.push_back(
        boxCopy(call.slot("tensor"), shape, first, step, shape, Coords(std::size_t(r), 0), shape));
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// roll (roll_op.cc): out[(c_j + shift_j) mod d_j] = in[c]

// The shift of every dimension as RollOp sums it: the axes and shifts read as 32-bit ints (an
// int64 axis or shift keeps its low 32 bits), an axis counted from the end once, and the
// running sum kept modulo max(d, 1) in 32 bits (its overflow wraps, as the kernel's int does).
std::vector<std::int64_t> rollShifts(const OpCall& call, const Shape& shape)
{
    const IntTensor shift = call.intTensor("shift");
    const IntTensor axis = call.intTensor("axis");
    if (shape.empty()) invalidArgument("input must be 1-D or higher");
    if (shift.shape.size() > 1)
        invalidArgument("shift must be a scalar or a 1-D vector. Found: " +
                        shapeString(shift.shape));
    if (axis.shape.size() > 1)
        invalidArgument("axis must be a scalar or a 1-D vector. Found: " + shapeString(axis.shape));
    if (shift.shape != axis.shape) invalidArgument("shift and axis must have the same size");
    const int r = int(shape.size());
    std::vector<std::int64_t> sums(shape.size(), 0);
    for (std::size_t i = 0; i < shift.values.size(); ++i) {
        std::int32_t a = static_cast<std::int32_t>(axis.values[i]);
        if (a < 0) a += r;
        if (a < 0 || a >= r) invalidArgument("axis " + num(a) + " is out of range");
        const std::int64_t d = std::max<std::int64_t>(shape[std::size_t(a)], 1);
        const std::int32_t sum = static_cast<std::int32_t>(
            sums[std::size_t(a)] + std::int64_t(static_cast<std::int32_t>(shift.values[i])));
        sums[std::size_t(a)] = (sum % d + d) % d;
    }
    return sums;
}

// One box per choice of side in every rolled dimension: the output's [0, s) reads the input's
// tail [d - s, d), and [s, d) reads its head. 2^k boxes for k rolled dimensions, each of size
// >= 2, so never more boxes than elements; past kMostRolledForBoxes rolled dimensions (4,096
// boxes), one source per element instead.
OpPlan roll(const OpCall& call)
{
    constexpr int kMostRolledForBoxes = 12;
    const Tensor& input = call.input("input");
    const Shape& shape = input.shape();
    const std::vector<std::int64_t> shifts = rollShifts(call, shape);
    const int r = int(shape.size());
    std::vector<int> rolled;
    for (int k = 0; k < r; ++k)
        if (shifts[std::size_t(k)] != 0) rolled.push_back(k);
    OpPlan plan;
    OutputPlan out = newOutput(call, input.dtype(), shape, "the rolled tensor");
    const std::string names = firstFew(std::int64_t(rolled.size()), [&](std::int64_t i) {
        const int k = rolled[std::size_t(i)];
        return "dimension " + num(k) + " by " + num(shifts[std::size_t(k)]) + " of " +
               num(shape[std::size_t(k)]);
    });
    plan.steps.push_back({"Shifts",
                          rolled.empty()
                              ? "Every shift is a multiple of its dimension's size "
                                "(or there is none): the output is a copy."
                              : "Each shift summed per dimension, modulo its size: " + names + ".",
                          {},
                          rolled,
                          rolled});
    plan.steps.push_back({"Rule",
                          "out[c] = in[c'] where c'_j = (c_j - shift_j) mod d_j: an element "
                          "pushed past the end comes back at the start.",
                          {},
                          rolled,
                          rolled});
    const int slot = call.slot("input");
    if (input.size() == 0 || rolled.empty()) {
        out.pieces.push_back(numElements(shape) == 0 ? OutputPlan::emptyPiece(slot, shape)
                                                     : OutputPlan::identityPiece(slot, shape));
    } else if (int(rolled.size()) <= kMostRolledForBoxes) {
        const Coords ones(std::size_t(r), 1);
        for (std::uint32_t sides = 0; sides < (1u << rolled.size()); ++sides) {
            Coords inFirst(std::size_t(r), 0), outFirst(std::size_t(r), 0);
            Shape extents = shape;
            for (std::size_t i = 0; i < rolled.size(); ++i) {
                const std::size_t k = std::size_t(rolled[i]);
                const std::int64_t s = shifts[k];
                if (sides & (1u << i)) { // the wrapped part: out [0, s) from in [d - s, d)
                    inFirst[k] = shape[k] - s;
                    extents[k] = s;
                } else { // out [s, d) from in [0, d - s)
                    outFirst[k] = s;
                    extents[k] = shape[k] - s;
                }
            }
            out.pieces.push_back(boxCopy(slot, shape, inFirst, ones, shape, outFirst, extents));
        }
    } else {
        const std::int64_t n = input.size();
        RowsPiece rows = rowList(call, n, 1);
        const auto strides = rowMajorStrides(shape);
        Coords c(std::size_t(r), 0);
        for (std::int64_t e = 0; e < n; ++e) {
            std::int64_t from = 0;
            for (std::size_t k = 0; k < std::size_t(r); ++k) {
                const std::int64_t j = c[k] - shifts[k];
                from += (j < 0 ? j + shape[k] : j) * strides[k];
            }
            rows.rows.push_back(packSource(slot, from));
            for (std::size_t k = std::size_t(r); k-- > 0;) {
                if (++c[k] < shape[k]) break;
                c[k] = 0;
            }
        }
        out.pieces.push_back(std::move(rows));
    }
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// transpose

OpPlan transpose(const OpCall& call)
{
    const Tensor& a = call.input("a");
    const Shape& shape = a.shape();
    const int r = a.rank();
    IntTensor perm{{r}, {}};
    for (int i = r; i-- > 0;)
        perm.values.push_back(i);
    const bool defaulted = !call.has("perm");
    if (!defaulted) perm = call.intTensor("perm");
    if (perm.shape.size() != 1)
        invalidArgument("perm must be rank 1, got shape " + shapeString(perm.shape));
    if (perm.shape[0] != r)
        invalidArgument("transpose expects a vector of size " + num(r) +
                        ". But input(1) is a vector of size " + num(perm.shape[0]));
    std::vector<bool> used(std::size_t(r), false);
    Shape outShape;
    for (int i = 0; i < r; ++i) {
        const std::int64_t d = perm.values[std::size_t(i)];
        if (d < 0 || d >= r) invalidArgument(num(d) + " is out of range [0 .. " + num(r) + ")");
        used[std::size_t(d)] = true;
        outShape.push_back(shape[std::size_t(d)]);
    }
    for (int i = 0; i < r; ++i)
        if (!used[std::size_t(i)]) {
            std::string joined;
            for (std::int64_t p : perm.values)
                joined += (joined.empty() ? "" : ",") + num(p);
            invalidArgument(num(i) + " is missing from {" + joined + "}.");
        }
    OpPlan plan;
    const std::string dims = firstFew(r, [&](std::int64_t i) {
        return "output " + num(i) + " = input " + num(perm.values[std::size_t(i)]) + " (size " +
               num(outShape[std::size_t(i)]) + ")";
    });
    plan.steps.push_back({"Permutation",
                          "perm " + listString(perm.values) +
                              (defaulted ? " (the default: the dimensions reversed)" : "") +
                              ". Entries are not wrapped: each must be in [0, " + num(r) +
                              ") and appear once.",
                          {},
                          dimRange(0, r),
                          dimRange(0, r)});
    plan.steps.push_back({"Output shape",
                          (r == 0 ? std::string("A scalar stays a scalar") : dims) +
                              ", so the output is " + shapeTuple(outShape) + ".",
                          {},
                          dimRange(0, r),
                          dimRange(0, r)});
    plan.steps.push_back({"Rule",
                          "out[c] = in[c'] with c'[perm[i]] = c[i]: walking output dimension i "
                          "walks input dimension perm[i].",
                          {},
                          dimRange(0, r),
                          dimRange(0, r)});
    AffinePiece p;
    p.slot = call.slot("a");
    p.extents = outShape;
    p.outStrides = rowMajorStrides(outShape);
    const auto inStrides = rowMajorStrides(shape);
    for (std::int64_t d : perm.values)
        p.inStrides.push_back(inStrides[std::size_t(d)]);
    OutputPlan out;
    out.dtype = a.dtype();
    out.shape = outShape;
    out.pieces.push_back(std::move(p));
    plan.outputs.push_back(std::move(out));
    return plan;
}

} // namespace

std::vector<OpDef> shapeOps()
{
    return {
        {.name = "split",
         .summary = "tf.split: equal pieces (a count) or pieces of listed sizes (one may be -1)",
         .inputs = {{"value"}},
         .attrs = {{"num_or_size_splits", "", AttrType::Ints, {"num_split"}},
                   {"axis", "0", AttrType::Ints, {"split_dim"}}},
         .outputs = "one per piece",
         .plan = split,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {3, 6})}},
                     {{"num_or_size_splits", Attr::ints({2, 3, -1})}, {"axis", Attr(1)}}},
         .family = OpFamily::SplitJoin,
         .equivalents =
             {equivalent(
                  Framework::NumPy,
                  "import numpy as np\n\nnp.split(x, {num_or_size_splits|cuts}, axis={axis=0})",
                  "np.split takes a count, or the indices where the pieces start (not their "
                  "sizes)."),
              equivalent(Framework::TensorFlow, "import tensorflow as tf\n\ntf.split({args})"),
              equivalent(
                  Framework::PyTorch,
                  "import torch\n\ntorch.split(x, {num_or_size_splits|sizes}, dim={axis=0})",
                  "torch.split takes the size of each piece (an integer is a size, not a count)."),
              equivalent(Framework::Jax,
                         "import jax.numpy as jnp\n\njnp.split(x, {num_or_size_splits|cuts}, "
                         "axis={axis=0})",
                         "jnp.split takes a count, or the indices where the pieces start (not "
                         "their sizes)."),
              equivalent(Framework::Onnx,
                         "from onnx import helper\n\n# inputs: x, split = "
                         "{num_or_size_splits|sizes} (int64)\nhelper.make_node(\"Split\", [\"x\", "
                         "\"split\"], {num_or_size_splits|outputs}, axis={axis=0})"),
              equivalent(Framework::Paddle,
                         "import paddle\n\npaddle.split(x, {num_or_size_splits}, axis={axis=0})")}},
        {.name = "tile",
         .summary = "tf.tile: the input repeated multiples[i] times along dimension i",
         .inputs = {{"input"}},
         .attrs = {{"multiples", "", AttrType::Ints}},
         .outputs = "output",
         .plan = tile,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {2, 3})}}, {{"multiples", Attr::ints({2, 3})}}},
         .family = OpFamily::RepeatPad,
         .equivalents =
             {equivalent(Framework::NumPy, "import numpy as np\n\nnp.tile(x, {multiples})"),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.tile(x, {multiples})"),
              equivalent(Framework::PyTorch, "import torch\n\ntorch.tile(x, {multiples})"),
              equivalent(Framework::Jax, "import jax.numpy as jnp\n\njnp.tile(x, {multiples})"),
              equivalent(Framework::Onnx,
                         "from onnx import helper\n\n# inputs: x, repeats = {multiples} (int64)\n"
                         "helper.make_node(\"Tile\", [\"x\", \"repeats\"], [\"y\"])"),
              equivalent(Framework::Paddle,
                         "import paddle\n\npaddle.tile(x, repeat_times={multiples})")}},
        {.name = "pad",
         .summary = "tf.pad: a border of a constant, or a mirror image (REFLECT, SYMMETRIC)",
         .inputs = {{"tensor"}},
         .attrs = {{"paddings", "", AttrType::Ints},
                   {"mode", "CONSTANT", AttrType::String},
                   {"constant_values", "0"}},
         .outputs = "output",
         .plan = pad,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {2, 3})}},
                     {{"paddings", Attr::List{Attr::List{1, 1}, Attr::List{2, 2}}},
                      {"constant_values", Attr(-1)}}},
         .family = OpFamily::RepeatPad,
         .equivalents =
             {when("mode", "CONSTANT", "CONSTANT",
                   equivalent(Framework::NumPy, "import numpy as np\n\nnp.pad(x, {paddings}, "
                                                "constant_values={constant_values=0})")),
              when("mode", "CONSTANT", "CONSTANT",
                   equivalent(Framework::TensorFlow,
                              "import tensorflow as tf\n\ntf.pad(x, {paddings}, "
                              "constant_values={constant_values=0})")),
              when("mode", "CONSTANT", "CONSTANT",
                   equivalent(Framework::PyTorch,
                              "import torch\n\ntorch.nn.functional.pad(x, {paddings|torch_pad}, "
                              "value={constant_values=0})",
                              "PyTorch lists the pads from the last dimension backwards.")),
              when("mode", "CONSTANT", "CONSTANT",
                   equivalent(Framework::Jax, "import jax.numpy as jnp\n\njnp.pad(x, {paddings}, "
                                              "constant_values={constant_values=0})")),
              when("mode", "CONSTANT", "CONSTANT",
                   equivalent(Framework::Onnx,
                              "from onnx import helper\n\n# inputs: x, pads = {paddings|onnx_pads} "
                              "(int64), "
                              "constant_value = {constant_values=0}\nhelper.make_node(\"Pad\", "
                              "[\"x\", \"pads\", "
                              "\"constant_value\"], [\"y\"], mode=\"constant\")")),
              when("mode", "CONSTANT", "CONSTANT",
                   equivalent(
                       Framework::Paddle,
                       "import paddle\n\npaddle.nn.functional.pad(x, {paddings|flat}, "
                       "mode=\"constant\", "
                       "value={constant_values=0})",
                       "Paddle pads every dimension when the list has two entries per dimension.")),
              when("mode", "REFLECT", "CONSTANT",
                   equivalent(Framework::NumPy,
                              "import numpy as np\n\nnp.pad(x, {paddings}, mode=\"reflect\")")),
              when(
                  "mode", "REFLECT", "CONSTANT",
                  equivalent(Framework::TensorFlow,
                             "import tensorflow as tf\n\ntf.pad(x, {paddings}, mode=\"REFLECT\")")),
              when("mode", "REFLECT", "CONSTANT",
                   equivalent(
                       Framework::PyTorch,
                       "import torch\n\ntorch.nn.functional.pad(x, {paddings|torch_pad}, "
                       "mode=\"reflect\")",
                       "PyTorch reflects only floating-point tensors, and only the last 1 to 3 "
                       "dimensions of a 2-D to 5-D input.")),
              when("mode", "REFLECT", "CONSTANT",
                   equivalent(
                       Framework::Jax,
                       "import jax.numpy as jnp\n\njnp.pad(x, {paddings}, mode=\"reflect\")")),
              when("mode", "REFLECT", "CONSTANT",
                   equivalent(
                       Framework::Onnx,
                       "from onnx import helper\n\n# inputs: x, pads = {paddings|onnx_pads} "
                       "(int64)\n"
                       "helper.make_node(\"Pad\", [\"x\", \"pads\"], [\"y\"], mode=\"reflect\")")),
              when("mode", "REFLECT", "CONSTANT",
                   equivalent(Framework::Paddle,
                              "import paddle\n\npaddle.nn.functional.pad(x, {paddings|flat}, "
                              "mode=\"reflect\")",
                              "Paddle's reflect mode pads only the spatial dimensions of 3-D to "
                              "5-D input.")),
              when("mode", "SYMMETRIC", "CONSTANT",
                   equivalent(Framework::NumPy,
                              "import numpy as np\n\nnp.pad(x, {paddings}, mode=\"symmetric\")")),
              when("mode", "SYMMETRIC", "CONSTANT",
                   equivalent(
                       Framework::TensorFlow,
                       "import tensorflow as tf\n\ntf.pad(x, {paddings}, mode=\"SYMMETRIC\")")),
              when("mode", "SYMMETRIC", "CONSTANT",
                   noEquivalent(Framework::PyTorch, "torch.nn.functional.pad has no symmetric mode "
                                                    "(reflect leaves the edge out).")),
              when("mode", "SYMMETRIC", "CONSTANT",
                   equivalent(
                       Framework::Jax,
                       "import jax.numpy as jnp\n\njnp.pad(x, {paddings}, mode=\"symmetric\")")),
              when("mode", "SYMMETRIC", "CONSTANT",
                   noEquivalent(Framework::Onnx,
                                "ONNX Pad has constant, reflect and edge modes, not symmetric.")),
              when("mode", "SYMMETRIC", "CONSTANT",
                   noEquivalent(Framework::Paddle,
                                "paddle.nn.functional.pad has no symmetric mode."))}},
        {.name = "concat",
         .summary = "tf.concat: tensors joined along an existing dimension",
         .inputs = {{"values", true}},
         .attrs = {{"axis", "", AttrType::Ints, {"concat_dim"}}},
         .outputs = "output",
         .plan = concat,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {2, 3}),
                       exampleValue(DType::Int32, Attr::List{Attr(Attr::List{100, 101, 102})})}},
                     {{"axis", Attr(0)}}},
         .family = OpFamily::SplitJoin,
         .equivalents =
             {equivalent(Framework::NumPy,
                         "import numpy as np\n\nnp.concatenate(values, axis={axis})",
                         "values: the list of inputs"),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.concat(values, axis={axis})"),
              equivalent(Framework::PyTorch, "import torch\n\ntorch.cat(values, dim={axis})"),
              equivalent(Framework::Jax,
                         "import jax.numpy as jnp\n\njnp.concatenate(values, axis={axis})"),
              equivalent(Framework::Onnx, "from onnx import helper\n\nhelper.make_node(\"Concat\", "
                                          "[\"values_0\", \"values_1\"], "
                                          "[\"y\"], axis={axis})"),
              equivalent(Framework::Paddle,
                         "import paddle\n\npaddle.concat(values, axis={axis})")}},
        {.name = "stack",
         .aliases = {"pack"},
         .summary = "tf.stack: same-shape tensors joined along a new dimension",
         .inputs = {{"values", true}},
         .attrs = {{"axis", "0", AttrType::Int}},
         .outputs = "output",
         .plan = stack,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {2, 3}),
                       exampleValue(DType::Int32,
                                    Attr::List{Attr::List{10, 11, 12}, Attr::List{13, 14, 15}})}},
                     {{"axis", Attr(1)}}},
         .family = OpFamily::SplitJoin,
         .equivalents =
             {equivalent(Framework::NumPy, "import numpy as np\n\nnp.stack(values, axis={axis=0})"),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.stack(values, axis={axis=0})"),
              equivalent(Framework::PyTorch, "import torch\n\ntorch.stack(values, dim={axis=0})"),
              equivalent(Framework::Jax,
                         "import jax.numpy as jnp\n\njnp.stack(values, axis={axis=0})"),
              noEquivalent(Framework::Onnx,
                           "ONNX has no stack: Unsqueeze each input, then Concat."),
              equivalent(Framework::Paddle,
                         "import paddle\n\npaddle.stack(values, axis={axis=0})")}},
        {.name = "unstack",
         .aliases = {"unpack"},
         .summary = "tf.unstack: one output per index of a dimension, which is removed",
         .inputs = {{"value"}},
         .attrs = {{"num", "inferred", AttrType::Int}, {"axis", "0", AttrType::Int}},
         .outputs = "one per slice",
         .plan = unstack,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {3, 2})}}, {{"axis", Attr(1)}}},
         .family = OpFamily::SplitJoin,
         .equivalents =
             {equivalent(Framework::NumPy,
                         "import numpy as np\n\nlist(np.moveaxis(x, {axis=0}, 0))"),
              equivalent(Framework::TensorFlow, "import tensorflow as tf\n\ntf.unstack({args})"),
              equivalent(Framework::PyTorch, "import torch\n\ntorch.unbind(x, dim={axis=0})"),
              equivalent(Framework::Jax,
                         "import jax.numpy as jnp\n\nlist(jnp.moveaxis(x, {axis=0}, 0))"),
              noEquivalent(
                  Framework::Onnx,
                  "ONNX has no unstack: Split into pieces of 1 along the axis, then Squeeze each."),
              equivalent(Framework::Paddle, "import paddle\n\npaddle.unstack(x, axis={axis=0})")}},
        {.name = "reverse_sequence",
         .summary =
             "tf.reverse_sequence: the first seq_lengths[i] elements of each batch entry reversed",
         .inputs = {{"input"}, {"seq_lengths"}},
         .attrs = {{"seq_axis", "", AttrType::Int, {"seq_dim"}},
                   {"batch_axis", "0", AttrType::Int, {"batch_dim"}}},
         .outputs = "output",
         .plan = reverseSequence,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {4, 5})},
                      {exampleValue(DType::Int32, Attr::List{5, 2, 3, 1})}},
                     {{"seq_axis", Attr(1)}, {"batch_axis", Attr(0)}}},
         .family = OpFamily::Reorder,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.reverse_sequence({args})"),
              equivalent(Framework::Onnx,
                         "from onnx import helper\n\n# inputs: x, seq_lengths "
                         "(int64)\nhelper.make_node(\"ReverseSequence\", [\"x\", \"seq_lengths\"], "
                         "[\"y\"], batch_axis={batch_axis=0}, time_axis={seq_axis})",
                         "ONNX takes batch_axis and time_axis 0 and 1 only (one of each)."),
              noEquivalent(Framework::NumPy,
                           "NumPy has no reverse_sequence: reverse the first seq_lengths[i] "
                           "elements of each batch entry with a slice, one entry at a time."),
              noEquivalent(Framework::PyTorch,
                           "PyTorch has no reverse_sequence: reverse the first seq_lengths[i] "
                           "elements of each batch entry with a slice, one entry at a time."),
              noEquivalent(Framework::Jax,
                           "JAX has no reverse_sequence: reverse the first seq_lengths[i] elements "
                           "of each batch entry with a slice, one entry at a time."),
              noEquivalent(Framework::Paddle,
                           "PaddlePaddle has no reverse_sequence: reverse the first seq_lengths[i] "
                           "elements of each batch entry with a slice, one entry at a time.")}},
        {.name = "reverse",
         .summary = "tf.reverse: the listed dimensions reversed",
         .inputs = {{"tensor"}},
         .attrs = {{"axis", "one of axis and dims", AttrType::Ints},
                   {"dims", "one of axis and dims"}},
         .outputs = "output",
         .plan = reverse,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {3, 4})}}, {{"axis", Attr::ints({1})}}},
         .family = OpFamily::Reorder,
         .equivalents =
             {equivalent(Framework::NumPy, "import numpy as np\n\nnp.flip(x, {axis})"),
              equivalent(Framework::TensorFlow, "import tensorflow as tf\n\ntf.reverse(x, {axis})"),
              equivalent(Framework::PyTorch, "import torch\n\ntorch.flip(x, {axis})"),
              equivalent(Framework::Jax, "import jax.numpy as jnp\n\njnp.flip(x, {axis})"),
              noEquivalent(Framework::Onnx,
                           "ONNX has no reverse op; a Slice with steps -1 on those axes does it."),
              equivalent(Framework::Paddle, "import paddle\n\npaddle.flip(x, {axis})")}},
        {.name = "roll",
         .summary =
             "tf.roll: elements shifted along dimensions, those pushed past the end coming back "
             "at the start",
         .inputs = {{"input"}},
         .attrs = {{"shift", "", AttrType::Ints}, {"axis", "", AttrType::Ints}},
         .outputs = "output",
         .plan = roll,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {3, 4})}},
                     {{"shift", Attr::ints({1, -1})}, {"axis", Attr::ints({0, 1})}}},
         .family = OpFamily::Reorder,
         .equivalents =
             {equivalent(Framework::NumPy, "import numpy as np\n\nnp.roll(x, {shift}, {axis})"),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.roll(x, {shift}, {axis})"),
              equivalent(Framework::PyTorch, "import torch\n\ntorch.roll(x, {shift}, {axis})"),
              equivalent(Framework::Jax, "import jax.numpy as jnp\n\njnp.roll(x, {shift}, {axis})"),
              noEquivalent(Framework::Onnx,
                           "ONNX has no roll op; per rolled axis, two Slices and a Concat do it."),
              equivalent(Framework::Paddle, "import paddle\n\npaddle.roll(x, {shift}, {axis})")}},
        {.name = "transpose",
         .summary = "tf.transpose: dimensions permuted (default: reversed)",
         .inputs = {{"a"}},
         .attrs = {{"perm", "reversed dimensions", AttrType::Ints}},
         .outputs = "output",
         .plan = transpose,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {2, 3})}}, {{"perm", Attr::ints({1, 0})}}},
         .family = OpFamily::Reorder,
         .equivalents =
             {equivalent(Framework::NumPy, "import numpy as np\n\nnp.transpose(x, {perm=None})"),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.transpose(x, {perm=None})"),
              equivalent(Framework::PyTorch, "import torch\n\nx.permute({perm})"),
              equivalent(Framework::Jax,
                         "import jax.numpy as jnp\n\njnp.transpose(x, {perm=None})"),
              equivalent(
                  Framework::Onnx,
                  "from onnx import helper\n\nhelper.make_node(\"Transpose\", [\"x\"], [\"y\"], "
                  "perm={perm})"),
              equivalent(Framework::Paddle, "import paddle\n\npaddle.transpose(x, perm={perm})")}},
    };
}

} // namespace ss
