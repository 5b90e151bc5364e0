// SPDX-License-Identifier: GPL-3.0-or-later
// The space/batch/depth family: extract_image_patches, space_to_batch(_nd),
// required_space_to_batch_paddings, batch_to_space(_nd), space_to_depth, depth_to_space.
//
// Patches and space/batch are one pattern seen from different sides: a coordinate on the
// "other" side splits into a window index x and an offset z inside the window, and names the
// "space" position x * xStep + z * zStep - pad. Where that position falls outside the space
// tensor the element is zero padding (patches, space_to_batch) or is cropped away
// (batch_to_space). Cutting each such dimension into bands that lie wholly inside or wholly
// outside keeps the plan affine: one piece per combination of bands, and no element is
// written twice.
#include "core/error.h"
#include "core/op.h"
#include "core/ops/common.h"
#include "core/ops/ops.h"

#include <algorithm>
#include <limits>

namespace ss {

using namespace ops;

namespace {

// Division rounding down / up, for a positive divisor.
std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    return a / b - (a % b < 0 ? 1 : 0);
}
std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return a / b + (a % b > 0 ? 1 : 0);
}

// TensorFlow registers the patch and space/batch kernels for real numbers only
// (TF_CALL_REAL_NUMBER_TYPES, requireRealNumbers in common.h); the depth ops take every dtype.

std::string requireString(const OpCall& call, const std::string& name)
{
    if (!call.has(name)) badRequest("op '" + call.def().name + "' needs attribute '" + name + "'");
    return call.getString(name, "");
}

// A JSON list cannot spell an empty [0, 2] matrix; with no block dimensions `[]` means it.
IntTensor pairsMatrix(IntTensor t, std::int64_t m)
{
    if (m == 0 && t.shape == Shape{0}) t.shape = {0, 2};
    return t;
}

// ---- The banded piece builder ----------------------------------------------------------------

// One windowed dimension: z in [0, zCount) and x in [0, xCount) read space position
// x * xStep + z * zStep - pad, which exists when it lies in [0, size).
struct Window
{
    std::int64_t zCount, xCount;
    std::int64_t zStep, xStep;
    std::int64_t pad, size;
    std::int64_t spaceStride;    ///< flat stride of one space position
    std::int64_t zOther, xOther; ///< flat strides of z and x on the other side
};

// A dimension that passes straight through (batch, depth): its extent and both flat strides.
struct Through
{
    std::int64_t extent, space, other;
};

struct Band
{
    std::int64_t z0, z1, x0, x1;
    bool inside;
};

// Cuts a window's (z, x) grid into rectangles wholly inside or wholly outside the space. For a
// fixed z the valid x form one run; neighbouring z with the same run share a rectangle, so a
// window without padding is a single band.
std::vector<Band> bands(const Window& w)
{
    auto insideRun = [&](std::int64_t z) {
        const std::int64_t base = z * w.zStep - w.pad;
        const std::int64_t lo = std::clamp<std::int64_t>(ceilDiv(-base, w.xStep), 0, w.xCount);
        const std::int64_t hi =
            std::clamp<std::int64_t>(floorDiv(w.size - 1 - base, w.xStep) + 1, lo, w.xCount);
        return std::pair{lo, hi};
    };
    std::vector<Band> out;
    for (std::int64_t z = 0; z < w.zCount;) {
        const auto run = insideRun(z);
        std::int64_t z1 = z + 1;
        while (z1 < w.zCount && insideRun(z1) == run)
            ++z1;
        const auto [lo, hi] = run;
        if (lo > 0) out.push_back({z, z1, 0, lo, false});
        if (hi > lo) out.push_back({z, z1, lo, hi, true});
        if (hi < w.xCount) out.push_back({z, z1, hi, w.xCount, false});
        z = z1;
    }
    return out;
}

// Appends one piece per combination of bands. Inside combinations copy between the space side
// and the other side; outside ones are zero padding when the space side is the input, and are
// cropped away (left out) when it is the output. Call only for a non-empty output.
void addWindowPieces(OutputPlan& out, int slot, bool spaceIsInput,
                     const std::vector<Through>& through, const std::vector<Window>& windows)
{
    struct Side
    {
        std::int64_t offset = 0;
        std::vector<std::int64_t> strides;
    };
    std::vector<std::vector<Band>> cuts;
    for (const Window& w : windows)
        cuts.push_back(bands(w));
    std::int64_t zero = -1;
    std::vector<std::size_t> pick(windows.size(), 0);
    for (;;) {
        std::vector<std::int64_t> extents;
        Side space, other;
        bool inside = true;
        for (const Through& t : through) {
            extents.push_back(t.extent);
            space.strides.push_back(t.space);
            other.strides.push_back(t.other);
        }
        for (std::size_t k = 0; k < windows.size(); ++k) {
            const Window& w = windows[k];
            const Band& b = cuts[k][pick[k]];
            inside = inside && b.inside;
            extents.push_back(b.z1 - b.z0);
            extents.push_back(b.x1 - b.x0);
            space.strides.push_back(w.zStep * w.spaceStride);
            space.strides.push_back(w.xStep * w.spaceStride);
            other.strides.push_back(w.zOther);
            other.strides.push_back(w.xOther);
            space.offset += (b.x0 * w.xStep + b.z0 * w.zStep - w.pad) * w.spaceStride;
            other.offset += b.z0 * w.zOther + b.x0 * w.xOther;
        }
        AffinePiece p;
        p.extents = std::move(extents);
        if (inside) {
            const Side& from = spaceIsInput ? space : other;
            const Side& to = spaceIsInput ? other : space;
            p.slot = slot;
            p.inOffset = from.offset;
            p.inStrides = from.strides;
            p.outOffset = to.offset;
            p.outStrides = to.strides;
            out.pieces.push_back(std::move(p));
        } else if (spaceIsInput) {
            if (zero < 0) zero = out.addConstant(Tensor::scalar(DType::Int32, 0));
            p.slot = kConstantSlot;
            p.inOffset = zero;
            p.inStrides.assign(p.extents.size(), 0);
            p.outOffset = other.offset;
            p.outStrides = other.strides;
            out.pieces.push_back(std::move(p));
        }
        // Next combination (odometer over the band lists).
        std::size_t k = windows.size();
        while (k > 0 && ++pick[k - 1] == cuts[k - 1].size())
            pick[--k] = 0;
        if (k == 0) return;
    }
}

