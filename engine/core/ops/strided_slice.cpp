// SPDX-License-Identifier: GPL-3.0-or-later
// strided_slice and the ops that share its decode: getitem, encode, to_expr,
// strided_slice_assign, strided_slice_grad.
#include "core/error.h"
#include "core/op.h"
#include "core/ops/common.h"
#include "core/ops/ops.h"
#include "core/slice_expr.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace ss {

using namespace ops;

namespace {

// |v| as text; INT64_MIN has no positive int64.
std::string magnitude(std::int64_t v)
{
    return std::to_string(v < 0 ? 0 - std::uint64_t(v) : std::uint64_t(v));
}

std::string maskText(std::int32_t mask, int entries)
{
    return num(mask) + " (" + maskBinary(mask, entries) + ")";
}

// The five masks. The kernel reads them as int32 attributes when it is built, before it looks
// at any input, in this order.
SparseSpec readMasks(const OpCall& call)
{
    SparseSpec s;
    s.beginMask = int32Attr("begin_mask", call.getInt("begin_mask", 0));
    s.endMask = int32Attr("end_mask", call.getInt("end_mask", 0));
    s.ellipsisMask = int32Attr("ellipsis_mask", call.getInt("ellipsis_mask", 0));
    s.newAxisMask = int32Attr("new_axis_mask", call.getInt("new_axis_mask", 0));
    s.shrinkAxisMask = int32Attr("shrink_axis_mask", call.getInt("shrink_axis_mask", 0));
    return s;
}

// Reads begin/end/strides into `s`, checking their shapes as the kernel's first check does.
void readRanges(const OpCall& call, SparseSpec& s)
{
    const IntTensor begin = call.intTensor("begin");
    const IntTensor end = call.intTensor("end");
    IntTensor strides;
    if (call.has("strides")) {
        strides = call.intTensor("strides");
    } else {
        strides.shape = begin.shape;
        strides.values.assign(begin.values.size(), 1);
    }
    checkSparseArgShapes(begin.shape, end.shape, strides.shape);
    s.begin = begin.values;
    s.end = end.values;
    s.strides = strides.values;
}

SparseSpec sparseFromAttrs(const OpCall& call)
{
    SparseSpec s = readMasks(call);
    readRanges(call, s);
    return s;
}

Attr encodingAttr(const SparseSpec& s)
{
    return Attr::Map{{"begin", Attr::ints(s.begin)},
                     {"end", Attr::ints(s.end)},
                     {"strides", Attr::ints(s.strides)},
                     {"begin_mask", std::int64_t(s.beginMask)},
                     {"end_mask", std::int64_t(s.endMask)},
                     {"ellipsis_mask", std::int64_t(s.ellipsisMask)},
                     {"new_axis_mask", std::int64_t(s.newAxisMask)},
                     {"shrink_axis_mask", std::int64_t(s.shrinkAxisMask)}};
}

Step encodingStep(const std::string& title, const SparseSpec& s, const std::string& intro)
{
    const int m = int(s.strides.size());
    Step step{title, intro + "begin " + listString(s.begin) + ", end " + listString(s.end) +
                         ", strides " + listString(s.strides) + "; begin_mask " +
                         maskText(s.beginMask, m) + ", end_mask " + maskText(s.endMask, m) +
                         ", ellipsis_mask " + maskText(s.ellipsisMask, m) + ", new_axis_mask " +
                         maskText(s.newAxisMask, m) + ", shrink_axis_mask " +
                         maskText(s.shrinkAxisMask, m) + ". Bit i of a mask belongs to entry i."};
    for (int i = 0; i < m; ++i)
        step.specEntries.push_back(i);
    return step;
}

// One Step per subscript entry: what it contributes to begin/end/strides and the masks.
void addEntrySteps(const Encoding& enc, std::vector<Step>& steps)
{
    for (std::size_t k = 0; k < enc.entries.size(); ++k) {
        const SpecEntry& e = enc.entries[k];
        const int i = int(k);
        const std::string at =
            "bit " + num(i) + " (" + num(std::int64_t(1) << std::min(i, 62)) + ")";
        std::string detail;
        switch (e.kind) {
        case SpecEntry::Kind::Index:
            detail = "An index: begin " + num(*e.begin) + ", end begin + 1 = " + num(*e.end) +
                     ", stride 1, and shrink_axis_mask " + at +
                     " so the dimension is removed rather than kept with size 1.";
            break;
        case SpecEntry::Kind::Slice:
            detail =
                "A slice: begin " +
                (e.begin ? num(*e.begin)
                         : "omitted, so 0 goes in and begin_mask " + at + " is set") +
                "; end " +
                (e.end ? num(*e.end) : "omitted, so 0 goes in and end_mask " + at + " is set") +
                "; stride " + num(*e.stride) + ".";
            break;
        case SpecEntry::Kind::NewAxis:
            detail = "None (tf.newaxis): begin 0, end 0, stride 1 (never read) and new_axis_mask " +
                     at + ": the output gets a dimension of size 1 here.";
            break;
        case SpecEntry::Kind::Ellipsis:
            detail = "An ellipsis: begin 0, end 0, stride 1 (never read) and ellipsis_mask " + at +
                     ": it stands for as many whole dimensions as the others leave.";
            break;
        }
        steps.push_back({"Entry " + num(i) + ": " + e.text, detail, {i}});
    }
}

// A subscript's steps: each entry, then the spec they encode to.
void addEncodingSteps(const Encoding& enc, std::vector<Step>& steps)
{
    addEntrySteps(enc, steps);
    std::string intro;
    for (const auto& n : enc.notes)
        intro += n + " ";
    steps.push_back(encodingStep("Encode the subscript", enc.sparse,
                                 intro + "tf.Tensor.__getitem__ calls strided_slice with "));
}

// output[p] = input[begin + p * stride], p over the processing shape.
AffinePiece slicePiece(int slot, const Shape& inputShape, const StridedSliceDecode& d)
{
    if (numElements(d.processingShape) == 0) return OutputPlan::emptyPiece(slot, d.processingShape);
    AffinePiece p;
    p.slot = slot;
    const auto inStrides = rowMajorStrides(inputShape);
    p.extents = d.processingShape;
    p.outStrides = rowMajorStrides(d.processingShape);
    for (std::size_t k = 0; k < inputShape.size(); ++k) {
        p.inOffset += d.dims[k].begin * inStrides[k];
        // A stride over a single element is never used (and may be as large as INT64_MIN).
        p.inStrides.push_back((d.dims[k].length > 1 ? d.dims[k].stride : 1) * inStrides[k]);
    }
    return p;
}

// The same piece seen from the other side: writes the slice positions of a full-size output.
AffinePiece scatterPiece(int slot, const Shape& fullShape, const StridedSliceDecode& d)
{
    AffinePiece p = slicePiece(slot, fullShape, d);
    std::swap(p.inOffset, p.outOffset);
    std::swap(p.inStrides, p.outStrides);
    return p;
}

Step readStep(const StridedSliceDecode& d, const std::string& in, const std::string& out)
{
    std::string index;
    for (std::size_t k = 0; k < d.dims.size(); ++k) {
        const DimDecode& dim = d.dims[k];
        std::string term;
        if (dim.shrink)
            term = num(dim.begin);
        else if (dim.stride == 1)
            term = dim.begin == 0 ? "p" + num(int(k)) : num(dim.begin) + " + p" + num(int(k));
        else
            term = (dim.begin == 0 ? "" : num(dim.begin) + " ") +
                   (dim.stride < 0 ? (dim.begin == 0 ? "-" : "- ") : (dim.begin == 0 ? "" : "+ ")) +
                   (dim.stride == 1 || dim.stride == -1 ? "" : magnitude(dim.stride) + "*") + "p" +
                   num(int(k));
        index += (k ? ", " : "") + term;
    }
    const std::int64_t n = numElements(d.finalShape);
    std::string detail =
        d.dims.empty() ? "The input is a scalar; the " + out + " holds its one element."
                       : "Element p of the processing block is " + in + "[" + index + "], for p" +
                             (d.dims.size() == 1 ? "0" : "0..p" + num(int(d.dims.size()) - 1)) +
                             " over " + shapeTuple(d.processingShape) + "; the " + out +
                             " is that block reshaped to " + shapeTuple(d.finalShape) + ".";
    detail += " " + num(n) + (n == 1 ? " element is" : " elements are") + " copied.";
    Step s{"Read the elements", detail, {}};
    for (int k = 0; k < int(d.dims.size()); ++k)
        s.inputDims.push_back(k);
    for (int k = 0; k < int(d.finalShape.size()); ++k)
        s.outputDims.push_back(k);
    return s;
}

// The plan of a slice of the call's input, after `steps` (the spec read so far). Without
// `explain`, as OpCall::explains() says, no words: `steps` comes empty, and none are added.
OpPlan planSlice(const OpCall& call, const SparseSpec& sparse, std::vector<SpecEntry> entries,
                 std::vector<Step> steps)
{
    const Tensor& input = call.input("input");
    const bool explain = call.explains();
    OpPlan plan;
    plan.steps = std::move(steps);
    StridedSliceDecode d;
    d.spec = std::move(entries);
    decodeStridedSlice(input.shape(), sparse, d, plan.steps, explain);
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = d.finalShape;
    out.pieces.push_back(slicePiece(call.slot("input"), input.shape(), d));
    // A slice that shares a mapped file's pages (x[...], x[10:20]) allocates nothing.
    out.checkSize(call.allInputs(), call.limits(), "the output");
    // strided_slice_op.cc: the identity and dimension-0 fast paths take any rank; the general
    // kernel is instantiated for 1 to 8 processing dimensions and runs only when the slice
    // selects something. Its message names the input's rank (the processing rank equals it).
    const int r = input.rank();
    if (r > kEigenKernelMaxRank) {
        const bool dim0 = d.sliceDim0 && innerDimsAligned(input.shape(), input.dtype());
        const bool nothing = numElements(d.processingShape) == 0;
        if (!d.isIdentity && !dim0 && !nothing)
            unimplemented("Unhandled input dimensions " + num(r));
        if (explain)
            plan.steps.push_back(
                {"Kernel path",
                 "TensorFlow's general strided-slice kernel handles at most 8 dimensions and this "
                 "input has " +
                     num(r) + ". " +
                     (d.isIdentity ? std::string("Every dimension is taken whole, so the output is "
                                                 "the input reshaped (any rank).")
                      : dim0       ? std::string("Only whole rows along dimension 0 are taken and "
                                                       "each row is a multiple of 32 bytes, so TensorFlow "
                                                       "hands them out as they are (any rank).")
                                   : std::string("The slice selects nothing, so no kernel runs.")) +
                     " A slice of it that needs the general kernel is refused: \"Unhandled input "
                     "dimensions " +
                     num(r) + "\".",
                 {}});
    }
    if (explain) plan.steps.push_back(readStep(d, "input", "output"));
    plan.outputs.push_back(std::move(out));
    plan.decode = std::move(d);
    return plan;
}

const std::vector<AttrDef> kSliceAttrs = {
    {"begin", "", AttrType::Ints},         {"end", "", AttrType::Ints},
    {"strides", "all 1", AttrType::Ints},  {"begin_mask", "0", AttrType::Int},
    {"end_mask", "0", AttrType::Int},      {"ellipsis_mask", "0", AttrType::Int},
    {"new_axis_mask", "0", AttrType::Int}, {"shrink_axis_mask", "0", AttrType::Int},
};

// strided_slice alone also takes TFLite's `offset`; its relatives keep TensorFlow's attributes.
std::vector<AttrDef> stridedSliceAttrs()
{
    std::vector<AttrDef> attrs = kSliceAttrs;
    attrs.push_back({"offset", "false"});
    return attrs;
}

// TFLite's StridedSliceOptions.offset: true or false (1 or 0 also accepted).
bool offsetAttr(const OpCall& call)
{
    const Attr* a = call.attr("offset");
    if (!a) return false;
    if (a->isBool()) return a->toBool();
    if (a->isInt() && (a->toInt() == 0 || a->toInt() == 1)) return a->toInt() == 1;
    badRequest("attribute 'offset' must be true or false");
}

// TFLite's offset (StridedSliceOptions.offset, strided_slice_logic.h): the end of each sliced
// entry counts from that entry's begin, after the begin has been wrapped, clamped or set by its
// mask: end = begin + end, then read as usual (wrapped, clamped, and still overridden by
// end_mask). Indexed entries (shrink) ignore end either way. Rewrites `sparse.end` to the plain
// ends that mean the same and explains each sum. The begins come from a first decode; if that
// fails the spec is left alone, and the real decode reports the same error with its steps.
// The step goes to `steps` unless it is null.
void applyOffset(const Shape& inputShape, SparseSpec& sparse, std::vector<Step>* steps)
{
    StridedSliceDecode first;
    std::vector<Step> none;
    try {
        decodeStridedSlice(inputShape, sparse, first, none, false);
    } catch (const OpError&) {
        return;
    }
    std::string detail = "offset is true (TFLite): each end counts from its entry's begin, "
                         "taken after the begin is wrapped, clamped or set by begin_mask.";
    Step step{"Offset: end = begin + end", "", {}};
    bool any = false;
    for (const DimDecode& dim : first.dims) {
        const int i = dim.specEntry;
        if (i < 0 || dim.fromEllipsis || dim.shrink) continue;
        step.specEntries.push_back(i);
        step.inputDims.push_back(dim.dim);
        std::int64_t& end = sparse.end[std::size_t(i)];
        if ((sparse.endMask >> i) & 1) {
            detail += " Entry " + num(i) + ": end_mask is set, so the end stays masked.";
            continue;
        }
        any = true;
        const std::int64_t raw = end;
        std::int64_t sum = 0;
        const bool overflow64 = __builtin_add_overflow(dim.begin, raw, &sum);
        if (overflow64)
            sum = raw > 0 ? std::numeric_limits<std::int64_t>::max()
                          : std::numeric_limits<std::int64_t>::min();
        detail += " Entry " + num(i) + ": end = " + num(dim.begin) + " + " +
                  (raw < 0 ? "(" + num(raw) + ")" : num(raw)) + " = ";
        // TFLite's begin and end are int32 and so is its sum: past the int32 range it wraps.
        const bool int32Input = raw >= std::numeric_limits<std::int32_t>::min() &&
                                raw <= std::numeric_limits<std::int32_t>::max();
        if (int32Input && (sum < std::numeric_limits<std::int32_t>::min() ||
                           sum > std::numeric_limits<std::int32_t>::max())) {
            const auto wrapped = std::int64_t(std::int32_t(std::uint32_t(std::uint64_t(sum))));
            detail += num(sum) + ", which TFLite's 32-bit sum wraps to " + num(wrapped) + ".";
            sum = wrapped;
        } else {
            detail += num(sum) + (overflow64 ? " (saturated)." : ".");
        }
        end = sum;
    }
    if (!any) detail += " No entry has an end that offset changes.";
    step.detail = detail + " The decode below reads these ends.";
    if (steps) steps->push_back(std::move(step));
}

OpPlan stridedSlice(const OpCall& call)
{
    SparseSpec sparse = sparseFromAttrs(call);
    const bool offset = offsetAttr(call);
    std::vector<Step> steps;
    if (call.explains()) steps.push_back(encodingStep("Read the spec", sparse, ""));
    std::vector<SpecEntry> entries = describeSparseSpec(sparse);
    if (offset)
        applyOffset(call.input("input").shape(), sparse, call.explains() ? &steps : nullptr);
    return planSlice(call, sparse, std::move(entries), std::move(steps));
}

Encoding encodeExprAttr(const OpCall& call)
{
    const Attr* expr = call.attr("expr");
    if (!expr || !expr->isString())
        badRequest("op '" + call.def().name + "' needs attribute 'expr', a string");
    return encodeExpression(expr->toString());
}

OpPlan getitem(const OpCall& call)
{
    Encoding enc = encodeExprAttr(call);
    std::vector<Step> steps;
    if (call.explains()) addEncodingSteps(enc, steps);
    return planSlice(call, enc.sparse, std::move(enc.entries), std::move(steps));
}

OpPlan encode(const OpCall& call)
{
    Encoding enc = encodeExprAttr(call);
    OpPlan plan;
    addEncodingSteps(enc, plan.steps);
    plan.extras.emplace_back("encoding", encodingAttr(enc.sparse));
    return plan;
}

OpPlan toExprOp(const OpCall& call)
{
    const SparseSpec sparse = sparseFromAttrs(call);
    OpPlan plan;
    plan.steps.push_back(encodingStep("Read the spec", sparse, ""));
    std::vector<std::string> notes;
    const std::string expr = toExpr(sparse, &notes);
    std::string detail;
    for (const auto& n : notes)
        detail += n + ". ";
    detail += "Omitted parts are left out where TensorFlow would use the same value for every "
              "input shape (begin 0 or a begin mask with a positive stride, -1 with a negative "
              "one; stride 1).";
    plan.steps.push_back({"Read each entry", detail, {}});
    plan.steps.push_back({"Subscript", expr, {}});
    plan.extras.emplace_back("expr", expr);
    return plan;
}

// TensorFlow's StridedSliceAssignBCast: how `value` spreads over the slice's final shape.
// NumPy's rule, except that the slice never grows: trailing dimensions line up; each value
// dimension equals the final one or is 1 (repeated); missing leading ones are repeated; extra
// leading value dimensions must be 1. Gives per final dimension the value's element stride (0
// where it repeats), or nothing if the shapes do not fit.
std::optional<std::vector<std::int64_t>> assignBroadcast(const Shape& value, const Shape& final)
{
    const std::size_t vr = value.size();
    const std::size_t fr = final.size();
    std::size_t skip = 0;
    if (vr > fr) {
        skip = vr - fr;
        for (std::size_t k = 0; k < skip; ++k)
            if (value[k] != 1) return std::nullopt;
    }
    const auto valueStrides = rowMajorStrides(value);
    std::vector<std::int64_t> strides(fr, 0);
    const std::size_t prepend = fr > vr ? fr - vr : 0;
    for (std::size_t k = prepend; k < fr; ++k) {
        const std::size_t v = skip + k - prepend;
        if (value[v] == final[k])
            strides[k] = final[k] == 1 ? 0 : valueStrides[v];
        else if (value[v] != 1)
            return std::nullopt;
    }
    return strides;
}

OpPlan stridedSliceAssign(const OpCall& call)
{
    const Tensor& ref = call.input("ref");
    const Tensor& value = call.input("value");
    SparseSpec sparse = readMasks(call);
    // The kernel compares the variable's dtype with the value's before it validates the spec.
    if (ref.dtype() != value.dtype())
        invalidArgument("l-value dtype " + std::string(tfDataTypeString(ref.dtype())) +
                        " does not match r-value dtype " +
                        std::string(tfDataTypeString(value.dtype())));
    readRanges(call, sparse);
    OpPlan plan;
    plan.steps.push_back(encodingStep("Read the spec", sparse, ""));
    StridedSliceDecode d;
    decodeStridedSlice(ref.shape(), sparse, d, plan.steps);
    const bool empty = numElements(d.processingShape) == 0;
    OutputPlan out;
    out.dtype = ref.dtype();
    out.shape = ref.shape();
    out.pieces.push_back(OutputPlan::identityPiece(call.slot("ref"), ref.shape()));
    if (empty) {
        plan.steps.push_back({"Write the value",
                              "The slice selects no element, so nothing is written. Quirk: "
                              "TensorFlow then skips the check of the value's shape (" +
                                  shapeString(value.shape()) + " is accepted).",
                              {}});
    } else {
        const auto bcast = assignBroadcast(value.shape(), d.finalShape);
        if (!bcast)
            invalidArgument("Cannot broadcast input shape " + shapeString(value.shape()) +
                            " into final shape " + shapeString(d.finalShape));
        // HANDLE_DIM(0..8) on the processing rank, after the broadcast check.
        if (ref.rank() > kEigenKernelMaxRank)
            unimplemented("Unhandled input dimensions " + num(ref.rank()));
        // The value's strides move from final dimensions to processing dimensions: new axes
        // (size 1) drop out, shrunk dimensions (size 1) read the value's element 0.
        std::vector<std::int64_t> valueStrides(d.processingShape.size(), 0);
        for (std::size_t k = 0; k < d.finalDims.size(); ++k)
            if (d.finalDims[k] >= 0) valueStrides[std::size_t(d.finalDims[k])] = (*bcast)[k];
        AffinePiece p = scatterPiece(call.slot("value"), ref.shape(), d);
        p.inOffset = 0;
        p.inStrides = valueStrides;
        out.pieces.push_back(std::move(p));
        const bool broadcasts = value.shape() != d.finalShape;
        plan.steps.push_back(
            {"Write the value",
             broadcasts
                 ? "The value " + shapeString(value.shape()) +
                       " is broadcast to the slice's final shape " + shapeString(d.finalShape) +
                       " (its size-1 and missing leading dimensions repeat) and written "
                       "into the selected positions; every other element of ref is kept. "
                       "Older TensorFlow 2 releases refused this (Unimplemented: "
                       "\"Automatic broadcasting not yet implemented\"); their kernel "
                       "required the exact shape."
                 : "The value " + shapeString(value.shape()) +
                       " has the slice's final shape and is written into the selected "
                       "positions; every other element of ref is kept.",
             {}});
    }
    plan.outputs.push_back(std::move(out));
    plan.decode = std::move(d);
    return plan;
}

OpPlan stridedSliceGrad(const OpCall& call)
{
    const Tensor& dy = call.input("dy");
    SparseSpec sparse = readMasks(call);
    const IntTensor shapeArg = call.intTensor("shape");
    if (shapeArg.shape.size() != 1)
        invalidArgument("shape must be 1-D, got shape.shape = " + shapeString(shapeArg.shape));
    for (std::int64_t v : shapeArg.values)
        if (v < 0) invalidArgument("Dimension " + num(v) + " must be >= 0");
    if (shapeArg.values.size() > std::size_t(kMaxRank))
        invalidArgument("shape has rank " + num(std::int64_t(shapeArg.values.size())) +
                        "; tensors may have rank 0 to " + num(kMaxRank));
    const Shape shape = shapeArg.values;
    readRanges(call, sparse);
    OpPlan plan;
    plan.steps.push_back(encodingStep("Read the spec", sparse, ""));
    StridedSliceDecode d;
    decodeStridedSlice(shape, sparse, d, plan.steps);
    call.limits().check(shape, dy.dtype(), "the output");
    if (dy.shape() != d.finalShape)
        invalidArgument("shape of dy was " + shapeString(dy.shape()) + " instead of " +
                        shapeString(d.finalShape));
    OutputPlan out;
    out.dtype = dy.dtype();
    out.shape = shape;
    const std::int64_t zero = out.addConstant(Tensor::zeros(dy.dtype(), {}));
    out.pieces.push_back(OutputPlan::fillPiece(zero, shape));
    if (numElements(d.processingShape) > 0)
        out.pieces.push_back(scatterPiece(call.slot("dy"), shape, d));
    std::string detail = "The output has shape " + shapeString(shape) +
                         ", zero everywhere except the positions the forward slice read, which "
                         "receive dy's elements in order.";
    if (shape.size() > std::size_t(kEigenKernelMaxRank) && numElements(d.processingShape) > 0)
        detail += " Quirk: TensorFlow's kernel handles 1 to 8 processing dimensions and, past "
                  "them, returns its freshly allocated output without writing it (no error); "
                  "SliceScope gives the defined result.";
    plan.steps.push_back({"Scatter dy back", detail, {}});
    plan.outputs.push_back(std::move(out));
    plan.decode = std::move(d);
    return plan;
}

} // namespace

