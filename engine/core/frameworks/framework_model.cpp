// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/framework_model.h"

#include "core/error.h"
#include "core/frameworks/jax_model.h"
#include "core/frameworks/numpy_model.h"
#include "core/frameworks/onnx_model.h"
#include "core/frameworks/paddle_model.h"
#include "core/frameworks/tensorflow_model.h"
#include "core/frameworks/torch_model.h"
#include "core/ops/common.h"
#include "core/strings.h"

#include <algorithm>

namespace ss {

IndexSpec IndexSpec::fromExpression(std::string_view expression)
{
    IndexSpec spec;
    spec.expression = std::string(expression);
    spec.subscript = parseSubscript(expression);
    return spec;
}

IndexSpec IndexSpec::fromAttrs(const std::string& op, const Attrs& attrs)
{
    const auto expr = attrs.find("expr");
    if (expr != attrs.end()) {
        if (!expr->second.isString())
            badRequest("op '" + op + "' needs attribute 'expr', a string");
        return fromExpression(expr->second.toString());
    }
    // strided_slice's TFLite offset: false is the plain arguments; true makes each end count
    // from its entry's begin once the input is known, which no framework's subscript does. (The
    // op's own attribute, which to_expr below would refuse by the wrong op's name.)
    Attrs plain = attrs;
    if (const auto offset = plain.find("offset"); offset != plain.end()) {
        const Attr& a = offset->second;
        if (!a.isBool() && !(a.isInt() && (a.toInt() == 0 || a.toInt() == 1)))
            badRequest("attribute 'offset' must be true or false");
        if (a.isBool() ? a.toBool() : a.toInt() == 1)
            badRequest("op '" + op +
                       "' with offset true (TFLite: each end counts from its entry's begin) "
                       "is read by TensorFlow alone: no NumPy, PyTorch or JAX subscript reads "
                       "its arguments that way");
        plain.erase(offset);
    }
    // to_expr takes strided_slice's attributes and no input, so its call reads them alone.
    const OpCall call(*findOp("to_expr"), {}, plain, Limits::machineDefault());
    return fromStridedSlice(ops::sparseSpecFromCall(call));
}

IndexSpec IndexSpec::fromStridedSlice(const SparseSpec& sparse)
{
    IndexSpec spec;
    spec.raw = sparse;
    try {
        spec.expression = toExpr(sparse);
        spec.subscript = parseSubscript(spec.expression);
    } catch (const OpError& e) {
        spec.expression.clear();
        spec.noSubscriptReason = e.what();
    }
    return spec;
}

std::string IndexSpec::noSubscriptMessage() const
{
    return "No Python subscript expresses these strided_slice arguments: " + noSubscriptReason;
}

const std::vector<const FrameworkModel*>& frameworkModels()
{
    static const NumpyModel numpy;
    static const TensorflowModel tensorflow;
    static const TorchModel torch;
    static const JaxModel jax;
    static const OnnxModel onnx;
    static const PaddleModel paddle;
    static const std::vector<const FrameworkModel*> models = {&numpy, &tensorflow, &torch,
                                                              &jax,   &onnx,       &paddle};
    return models;
}

const FrameworkModel* findFramework(std::string_view key)
{
    for (const FrameworkModel* m : frameworkModels())
        if (m->key() == key) return m;
    // Common spellings people type.
    if (key == "np") return &frameworkModel(Framework::NumPy);
    if (key == "tf") return &frameworkModel(Framework::TensorFlow);
    if (key == "pytorch") return &frameworkModel(Framework::PyTorch);
    if (key == "paddlepaddle") return &frameworkModel(Framework::Paddle);
    return nullptr;
}

const FrameworkModel& frameworkModel(Framework framework)
{
    return *frameworkModels()[std::size_t(framework)];
}

std::string frameworkKeys()
{
    std::string keys;
    for (const FrameworkModel* m : frameworkModels())
        keys += (keys.empty() ? "" : ", ") + std::string(m->key());
    return keys;
}

bool readsSubscriptOps(Framework framework)
{
    return framework == Framework::TensorFlow || framework == Framework::NumPy ||
           framework == Framework::PyTorch || framework == Framework::Jax;
}

std::string subscriptFrameworkKeys()
{
    std::string keys;
    for (Framework f :
         {Framework::TensorFlow, Framework::NumPy, Framework::PyTorch, Framework::Jax})
        keys += (keys.empty() ? "" : ", ") + std::string(frameworkModel(f).key());
    return keys;
}

std::string outcomeMessage(const FrameworkOutcome& outcome)
{
    const std::string title(frameworkModel(outcome.framework).title());
    switch (outcome.kind) {
    case FrameworkOutcome::Kind::Error:
        return title + " raises " + outcome.errorType + ": " + outcome.message;
    case FrameworkOutcome::Kind::NotModelled: return title + ": not modelled: " + outcome.message;
    case FrameworkOutcome::Kind::Result: break;
    }
    return title + " returns a result";
}

OpPlan planInFramework(Framework framework, const std::string& op, const Attrs& attrs,
                       const Tensor& input, const Limits& limits)
{
    FrameworkOutcome outcome =
        frameworkModel(framework).plan(IndexSpec::fromAttrs(op, attrs), input, limits);
    switch (outcome.kind) {
    case FrameworkOutcome::Kind::Result: return std::move(outcome.plan);
    case FrameworkOutcome::Kind::Error:
        throw OpError(ErrorCode::InvalidArgument, outcomeMessage(outcome));
    case FrameworkOutcome::Kind::NotModelled:
        throw OpError(ErrorCode::Unimplemented, outcomeMessage(outcome));
    }
    throw OpError(ErrorCode::Internal, "unknown framework outcome");
}

namespace frameworks {

// The last position an axis pick reads, exactly, wherever its first, step and count lie in int64.
__extension__ using WideInt = __int128;

PythonSlice pythonSliceIndices(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                               std::int64_t step, std::int64_t size)
{
    // CPython's PySlice_AdjustIndices: negative values count from the end, then clamp to
    // [0, size] for a positive step and [-1, size - 1] for a negative one.
    const std::int64_t lower = step < 0 ? -1 : 0;
    const std::int64_t upper = step < 0 ? size - 1 : size;
    auto adjust = [&](std::optional<std::int64_t> v, std::int64_t omitted) {
        if (!v) return omitted;
        std::int64_t x = *v;
        if (x < 0) {
            x += size; // x >= INT64_MIN and size >= 0: no overflow
            return x < lower ? lower : x;
        }
        return x > upper ? upper : x;
    };
    PythonSlice s;
    s.step = step;
    s.start = adjust(start, step < 0 ? upper : lower);
    s.stop = adjust(stop, step < 0 ? lower : upper);
    // Both ends lie in [-1, size], so the span fits; the step's magnitude may not fit in int64.
    const std::uint64_t mag = step > 0 ? std::uint64_t(step) : 0 - std::uint64_t(step);
    if (step > 0 && s.stop > s.start)
        s.count = std::int64_t((std::uint64_t(s.stop - s.start) - 1) / mag + 1);
    else if (step < 0 && s.start > s.stop)
        s.count = std::int64_t((std::uint64_t(s.start - s.stop) - 1) / mag + 1);
    return s;
}

FrameworkOutcome resultOutcome(Framework framework, const Tensor& input,
                               std::vector<AxisPick> picks, std::vector<int> outputDims,
                               std::vector<Step> steps, const Limits& limits)
{
    const Shape& inShape = input.shape();
    Shape extents;
    for (const AxisPick& p : picks)
        extents.push_back(p.count);
    if (picks.size() != inShape.size())
        throw OpError(ErrorCode::Internal,
                      "a framework model planned " + num(std::int64_t(picks.size())) +
                          " dimensions for an input of rank " + num(std::int64_t(inShape.size())));
    // Every read lies inside the input, or the copy engine would be handed a bad piece (an empty
    // result reads nothing).
    bool readsNothing = false;
    for (const AxisPick& p : picks)
        readsNothing |= p.count == 0;
    for (std::size_t k = 0; k < picks.size() && !readsNothing; ++k) {
        const AxisPick& p = picks[k];
        if (p.count == 0) continue;
        const WideInt last = WideInt(p.first) + WideInt(p.step) * (p.count - 1);
        if (p.count < 0 || p.first < 0 || p.first >= inShape[k] || last < 0 || last >= inShape[k])
            throw OpError(ErrorCode::Internal,
                          "a framework model reads outside dimension " + num(std::int64_t(k)));
    }
    Shape finalShape;
    for (int d : outputDims) {
        if (d >= int(picks.size()))
            throw OpError(ErrorCode::Internal, "a framework model named input dimension " + num(d) +
                                                   " of an input of rank " +
                                                   num(std::int64_t(inShape.size())));
        finalShape.push_back(d < 0 ? 1 : picks[std::size_t(d)].count);
    }
    if (finalShape.size() > std::size_t(kMaxRank))
        return notModelledOutcome(
            framework,
            "The result would have rank " + num(std::int64_t(finalShape.size())) +
                "; SliceScope holds tensors of rank 0 to " + num(kMaxRank) + ".",
            std::move(steps));

    AffinePiece piece;
    piece.slot = 0;
    piece.extents = extents;
    piece.outStrides = rowMajorStrides(extents);
    const auto inStrides = rowMajorStrides(inShape);
    const bool empty = numElements(extents) == 0;
    for (std::size_t k = 0; k < picks.size(); ++k) {
        if (!empty) piece.inOffset += picks[k].first * inStrides[k];
        // A step over a single element is never used (and may be as large as INT64_MIN).
        piece.inStrides.push_back((picks[k].count > 1 ? picks[k].step : 1) * inStrides[k]);
    }
    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = finalShape;
    out.pieces.push_back(std::move(piece));
    // A result that shares a mapped file's pages (x[...], a block of rows) allocates nothing.
    out.checkSize({input}, limits, "the output");

    std::string index;
    for (std::size_t k = 0; k < picks.size(); ++k) {
        const AxisPick& p = picks[k];
        std::string term;
        if (p.removed)
            term = num(p.first);
        else if (p.count == 0)
            term = "(none)";
        else if (p.count == 1)
            term = num(p.first);
        else
            term = num(p.first) + (p.step < 0 ? " - " : " + ") +
                   (p.step == 1 || p.step == -1
                        ? std::string()
                        : (p.step < 0 ? std::to_string(0 - std::uint64_t(p.step)) : num(p.step)) +
                              "*") +
                   "p" + num(std::int64_t(k));
        index += (k ? ", " : "") + term;
    }
    const std::int64_t n = numElements(finalShape);
    Step read{"Read the elements",
              (picks.empty() ? std::string("The input is a scalar; the result holds its element.")
                             : "Element p of the result block is x[" + index +
                                   "]; the result "
                                   "has shape " +
                                   shapeTuple(finalShape) + ".") +
                  " " + num(n) + (n == 1 ? " element is" : " elements are") + " read.",
              {}};
    for (int k = 0; k < int(picks.size()); ++k)
        read.inputDims.push_back(k);
    for (int k = 0; k < int(finalShape.size()); ++k)
        read.outputDims.push_back(k);
    steps.push_back(std::move(read));

    FrameworkOutcome o;
    o.framework = framework;
    o.kind = FrameworkOutcome::Kind::Result;
    o.plan.steps = std::move(steps);
    o.plan.outputs.push_back(std::move(out));
    o.picks = std::move(picks);
    o.outputDims = std::move(outputDims);
    return o;
}

FrameworkOutcome errorOutcome(Framework framework, std::string errorType, std::string message,
                              std::vector<Step> steps)
{
    FrameworkOutcome o;
    o.framework = framework;
    o.kind = FrameworkOutcome::Kind::Error;
    steps.push_back({"Error", errorType + ": " + message, {}});
    o.plan.steps = std::move(steps);
    o.errorType = std::move(errorType);
    o.message = std::move(message);
    return o;
}

FrameworkOutcome notModelledOutcome(Framework framework, std::string message,
                                    std::vector<Step> steps)
{
    FrameworkOutcome o;
    o.framework = framework;
    o.kind = FrameworkOutcome::Kind::NotModelled;
    steps.push_back({"Not modelled", message, {}});
    o.plan.steps = std::move(steps);
    o.message = std::move(message);
    return o;
}

std::string advancedIndexingReason(const Subscript& subscript, const std::string& who)
{
    if (subscript.form == Subscript::Form::List)
        return who + " reads a list subscript as an index array (advanced indexing: it picks "
                     "whole elements along the first dimension), which this translation does not "
                     "cover (the NumPy, PyTorch and JAX models do).";
    for (const SubscriptItem& it : subscript.items) {
        if (it.kind == SubscriptItem::Kind::Bool)
            return who + " reads the bool " + it.text +
                   " as a boolean mask (advanced indexing), which this translation does not "
                   "cover (the NumPy, PyTorch and JAX models do).";
        if (it.kind == SubscriptItem::Kind::IndexArray)
            return who + " reads " + it.text +
                   " as an index array (advanced indexing), which this translation does not "
                   "cover (the NumPy, PyTorch and JAX models do).";
        if (it.kind == SubscriptItem::Kind::Other)
            return who + " reads " + it.text +
                   " as an index array or refuses it; only integers, slices, None and ... are "
                   "modelled.";
        if (it.kind == SubscriptItem::Kind::Slice && !it.invalidMessage.empty())
            return who + " is only modelled for integer slice bounds, not " + it.text + ".";
    }
    return {};
}

std::string itemText(const SubscriptItem& item)
{
    switch (item.kind) {
    case SubscriptItem::Kind::Integer: return num(*item.start);
    case SubscriptItem::Kind::NewAxis: return "None";
    case SubscriptItem::Kind::Ellipsis: return "...";
    case SubscriptItem::Kind::Slice: {
        std::string t =
            (item.start ? num(*item.start) : "") + ":" + (item.stop ? num(*item.stop) : "");
        if (item.step) t += ":" + num(*item.step);
        return t;
    }
    default: return item.text;
    }
}

std::string subscriptText(const std::vector<SubscriptItem>& items, bool tupleForm)
{
    if (items.empty()) return "x[()]";
    std::string t = "x[";
    for (std::size_t k = 0; k < items.size(); ++k)
        t += (k ? ", " : "") + itemText(items[k]);
    if (tupleForm && items.size() == 1) t += ",";
    return t + "]";
}

std::vector<int> consumedDims(const std::vector<SubscriptItem>& items, int rank)
{
    const int used = indexedDims(items);
    std::vector<int> dims;
    int dim = 0;
    for (const SubscriptItem& it : items) {
        switch (it.kind) {
        case SubscriptItem::Kind::Ellipsis:
            dims.push_back(-1);
            dim += std::max(0, rank - used);
            break;
        case SubscriptItem::Kind::NewAxis: dims.push_back(-1); break;
        default: dims.push_back(dim < rank ? dim : -2); ++dim;
        }
    }
    return dims;
}

std::vector<int> basicLayout(const std::vector<SubscriptItem>& items, int rank)
{
    const int used = indexedDims(items);
    std::vector<int> out;
    int dim = 0;
    for (const SubscriptItem& it : items) {
        switch (it.kind) {
        case SubscriptItem::Kind::Integer: ++dim; break;
        case SubscriptItem::Kind::NewAxis: out.push_back(-1); break;
        case SubscriptItem::Kind::Ellipsis:
            for (int n = std::max(0, rank - used); n > 0; --n)
                out.push_back(dim++);
            break;
        default: out.push_back(dim++);
        }
    }
    while (dim < rank)
        out.push_back(dim++);
    return out;
}

int indexedDims(const std::vector<SubscriptItem>& items)
{
    int used = 0;
    for (const SubscriptItem& it : items)
        used += it.kind == SubscriptItem::Kind::Integer || it.kind == SubscriptItem::Kind::Slice;
    return used;
}

int ellipsisCount(const std::vector<SubscriptItem>& items)
{
    return int(std::count_if(items.begin(), items.end(), [](const SubscriptItem& it) {
        return it.kind == SubscriptItem::Kind::Ellipsis;
    }));
}

std::vector<AxisPick> wholePicks(const Shape& shape)
{
    std::vector<AxisPick> picks;
    for (std::int64_t size : shape)
        picks.push_back({0, 1, size, false});
    return picks;
}

Step itemStep(const std::string& title, const std::string& detail, int item, int dim)
{
    Step s{title, detail, {}};
    if (item >= 0) s.specEntries.push_back(item);
    if (dim >= 0) s.inputDims.push_back(dim);
    return s;
}

} // namespace frameworks

} // namespace ss