// ---- extract_image_patches -------------------------------------------------------------------

struct Windowed
{
    std::int64_t out = 0, padBefore = 0, padAfter = 0;
};

// GetWindowedOutputSize for one spatial dimension, with its explanation.
Windowed windowedSize(std::int64_t in, std::int64_t kEff, std::int64_t stride, bool same,
                      std::string& detail)
{
    Windowed w;
    if (same) {
        w.out = ceilDiv(in, stride);
        // kEff reaches 2^62 (int32 sizes and rates) and `in` may be as large in an empty
        // tensor: the sum is formed with checks.
        const std::int64_t span =
            addOrThrow(mulOrThrow(w.out - 1, stride, "the padded window span"), kEff,
                       "the padded window span");
        const std::int64_t total = std::max<std::int64_t>(0, span - in);
        w.padBefore = total / 2;
        w.padAfter = total - w.padBefore;
        detail = "SAME keeps ceil(in / stride) = ceil(" + num(in) + " / " + num(stride) +
                 ") = " + num(w.out) +
                 " windows. Padding needed: max(0, (out - 1) * stride + k_eff - in) = max(0, " +
                 num(w.out - 1) + " * " + num(stride) + " + " + num(kEff) + " - " + num(in) +
                 ") = " + num(total) + ", split " + num(w.padBefore) + " before and " +
                 num(w.padAfter) + " after (an odd extra one goes after).";
        return w;
    }
    const std::int64_t numerator = in - kEff + stride;
    w.out = numerator / stride; // C++ division truncates toward zero, as TensorFlow's does
    detail = "VALID uses whole windows only: out = (in - k_eff + stride) / stride = (" + num(in) +
             " - " + num(kEff) + " + " + num(stride) + ") / " + num(stride) + " = " + num(w.out) +
             ".";
    if (w.out < 0)
        invalidArgument("Computed output size would be negative: " + num(w.out) +
                        " [input_size: " + num(in) + ", effective_filter_size: " + num(kEff) +
                        ", stride: " + num(stride) + "]");
    if (w.out == 0 && numerator >= 0) detail += " No whole window fits, so the output is empty.";
    if (numerator < 0)
        detail += " The numerator " + num(numerator) +
                  " is negative, but the division truncates toward zero, so the result is 0: an "
                  "empty output rather than an error (a TensorFlow quirk).";
    return w;
}