SparseSpec ops::sparseSpecFromCall(const OpCall& call)
{
    return sparseFromAttrs(call);
}

std::vector<OpDef> stridedSliceOps()
{
    std::vector<AttrDef> gradAttrs = kSliceAttrs;
    gradAttrs.insert(gradAttrs.begin(), AttrDef{"shape", "", AttrType::Ints});
    return {
        {.name = "strided_slice",
         .summary =
             "tf.strided_slice: the raw op with begin/end/strides and five masks (and TFLite's "
             "offset)",
         .inputs = {{"input"}},
         .attrs = stridedSliceAttrs(),
         .outputs = "output",
         .plan = stridedSlice,
         .notation = Notation::RawStridedSlice,
         .example = {{{exampleFill(DType::Int32, {3, 4})}},
                     {{"begin", Attr::ints({1, 0})},
                      {"end", Attr::ints({3, 0})},
                      {"strides", Attr::ints({1, -1})},
                      {"begin_mask", Attr(2)},
                      {"end_mask", Attr(2)}}},
         .family = OpFamily::Slicing,
         .indexSpec = true,
         .equivalents = {}},
        {.name = "getitem",
         .summary = "tf.Tensor.__getitem__: a Python subscript such as x[1, 2:4, None, ...]",
         .inputs = {{"input"}},
         .attrs = {{"expr", ""}},
         .outputs = "output",
         .plan = getitem,
         .notation = Notation::Subscript,
         .example = {{{exampleFill(DType::Int32, {3, 4})}}, {{"expr", Attr("x[1:, ::-2]")}}},
         .family = OpFamily::Slicing,
         .indexSpec = true,
         .equivalents = {}},
        {.name = "encode",
         .summary = "the strided_slice arguments a Python subscript encodes to",
         .inputs = {},
         .attrs = {{"expr", ""}},
         .outputs = "none (the response has \"encoding\")",
         .plan = encode,
         .notation = Notation::Subscript,
         .example = {{}, {{"expr", Attr("x[1, 2:4, None, ..., :-3:-1, :]")}}},
         .family = OpFamily::Slicing,
         .equivalents =
             {noEquivalent(
                  Framework::NumPy,
                  "SliceScope's own step: TensorFlow's Python front end encodes a subscript this "
                  "way inside tf.Tensor.__getitem__, and no framework offers it as a call."),
              noEquivalent(
                  Framework::TensorFlow,
                  "SliceScope's own step: TensorFlow's Python front end encodes a subscript this "
                  "way inside tf.Tensor.__getitem__, and no framework offers it as a call."),
              noEquivalent(
                  Framework::PyTorch,
                  "SliceScope's own step: TensorFlow's Python front end encodes a subscript this "
                  "way inside tf.Tensor.__getitem__, and no framework offers it as a call."),
              noEquivalent(
                  Framework::Jax,
                  "SliceScope's own step: TensorFlow's Python front end encodes a subscript this "
                  "way inside tf.Tensor.__getitem__, and no framework offers it as a call."),
              noEquivalent(
                  Framework::Onnx,
                  "SliceScope's own step: TensorFlow's Python front end encodes a subscript this "
                  "way inside tf.Tensor.__getitem__, and no framework offers it as a call."),
              noEquivalent(
                  Framework::Paddle,
                  "SliceScope's own step: TensorFlow's Python front end encodes a subscript this "
                  "way inside tf.Tensor.__getitem__, and no framework offers it as a call.")}},
        {.name = "to_expr",
         .summary = "the shortest Python subscript for raw strided_slice arguments",
         .inputs = {},
         .attrs = kSliceAttrs,
         .outputs = "none (the response has \"expr\")",
         .plan = toExprOp,
         .notation = Notation::RawStridedSlice,
         .example = {{},
                     {{"begin", Attr::ints({1, 0})},
                      {"end", Attr::ints({3, 0})},
                      {"strides", Attr::ints({1, -1})},
                      {"begin_mask", Attr(2)},
                      {"end_mask", Attr(2)}}},
         .family = OpFamily::Slicing,
         .equivalents = {noEquivalent(Framework::NumPy,
                                      "SliceScope's own inverse of encode: no framework turns "
                                      "strided_slice arguments back into a subscript."),
                         noEquivalent(Framework::TensorFlow,
                                      "SliceScope's own inverse of encode: no framework turns "
                                      "strided_slice arguments back into a subscript."),
                         noEquivalent(Framework::PyTorch,
                                      "SliceScope's own inverse of encode: no framework turns "
                                      "strided_slice arguments back into a subscript."),
                         noEquivalent(Framework::Jax,
                                      "SliceScope's own inverse of encode: no framework turns "
                                      "strided_slice arguments back into a subscript."),
                         noEquivalent(Framework::Onnx,
                                      "SliceScope's own inverse of encode: no framework turns "
                                      "strided_slice arguments back into a subscript."),
                         noEquivalent(Framework::Paddle,
                                      "SliceScope's own inverse of encode: no framework turns "
                                      "strided_slice arguments back into a subscript.")}},
        {.name = "strided_slice_assign",
         .summary = "var[spec].assign(value): writes value into the slice",
         .inputs = {{"ref"}, {"value"}},
         .attrs = kSliceAttrs,
         .outputs = "the updated ref",
         .plan = stridedSliceAssign,
         .notation = Notation::RawStridedSlice,
         .example = {{{exampleFill(DType::Int32, {3, 4})},
                      {exampleValue(DType::Int32,
                                    Attr::List{Attr::List{-1, -2}, Attr::List{-3, -4}})}},
                     {{"begin", Attr::ints({0, 1})},
                      {"end", Attr::ints({3, 4})},
                      {"strides", Attr::ints({2, 2})}}},
         .family = OpFamily::Slicing,
         .equivalents =
             {noEquivalent(Framework::NumPy,
                           "NumPy writes in place: y = x.copy(); y[spec] = value, with the spec as "
                           "a subscript (to_expr writes it)."),
              noEquivalent(
                  Framework::TensorFlow,
                  "tf.Variable(ref)[spec].assign(value), with the spec as a subscript (to_expr "
                  "writes it): the assignment is a method of a variable, not a function."),
              noEquivalent(Framework::PyTorch, "PyTorch writes in place: y = x.clone(); y[spec] = "
                                               "value (PyTorch refuses negative steps)."),
              noEquivalent(
                  Framework::Jax,
                  "JAX arrays are immutable: x.at[spec].set(value), with the spec as a subscript."),
              noEquivalent(Framework::Onnx, "ONNX has no strided assignment: ScatterND with the "
                                            "slice's element indices does it."),
              noEquivalent(Framework::Paddle, "Paddle writes in place: y = x.clone(); y[spec] = "
                                              "value, with the spec as a subscript.")}},
        {.name = "strided_slice_grad",
         .summary = "the gradient of strided_slice: dy scattered into zeros",
         .inputs = {{"dy"}},
         .attrs = gradAttrs,
         .outputs = "a tensor of shape `shape`",
         .plan = stridedSliceGrad,
         .notation = Notation::RawStridedSlice,
         .example = {{{exampleValue(DType::Int32, Attr::List{Attr::List{1, 2}, Attr::List{3, 4}})}},
                     {{"shape", Attr::ints({3, 4})},
                      {"begin", Attr::ints({0, 1})},
                      {"end", Attr::ints({3, 4})},
                      {"strides", Attr::ints({2, 2})}}},
         .family = OpFamily::Slicing,
         .equivalents =
             {noEquivalent(Framework::NumPy,
                           "NumPy has no gradients: y = np.zeros(shape); y[spec] = dy."),
              noEquivalent(Framework::TensorFlow,
                           "tf.raw_ops.StridedSliceGrad takes every argument as a keyword; "
                           "tf.GradientTape over tf.strided_slice gives the same."),
              noEquivalent(Framework::PyTorch,
                           "PyTorch's autograd computes it; by hand, y = torch.zeros(shape); "
                           "y[spec] = dy (no negative steps)."),
              noEquivalent(
                  Framework::Jax,
                  "jax.vjp of the slice computes it; by hand, jnp.zeros(shape).at[spec].set(dy)."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no gradient ops: ScatterND of dy into zeros does it."),
              noEquivalent(Framework::Paddle, "Paddle's autograd computes it; by hand, y = "
                                              "paddle.zeros(shape); y[spec] = dy.")}},
    };
}

} // namespace ss