OpPlan extractImagePatches(const OpCall& call)
{
    const Tensor& images = call.input("images");
    requireRealNumbers(call, "images");
    const std::vector<std::string> names = {"ksizes", "strides", "rates"};
    std::vector<std::vector<std::int64_t>> lists;
    // The op definition's checks (list lengths, allowed padding) come before the kernel's.
    for (const std::string& name : names) {
        lists.push_back(call.intList(name));
        if (lists.back().size() < 4)
            invalidArgument("Length for attr '" + name + "' of " +
                            num(std::int64_t(lists.back().size())) + " must be at least minimum 4");
    }
    const std::string padding = requireString(call, "padding");
    if (padding != "SAME" && padding != "VALID")
        invalidArgument("Value for attr 'padding' of \"" + padding +
                        "\" is not in the list of allowed values: \"SAME\", \"VALID\"");
    for (std::size_t k = 0; k < names.size(); ++k) {
        const auto& a = lists[k];
        for (std::int64_t v : a)
            int32Attr(names[k], v);
        if (a[0] != 1 || a[3] != 1) unimplemented("Only support " + names[k] + " across space.");
        if (a[1] < 1 || a[2] < 1) outOfRange(names[k] + " is out of range.");
    }
    if (images.rank() != 4)
        invalidArgument("input must be 4-dimensional" + shapeString(images.shape()));

    const bool same = padding == "SAME";
    const Shape& in = images.shape();
    const std::int64_t batch = in[0], rows = in[1], cols = in[2], depth = in[3];
    const std::int64_t kr = lists[0][1], kc = lists[0][2];
    const std::int64_t sr = lists[1][1], sc = lists[1][2];
    const std::int64_t rr = lists[2][1], rc = lists[2][2];
    const std::int64_t krEff = kr + (kr - 1) * (rr - 1);
    const std::int64_t kcEff = kc + (kc - 1) * (rc - 1);

    OpPlan plan;
    plan.steps.push_back(
        {"Window attributes",
         "ksizes " + listString(lists[0]) + ", strides " + listString(lists[1]) + ", rates " +
             listString(lists[2]) + ", padding " + padding +
             ". Only the middle entries (rows, columns) may differ from 1: a patch is " + num(kr) +
             " x " + num(kc) + " pixels, windows start every " + num(sr) + " rows and " + num(sc) +
             " columns, and inside a window every " + num(rr) + "th row and " + num(rc) +
             "th column is sampled.",
         {},
         {1, 2},
         {}});
    plan.steps.push_back({"Effective kernel size",
                          "k_eff = k + (k - 1) * (rate - 1): rows " + num(kr) + " + " +
                              num(kr - 1) + " * " + num(rr - 1) + " = " + num(krEff) +
                              ", columns " + num(kc) + " + " + num(kc - 1) + " * " + num(rc - 1) +
                              " = " + num(kcEff) +
                              ". A rate above 1 spreads the taps apart without adding any.",
                          {},
                          {1, 2},
                          {}});
    std::string detail;
    const Windowed wr = windowedSize(rows, krEff, sr, same, detail);
    plan.steps.push_back({"Output rows", "Input rows " + num(rows) + ". " + detail, {}, {1}, {1}});
    const Windowed wc = windowedSize(cols, kcEff, sc, same, detail);
    plan.steps.push_back(
        {"Output columns", "Input columns " + num(cols) + ". " + detail, {}, {2}, {2}});

    std::int64_t patch = 0;
    if (mulOverflows(kr, kc, &patch) || mulOverflows(patch, depth, &patch))
        throw OpError(ErrorCode::ResourceExhausted,
                      "the output's depth ksize_rows * ksize_cols * depth = " + num(kr) + " * " +
                          num(kc) + " * " + num(depth) + " does not fit in 64 bits");
    const Shape outShape = {batch, wr.out, wc.out, patch};
    call.limits().check(outShape, images.dtype(), "the output");
    plan.steps.push_back(
        {"Output shape",
         "[batch, out_rows, out_cols, ksize_rows * ksize_cols * depth] = [" + num(batch) + ", " +
             num(wr.out) + ", " + num(wc.out) + ", " + num(kr) + " * " + num(kc) + " * " +
             num(depth) + "] = " + shapeString(outShape) +
             ": each output pixel holds one whole patch, row by row, in its depth.",
         {},
         {},
         {0, 1, 2, 3}});
    plan.steps.push_back(
        {"Rule",
         "out[b, i, j, (a * " + num(kc) + " + e) * " + num(depth) + " + c] = in[b, i * " + num(sr) +
             " - " + num(wr.padBefore) + " + a * " + num(rr) + ", j * " + num(sc) + " - " +
             num(wc.padBefore) + " + e * " + num(rc) + ", c] for a < " + num(kr) + ", e < " +
             num(kc) +
             (same ? "; where that position falls in the padding the element is 0 (it has no "
                     "source)."
                   : "; VALID windows never leave the image."),
         {},
         {},
         {}});

    OutputPlan out;
    out.dtype = images.dtype();
    out.shape = outShape;
    if (numElements(outShape) > 0)
        addWindowPieces(
            out, call.slot("images"), true,
            {{batch, rows * cols * depth, wr.out * wc.out * patch}, {depth, 1, 1}},
            {{kr, wr.out, rr, sr, wr.padBefore, rows, cols * depth, kc * depth, wc.out * patch},
             {kc, wc.out, rc, sc, wc.padBefore, cols, depth, depth, patch}});
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---- space_to_batch / batch_to_space ---------------------------------------------------------

// block_shape and paddings (or crops), read and checked in TensorFlow's order up to the
// product of the block sizes, which both directions share. Only space_to_batch checks every
// block value (newer TensorFlow, inside the product loop); batch_to_space checks the product.
struct BlockSpec
{
    std::int64_t m = 0;
    std::vector<std::int64_t> block;
    std::vector<std::int64_t> pairs; ///< m x 2, row-major: [start, end] per block dimension
    std::int64_t product = 1;
    std::int64_t prefix = 0, suffix = 0; ///< leading / trailing dimensions folded away

    std::int64_t internal() const { return m - prefix - suffix; }
    bool trivial(std::int64_t i) const
    {
        return block[std::size_t(i)] == 1 && pairs[std::size_t(2 * i)] == 0 &&
               pairs[std::size_t(2 * i + 1)] == 0;
    }
};

BlockSpec readBlockSpec(const Tensor& input, const IntTensor& block, const IntTensor& pairsArg,
                        const std::string& pairsName, bool checkEachValue)
{
    if (block.shape.size() != 1)
        invalidArgument("block_shape rank should be 1 instead of " +
                        num(std::int64_t(block.shape.size())));
    BlockSpec s;
    s.m = block.shape[0];
    if (input.rank() < 1 + s.m)
        invalidArgument("input rank should be >= " + num(1 + s.m) + " instead of " +
                        num(input.rank()));
    const IntTensor pairs = pairsMatrix(pairsArg, s.m);
    if (pairs.shape.size() != 2 || pairs.shape[0] != s.m || pairs.shape[1] != 2)
        invalidArgument(pairsName + " should have shape [" + num(s.m) + ", 2] instead of " +
                        shapeString(pairs.shape));
    s.block = block.values;
    s.pairs = pairs.values;
    while (s.prefix < s.m && s.trivial(s.prefix))
        ++s.prefix;
    while (s.suffix < s.m - s.prefix && s.trivial(s.m - 1 - s.suffix))
        ++s.suffix;
    bool overflow = false;
    for (std::int64_t i = 0; i < s.m; ++i) {
        const std::int64_t b = s.block[std::size_t(i)];
        if (checkEachValue && b < 1)
            invalidArgument("All values in block_shape must be positive, got value, " + num(b) +
                            " at index " + num(i) + ".");
        overflow = mulOverflows(s.product, b, &s.product) || overflow;
    }
    if (overflow) s.product = -1; // TensorFlow's MultiplyWithoutOverflow answer
    if (s.product <= 0)
        invalidArgument("Product of block sizes must be positive, got " + num(s.product));
    return s;
}

void checkInternalBlockDims(const BlockSpec& s)
{
    if (s.internal() > 4)
        invalidArgument("Maximum number of non-combined block dimensions is " + num(s.internal()) +
                        " but must not exceed 4");
}

Step blockStep(const BlockSpec& s, const std::string& pairsName)
{
    std::string detail = "block_shape " + listString(s.block) + ": M = " + num(s.m) + ".";
    if (s.m > 0)
        detail += " Input dimensions 1.." + num(s.m) + " are spatial; " + pairsName +
                  " holds one [start, end] pair for each. Product of block sizes " +
                  num(s.product) + ".";
    if (s.prefix + s.suffix > 0)
        detail += " " + num(s.prefix + s.suffix) + " block dimension(s) with block 1 and no " +
                  pairsName +
                  " at the ends are folded into the batch or depth (an optimisation with no "
                  "visible effect).";
    detail += " " + num(s.internal()) +
              " non-combined block dimension(s) remain; TensorFlow handles at most 4.";
    return {"Block shape", detail, {}, dimRange(1, int(1 + s.m)), {}};
}

// Flat strides of the pieces that move data between [batch, S_0..S_{M-1}, depth] (the space
// side) and [prod * batch, T_0..T_{M-1}, depth] (the batch side). Both ends are row-major
// shapes; `spaceShape` and `batchShape` are the full tensors.
void addBlockPieces(OutputPlan& out, int slot, bool spaceIsInput, const BlockSpec& s,
                    const Shape& spaceShape, const Shape& batchShape)
{
    const auto spaceStrides = rowMajorStrides(spaceShape);
    const auto batchStrides = rowMajorStrides(batchShape);
    std::int64_t depth = 1;
    for (std::size_t d = std::size_t(1 + s.m); d < spaceShape.size(); ++d)
        depth *= spaceShape[d];
    const std::int64_t batch = spaceShape[0];
    std::vector<Window> windows;
    // The block offset (o_0, ..., o_{M-1}) is the major part of the batch-side batch index.
    std::int64_t offsetStride = batch * batchStrides[0];
    std::vector<std::int64_t> zOther(std::size_t(s.m));
    for (std::int64_t i = s.m; i-- > 0;) {
        zOther[std::size_t(i)] = offsetStride;
        offsetStride *= s.block[std::size_t(i)];
    }
    for (std::int64_t i = 0; i < s.m; ++i) {
        const std::size_t d = std::size_t(1 + i);
        windows.push_back({s.block[std::size_t(i)], batchShape[d], 1, s.block[std::size_t(i)],
                           s.pairs[std::size_t(2 * i)], spaceShape[d], spaceStrides[d],
                           zOther[std::size_t(i)], batchStrides[d]});
    }
    addWindowPieces(out, slot, spaceIsInput,
                    {{batch, spaceStrides[0], batchStrides[0]}, {depth, 1, 1}}, windows);
}

Shape withRest(Shape head, const Shape& full, std::int64_t from)
{
    head.insert(head.end(), full.begin() + from, full.end());
    return head;
}

OpPlan identityPlan(OpPlan plan, int slot, const Tensor& input, const std::string& why)
{
    plan.steps.push_back(
        {"Nothing to move", why + ": the output is the input unchanged.", {}, {}, {}});
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = input.shape();
    out.pieces.push_back(OutputPlan::identityPiece(slot, input.shape()));
    plan.outputs.push_back(std::move(out));
    return plan;
}

OpPlan spaceToBatch(const OpCall& call, const IntTensor& blockArg, const IntTensor& paddingsArg,
                    OpPlan plan)
{
    const Tensor& input = call.input("input");
    const Shape& in = input.shape();
    const BlockSpec s = readBlockSpec(input, blockArg, paddingsArg, "paddings", true);
    checkInternalBlockDims(s);
    plan.steps.push_back(blockStep(s, "paddings"));
    if (s.internal() == 0)
        return identityPlan(std::move(plan), call.slot("input"), input,
                            "Every block dimension has block size 1 and no padding");
    std::int64_t outBatch = 0;
    if (mulOverflows(in[0], s.product, &outBatch))
        invalidArgument("Negative output dimension size caused by overflow when multiplying " +
                        num(in[0]) + " and " + num(s.product));

    Shape padded = {in[0]}, reshaped = {in[0]}, permuted = s.block, outHead = {outBatch};
    permuted.push_back(in[0]);
    std::string padDetail, divDetail;
    for (std::int64_t i = 0; i < s.m; ++i) {
        const std::int64_t size = in[std::size_t(1 + i)];
        const std::int64_t b = s.block[std::size_t(i)];
        const std::int64_t start = s.pairs[std::size_t(2 * i)],
                           end = s.pairs[std::size_t(2 * i + 1)];
        std::int64_t p = 0;
        if (i >= s.prefix && i < s.m - s.suffix) {
            if (start < 0 || end < 0) invalidArgument("Paddings must be non-negative");
            if (addOverflows(size, start, &p) || addOverflows(p, end, &p))
                invalidArgument("padded_shape[" + num(i) + "]=" + num(size) + "+" + num(start) +
                                "+" + num(end) + " does not fit in 64 bits");
            if (p % b != 0)
                invalidArgument("padded_shape[" + num(i) + "]=" + num(p) +
                                " is not divisible by block_shape[" + num(i) + "]=" + num(b));
        } else {
            p = size;
        }
        padDetail +=
            (i ? ", " : "") + num(start) + " + " + num(size) + " + " + num(end) + " = " + num(p);
        divDetail += (i ? ", " : "") + num(p) + " / " + num(b) + " = " + num(p / b);
        padded.push_back(p);
        reshaped.push_back(p / b);
        reshaped.push_back(b);
        permuted.push_back(p / b);
        outHead.push_back(p / b);
    }
    padded = withRest(padded, in, 1 + s.m);
    reshaped = withRest(reshaped, in, 1 + s.m);
    permuted = withRest(permuted, in, 1 + s.m);
    const Shape outShape = withRest(outHead, in, 1 + s.m);
    call.limits().check(outShape, input.dtype(), "the output");

    const int m = int(s.m);
    const std::vector<int> spatial = dimRange(1, 1 + m);
    plan.steps.push_back({"1. Pad",
                          "Zeros are added before and after each spatial dimension: " + padDetail +
                              ". Padded shape " + shapeString(padded) +
                              "; every padded size must be divisible by its block: " + divDetail +
                              ".",
                          {},
                          spatial,
                          {}});
    plan.steps.push_back({"2. Reshape",
                          "Split each padded spatial dimension into (size / block, block): " +
                              shapeString(reshaped) + ".",
                          {},
                          spatial,
                          {}});
    plan.steps.push_back(
        {"3. Permute",
         "Move the block offsets to the front, ahead of the batch: " + shapeString(permuted) + ".",
         {},
         {0},
         {0}});
    plan.steps.push_back({"4. Reshape",
                          "Merge the block offsets and the batch into one batch dimension of " +
                              num(in[0]) + " * " + num(s.product) + " = " + num(outBatch) + ": " +
                              shapeString(outShape) + ".",
                          {},
                          {},
                          dimRange(0, 1 + m)});
    plan.steps.push_back(
        {"Rule",
         "out[o * " + num(in[0]) +
             " + n, y_1.., rest] = padded[n, y_1 * B_1 + o_1, ..., rest], "
             "where o is the block offset (o_1, ..., o_M) read as one number with o_1 most "
             "significant: the block offset is the major part of the output batch index and the "
             "original batch index n the minor part. Positions in the padding give 0 (no source).",
         {},
         {},
         {}});

    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    if (numElements(outShape) > 0) addBlockPieces(out, call.slot("input"), true, s, in, outShape);
    plan.outputs.push_back(std::move(out));
    return plan;
}

OpPlan batchToSpace(const OpCall& call, const IntTensor& blockArg, const IntTensor& cropsArg,
                    OpPlan plan)
{
    const Tensor& input = call.input("input");
    const Shape& in = input.shape();
    const BlockSpec s = readBlockSpec(input, blockArg, cropsArg, "crops", false);
    if (in[0] % s.product != 0)
        invalidArgument("Input batch dimension (" + num(in[0]) +
                        ") is not divisible by product of block sizes (" + num(s.product) + ")");
    checkInternalBlockDims(s);
    plan.steps.push_back(blockStep(s, "crops"));
    if (s.internal() == 0)
        return identityPlan(std::move(plan), call.slot("input"), input,
                            "Every block dimension has block size 1 and no crops");

    const std::int64_t batch = in[0] / s.product;
    Shape reshaped = s.block, permuted = {batch}, uncropped = {batch}, outHead = {batch};
    reshaped.push_back(batch);
    std::string cropDetail;
    for (std::int64_t i = 0; i < s.m; ++i) {
        const std::int64_t size = in[std::size_t(1 + i)];
        const std::int64_t b = s.block[std::size_t(i)];
        const std::int64_t start = s.pairs[std::size_t(2 * i)],
                           end = s.pairs[std::size_t(2 * i + 1)];
        const bool internal = i >= s.prefix && i < s.m - s.suffix;
        if (internal && (start < 0 || end < 0)) invalidArgument("Crops must be non-negative");
        std::int64_t full = 0, c = 0;
        if (mulOverflows(size, b, &full))
            invalidArgument("cropped_shape[" + num(i) + "]: " + num(size) + " * " + num(b) +
                            " does not fit in 64 bits");
        if (internal) {
            if (subOverflows(full - start, end, &c))
                invalidArgument("cropped_shape[" + num(i) + "]=" + num(full) + "-" + num(start) +
                                "-" + num(end) + " must be non-negative");
            if (c < 0)
                invalidArgument("cropped_shape[" + num(i) + "]=" + num(c) +
                                " must be non-negative");
        } else {
            c = full;
        }
        reshaped.push_back(size);
        permuted.push_back(size);
        permuted.push_back(b);
        uncropped.push_back(full);
        outHead.push_back(c);
        cropDetail +=
            (i ? ", " : "") + num(full) + " - " + num(start) + " - " + num(end) + " = " + num(c);
    }
    reshaped = withRest(reshaped, in, 1 + s.m);
    permuted = withRest(permuted, in, 1 + s.m);
    uncropped = withRest(uncropped, in, 1 + s.m);
    const Shape outShape = withRest(outHead, in, 1 + s.m);
    call.limits().check(outShape, input.dtype(), "the output");

    const int m = int(s.m);
    plan.steps.push_back(
        {"1. Reshape",
         "Split the batch " + num(in[0]) + " into the block offsets and the batch " + num(in[0]) +
             " / " + num(s.product) + " = " + num(batch) + ": " + shapeString(reshaped) + ".",
         {},
         {0},
         {0}});
    plan.steps.push_back(
        {"2. Permute",
         "Put each block offset right after its spatial dimension: " + shapeString(permuted) + ".",
         {},
         dimRange(1, 1 + m),
         {}});
    plan.steps.push_back({"3. Reshape",
                          "Merge each (size, block) pair into one spatial dimension: " +
                              shapeString(uncropped) + ".",
                          {},
                          {},
                          dimRange(1, 1 + m)});
    plan.steps.push_back({"4. Crop",
                          "Remove crops[i] = [start, end] from each spatial dimension: " +
                              cropDetail + ". Output shape " + shapeString(outShape) + ".",
                          {},
                          {},
                          dimRange(1, 1 + m)});
    plan.steps.push_back(
        {"Rule",
         "out[n, y_1 - crop_start_1, ..., rest] = in[o * " + num(batch) +
             " + n, y_1 / B_1, ..., rest] with o_i = y_i mod B_i read as one number (o_1 most "
             "significant): the exact inverse of space_to_batch_nd, then the crop.",
         {},
         {},
         {}});

    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    if (numElements(outShape) > 0) addBlockPieces(out, call.slot("input"), false, s, outShape, in);
    plan.outputs.push_back(std::move(out));
    return plan;
}

OpPlan spaceToBatchNd(const OpCall& call)
{
    requireRealNumbers(call, "input");
    return spaceToBatch(call, call.intTensor("block_shape"), call.intTensor("paddings"), {});
}

OpPlan batchToSpaceNd(const OpCall& call)
{
    requireRealNumbers(call, "input");
    return batchToSpace(call, call.intTensor("block_shape"), call.intTensor("crops"), {});
}

// The TensorFlow 1.x 4-D forms: a scalar block_size for both height and width. The op
// definition's minimum comes first; it leaves the kernel's own "> 1" check nothing to refuse.
IntTensor legacyBlock(const OpCall& call, OpPlan& plan, const std::string& pairsName)
{
    const std::int64_t b = call.requireInt("block_size");
    checkAttrMinimum("block_size", b, 2);
    requireRealNumbers(call, "input");
    int32Attr("block_size", b);
    const int rank = call.input("input").rank();
    if (rank != 4) invalidArgument("Input rank should be: 4instead of: " + num(rank));
    plan.steps.push_back({"Legacy form",
                          "block_size " + num(b) + " stands for block_shape [" + num(b) + ", " +
                              num(b) +
                              "] over height and width of a [batch, height, width, depth] input; " +
                              pairsName + " is [[top, bottom], [left, right]].",
                          {},
                          {1, 2},
                          {}});
    return {{2}, {b, b}};
}

OpPlan spaceToBatchLegacy(const OpCall& call)
{
    OpPlan plan;
    const IntTensor block = legacyBlock(call, plan, "paddings");
    return spaceToBatch(call, block, call.intTensor("paddings"), std::move(plan));
}

OpPlan batchToSpaceLegacy(const OpCall& call)
{
    OpPlan plan;
    const IntTensor block = legacyBlock(call, plan, "crops");
    return batchToSpace(call, block, call.intTensor("crops"), std::move(plan));
}

// ---- required_space_to_batch_paddings --------------------------------------------------------

// tf.required_space_to_batch_paddings converts its arguments to int32 tensors.
void requireInt32Values(const IntTensor& t, const std::string& name)
{
    for (std::size_t k = 0; k < t.values.size(); ++k) {
        const std::int64_t v = t.values[k];
        if (v < std::numeric_limits<std::int32_t>::min() ||
            v > std::numeric_limits<std::int32_t>::max()) {
            std::string at;
            for (std::int64_t c : unravelIndex(std::int64_t(k), t.shape))
                at += "[" + num(c) + "]";
            invalidArgument(name + at + " = " + num(v) + " does not fit in int32");
        }
    }
}

std::int64_t floorMod(std::int64_t a, std::int64_t b)
{
    const std::int64_t r = a % b;
    return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

OpPlan requiredSpaceToBatchPaddings(const OpCall& call)
{
    const IntTensor inputShape = call.intTensor("input_shape");
    requireInt32Values(inputShape, "input_shape");
    const IntTensor block = call.intTensor("block_shape");
    requireInt32Values(block, "block_shape");
    if (block.shape.size() != 1)
        invalidArgument("block_shape must have rank 1, but its shape is " +
                        shapeString(block.shape));
    const std::int64_t m = block.shape[0];
    OpPlan plan;
    std::vector<std::int64_t> paddings, crops;
    if (m == 0) {
        plan.steps.push_back({"No block dimensions",
                              "block_shape is empty, so both results are empty [0, 2] tensors; "
                              "input_shape and base_paddings are not looked at.",
                              {},
                              {},
                              {}});
    } else {
        if (inputShape.shape != Shape{m})
            invalidArgument("input_shape must have shape [" + num(m) +
                            "] to match block_shape, but its shape is " +
                            shapeString(inputShape.shape));
        const IntTensor base = call.intTensor(
            "base_paddings", {{m, 2}, std::vector<std::int64_t>(std::size_t(2 * m), 0)});
        requireInt32Values(base, "base_paddings");
        if (base.shape != Shape{m, 2})
            invalidArgument("base_paddings must have shape [" + num(m) +
                            ", 2] to match block_shape, but its shape is " +
                            shapeString(base.shape));
        for (std::int64_t i = 0; i < m; ++i) {
            const std::int64_t size = inputShape.values[std::size_t(i)];
            const std::int64_t b = block.values[std::size_t(i)];
            const std::int64_t start = base.values[std::size_t(2 * i)];
            const std::int64_t end = base.values[std::size_t(2 * i + 1)];
            if (b == 0)
                invalidArgument("block_shape[" + num(i) +
                                "] is 0: no padding makes a dimension divisible by 0");
            const std::int64_t full = size + start + end;
            const std::int64_t extra = floorMod(b - floorMod(full, b), b);
            const std::int64_t padEnd = end + extra;
            for (std::int64_t v : {full, padEnd})
                if (v < std::numeric_limits<std::int32_t>::min() ||
                    v > std::numeric_limits<std::int32_t>::max())
                    invalidArgument("dimension " + num(i) +
                                    ": input_shape + base_paddings + extra = " + num(v) +
                                    " does not fit in int32");
            paddings.insert(paddings.end(), {start, padEnd});
            crops.insert(crops.end(), {0, extra});
            plan.steps.push_back(
                {"Dimension " + num(i),
                 "Size with base paddings: " + num(start) + " + " + num(size) + " + " + num(end) +
                     " = " + num(full) + ". To be divisible by the block " + num(b) +
                     ", it needs (" + num(b) + " - " + num(full) + " mod " + num(b) + ") mod " +
                     num(b) + " = " + num(extra) + " more at the end: paddings [" + num(start) +
                     ", " + num(padEnd) + "], crops [0, " + num(extra) +
                     "] (batch_to_space_nd then removes exactly what was added)." +
                     (b < 0 ? " The block is negative: the modulo follows the divisor's sign, as "
                              "Python's does, so the result is not a usable padding."
                            : ""),
                 {},
                 {},
                 {}});
        }
    }
    for (auto* values : {&paddings, &crops}) {
        OutputPlan out;
        out.dtype = DType::Int32;
        out.shape = {m, 2};
        out.computed = Tensor::fromInts(DType::Int32, out.shape, *values);
        plan.outputs.push_back(std::move(out));
    }
    return plan;
}

// ---- space_to_depth / depth_to_space ---------------------------------------------------------

// The attribute checks both depth ops share, in TensorFlow's order (op definition, then kernel
// construction). The minimum leaves the kernel's own "> 1" check nothing to refuse.
std::int64_t depthBlockSize(const OpCall& call)
{
    const std::int64_t b = call.requireInt("block_size");
    checkAttrMinimum("block_size", b, 2);
    const std::string format = call.getString("data_format", "NHWC");
    if (format != "NHWC" && format != "NCHW" && format != "NCHW_VECT_C")
        invalidArgument(
            "Value for attr 'data_format' of \"" + format +
            "\" is not in the list of allowed values: \"NHWC\", \"NCHW\", \"NCHW_VECT_C\"");
    int32Attr("block_size", b);
    if (format != "NHWC") invalidArgument("Only NHWC data_format supported on CPU. Got " + format);
    return b;
}

OpPlan spaceToDepth(const OpCall& call)
{
    const Tensor& input = call.input("input");
    const std::int64_t b = depthBlockSize(call);
    if (input.rank() != 4)
        invalidArgument("Input rank should be 4 instead of " + num(input.rank()));
    const Shape& in = input.shape();
    const std::int64_t n = in[0], h = in[1], w = in[2], c = in[3];
    if (w % b != 0 || h % b != 0)
        invalidArgument("Image width " + num(w) + " and height " + num(h) +
                        " should be divisible by block_size: " + num(b));
    const Shape outShape = {
        n, h / b, w / b,
        mulOrThrow(c, b * b,
                   "the output depth (" + num(c) + " * " + num(b) + " * " + num(b) + ")")};
    call.limits().check(outShape, input.dtype(), "the output");
    OpPlan plan;
    plan.steps.push_back({"Shape",
                          "Height " + num(h) + " and width " + num(w) + " are cut into " + num(b) +
                              " x " + num(b) + " blocks: [" + num(n) + ", " + num(h) + " / " +
                              num(b) + ", " + num(w) + " / " + num(b) + ", " + num(c) + " * " +
                              num(b) + " * " + num(b) + "] = " + shapeString(outShape) + ".",
                          {},
                          {1, 2},
                          {1, 2, 3}});
    plan.steps.push_back({"Rule",
                          "out[n, h, w, (i * " + num(b) + " + j) * " + num(c) +
                              " + c] = in[n, h * " + num(b) + " + i, w * " + num(b) +
                              " + j, c]: each block becomes one pixel "
                              "whose depth lists the block's pixels row by row.",
                          {},
                          {},
                          {}});
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    // Output seen as [n, h/b, w/b, i, j, c]. An empty input's strides may not fit in int64.
    if (input.size() > 0) {
        AffinePiece p;
        p.slot = call.slot("input");
        p.extents = {n, h / b, w / b, b, b, c};
        p.inStrides = {h * w * c, b * w * c, b * c, w * c, c, 1};
        p.outStrides = rowMajorStrides(p.extents);
        out.pieces.push_back(std::move(p));
    }
    plan.outputs.push_back(std::move(out));
    return plan;
}

OpPlan depthToSpace(const OpCall& call)
{
    const Tensor& input = call.input("input");
    const std::int64_t b = depthBlockSize(call);
    if (input.rank() != 4)
        invalidArgument("Input rank should be: 4 instead of: " + num(input.rank()));
    const Shape& in = input.shape();
    const std::int64_t n = in[0], h = in[1], w = in[2], c = in[3];
    if (c % (b * b) != 0)
        invalidArgument("Input depth dimension " + num(c) +
                        " should be divisible by: " + num(b * b));
    const std::int64_t depth = c / (b * b);
    const Shape outShape = {
        n, mulOrThrow(h, b, "the output height (" + num(h) + " * " + num(b) + ")"),
        mulOrThrow(w, b, "the output width (" + num(w) + " * " + num(b) + ")"), depth};
    call.limits().check(outShape, input.dtype(), "the output");
    OpPlan plan;
    plan.steps.push_back({"Shape",
                          "The depth " + num(c) + " is cut into " + num(b) + " * " + num(b) +
                              " chunks of " + num(depth) + ": [" + num(n) + ", " + num(h) + " * " +
                              num(b) + ", " + num(w) + " * " + num(b) + ", " + num(c) + " / " +
                              num(b * b) + "] = " + shapeString(outShape) + ".",
                          {},
                          {3},
                          {1, 2, 3}});
    plan.steps.push_back({"Rule",
                          "out[n, h * " + num(b) + " + i, w * " + num(b) +
                              " + j, c] = in[n, h, w, (i * " + num(b) + " + j) * " + num(depth) +
                              " + c]: each pixel's depth becomes a " + num(b) + " x " + num(b) +
                              " block, filled row by row.",
                          {},
                          {},
                          {}});
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    // Output seen as [n, h, i, w, j, c]. An empty input's strides may not fit in int64.
    if (input.size() > 0) {
        AffinePiece p;
        p.slot = call.slot("input");
        p.extents = {n, h, b, w, b, depth};
        p.inStrides = {h * w * c, w * c, b * depth, c, depth, 1};
        p.outStrides = rowMajorStrides(p.extents);
        out.pieces.push_back(std::move(p));
    }
    plan.outputs.push_back(std::move(out));
    return plan;
}

} // namespace

std::vector<OpDef> spaceOps()
{
    return {
        {.name = "extract_image_patches",
         .aliases = {"extract_patches"},
         .summary = "tf.image.extract_patches: every sliding window of an NHWC image, flattened "
                    "into depth",
         .inputs = {{"images"}},
         .attrs = {{"ksizes", "", AttrType::IntList, {"sizes"}},
                   {"strides", "", AttrType::IntList},
                   {"rates", "", AttrType::IntList},
                   {"padding", "", AttrType::String}},
         .outputs = "output",
         .plan = extractImagePatches,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {1, 4, 4, 1})}},
                     {{"ksizes", Attr::ints({1, 2, 2, 1})},
                      {"strides", Attr::ints({1, 2, 2, 1})},
                      {"rates", Attr::ints({1, 1, 1, 1})},
                      {"padding", Attr("VALID")}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {noEquivalent(Framework::NumPy,
                           "np.lib.stride_tricks.sliding_window_view gives the windows, but "
                           "neither SAME padding nor TensorFlow's order of each patch's elements."),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.image.extract_patches(x, sizes={ksizes}, "
                         "strides={strides}, rates={rates}, padding={padding})"),
              noEquivalent(
                  Framework::PyTorch,
                  "torch.nn.functional.unfold works on NCHW and orders each patch channel first."),
              noEquivalent(Framework::Jax,
                           "jax.lax.conv_general_dilated_patches orders each patch channel first."),
              noEquivalent(Framework::Onnx, "ONNX has no patch extraction op."),
              noEquivalent(Framework::Paddle, "paddle.nn.functional.unfold works on NCHW and "
                                              "orders each patch channel first.")}},
        {.name = "space_to_batch_nd",
         .summary = "tf.space_to_batch_nd: zero-pad the spatial dimensions, then move blocks into "
                    "the batch",
         .inputs = {{"input"}},
         .attrs = {{"block_shape", "", AttrType::Ints}, {"paddings", "", AttrType::Ints}},
         .outputs = "output",
         .plan = spaceToBatchNd,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {1, 2, 4, 1})}},
                     {{"block_shape", Attr::ints({2, 2})},
                      {"paddings", Attr::List{Attr::List{1, 1}, Attr::List{0, 0}}}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.space_to_batch_nd({args})"),
              noEquivalent(Framework::NumPy,
                           "NumPy has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(
                  Framework::PyTorch,
                  "PyTorch has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(Framework::Jax,
                           "JAX has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(
                  Framework::Paddle,
                  "PaddlePaddle has no space_to_batch: pad, then reshape and transpose by hand.")}},
        {.name = "space_to_batch",
         .summary =
             "tf.compat.v1.space_to_batch: space_to_batch_nd over height and width of a 4-D input",
         .inputs = {{"input"}},
         .attrs = {{"paddings", "", AttrType::Ints}, {"block_size", "", AttrType::Int}},
         .outputs = "output",
         .plan = spaceToBatchLegacy,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {1, 4, 4, 1})}},
                     {{"paddings", Attr::List{Attr::List{0, 0}, Attr::List{0, 0}}},
                      {"block_size", Attr(2)}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.compat.v1.space_to_batch({args})"),
              noEquivalent(Framework::NumPy,
                           "NumPy has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(
                  Framework::PyTorch,
                  "PyTorch has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(Framework::Jax,
                           "JAX has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no space_to_batch: pad, then reshape and transpose by hand."),
              noEquivalent(
                  Framework::Paddle,
                  "PaddlePaddle has no space_to_batch: pad, then reshape and transpose by hand.")}},
        {.name = "required_space_to_batch_paddings",
         .summary = "tf.required_space_to_batch_paddings: the paddings and crops that make a shape "
                    "divisible",
         .inputs = {},
         .attrs = {{"input_shape", "", AttrType::Ints},
                   {"block_shape", "", AttrType::Ints},
                   {"base_paddings", "zeros", AttrType::Ints}},
         .outputs = "paddings, crops",
         .plan = requiredSpaceToBatchPaddings,
         .notation = Notation::Generic,
         .example = {{},
                     {{"input_shape", Attr::ints({5, 7})},
                      {"block_shape", Attr::ints({2, 3})},
                      {"base_paddings", Attr::List{Attr::List{1, 0}, Attr::List{0, 0}}}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.required_space_to_batch_paddings({args})"),
              noEquivalent(Framework::NumPy,
                           "NumPy has no such helper: it is arithmetic on the shape (each padded "
                           "dimension rounded up to a multiple of its block)."),
              noEquivalent(Framework::PyTorch,
                           "PyTorch has no such helper: it is arithmetic on the shape (each padded "
                           "dimension rounded up to a multiple of its block)."),
              noEquivalent(Framework::Jax,
                           "JAX has no such helper: it is arithmetic on the shape (each padded "
                           "dimension rounded up to a multiple of its block)."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no such helper: it is arithmetic on the shape (each padded "
                           "dimension rounded up to a multiple of its block)."),
              noEquivalent(Framework::Paddle,
                           "PaddlePaddle has no such helper: it is arithmetic on the shape (each "
                           "padded dimension rounded up to a multiple of its block).")}},
        {.name = "batch_to_space_nd",
         .summary = "tf.batch_to_space_nd: move batch blocks back into space, then crop",
         .inputs = {{"input"}},
         .attrs = {{"block_shape", "", AttrType::Ints}, {"crops", "", AttrType::Ints}},
         .outputs = "output",
         .plan = batchToSpaceNd,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {4, 2, 2, 1})}},
                     {{"block_shape", Attr::ints({2, 2})},
                      {"crops", Attr::List{Attr::List{0, 0}, Attr::List{0, 1}}}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.batch_to_space({args})"),
              noEquivalent(
                  Framework::NumPy,
                  "NumPy has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(
                  Framework::PyTorch,
                  "PyTorch has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(Framework::Jax,
                           "JAX has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(Framework::Paddle, "PaddlePaddle has no batch_to_space: reshape and "
                                              "transpose by hand, then crop.")}},
        {.name = "batch_to_space",
         .summary =
             "tf.compat.v1.batch_to_space: batch_to_space_nd over height and width of a 4-D input",
         .inputs = {{"input"}},
         .attrs = {{"crops", "", AttrType::Ints}, {"block_size", "", AttrType::Int}},
         .outputs = "output",
         .plan = batchToSpaceLegacy,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {4, 2, 2, 1})}},
                     {{"crops", Attr::List{Attr::List{0, 0}, Attr::List{0, 0}}},
                      {"block_size", Attr(2)}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.compat.v1.batch_to_space({args})"),
              noEquivalent(
                  Framework::NumPy,
                  "NumPy has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(
                  Framework::PyTorch,
                  "PyTorch has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(Framework::Jax,
                           "JAX has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no batch_to_space: reshape and transpose by hand, then crop."),
              noEquivalent(Framework::Paddle, "PaddlePaddle has no batch_to_space: reshape and "
                                              "transpose by hand, then crop.")}},
        {.name = "space_to_depth",
         .summary =
             "tf.nn.space_to_depth: each block x block patch of an NHWC image becomes one pixel's "
             "depth",
         .inputs = {{"input"}},
         .attrs = {{"block_size", "", AttrType::Int}, {"data_format", "NHWC", AttrType::String}},
         .outputs = "output",
         .plan = spaceToDepth,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {1, 4, 4, 1})}}, {{"block_size", Attr(2)}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {noEquivalent(Framework::NumPy, "NumPy: reshape and transpose by hand."),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.nn.space_to_depth(x, {block_size})"),
              noEquivalent(
                  Framework::PyTorch,
                  "torch.nn.functional.pixel_unshuffle works on NCHW and orders the channels "
                  "differently."),
              noEquivalent(Framework::Jax, "JAX: reshape and transpose by hand."),
              equivalent(
                  Framework::Onnx,
                  "from onnx import helper\n\nhelper.make_node(\"SpaceToDepth\", [\"x\"], [\"y\"], "
                  "blocksize={block_size})",
                  "ONNX SpaceToDepth works on NCHW."),
              noEquivalent(Framework::Paddle, "Paddle: reshape and transpose by hand.")}},
        {.name = "depth_to_space",
         .summary = "tf.nn.depth_to_space: each pixel's depth becomes a block x block patch (NHWC)",
         .inputs = {{"input"}},
         .attrs = {{"block_size", "", AttrType::Int}, {"data_format", "NHWC", AttrType::String}},
         .outputs = "output",
         .plan = depthToSpace,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {1, 2, 2, 4})}}, {{"block_size", Attr(2)}}},
         .family = OpFamily::SpaceDepth,
         .equivalents =
             {noEquivalent(Framework::NumPy, "NumPy: reshape and transpose by hand."),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.nn.depth_to_space(x, {block_size})"),
              noEquivalent(
                  Framework::PyTorch,
                  "torch.nn.functional.pixel_shuffle works on NCHW and orders the channels "
                  "differently."),
              noEquivalent(Framework::Jax, "JAX: reshape and transpose by hand."),
              equivalent(
                  Framework::Onnx,
                  "from onnx import helper\n\nhelper.make_node(\"DepthToSpace\", [\"x\"], [\"y\"], "
                  "blocksize={block_size}, mode=\"DCR\")",
                  "ONNX DepthToSpace works on NCHW."),
              noEquivalent(Framework::Paddle, "Paddle: reshape and transpose by hand.")}},
    };
}

} // namespace ss
