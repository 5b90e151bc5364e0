// SPDX-License-Identifier: GPL-3.0-or-later
// PaddlePaddle: the subscript translated into paddle.strided_slice (the engine's
// paddle_strided_slice op, with Paddle's own clamping and errors), then paddle.squeeze for the
// integers and paddle.unsqueeze for None. An omitted start is 0 (forward) or -1 (backward), an
// omitted end 2147483647 (forward) or -1, which Paddle reads with a negative stride as "through
// index 0"; an integer i is the range [i, i + 1) (i = -1: [-1, 2147483647)). So an explicit end
// of -1 with a negative step means something else in Paddle than in NumPy: the table's
// x[4:-1:-1] is [4, 3, 2, 1, 0] here and empty everywhere else.
#include "core/frameworks/paddle_model.h"

#include "core/error.h"
#include "core/strings.h"

namespace ss {

using namespace frameworks;

namespace {

constexpr std::int64_t kEnd = 2147483647;

// Bounds held to +-2^62: Paddle adds one to a backward range's ends, which overflows at the
// ends of int64, and no dimension has 2^62 elements, so the meaning is unchanged.
std::int64_t held(std::int64_t v)
{
    constexpr std::int64_t lim = std::int64_t(1) << 62;
    return v < -lim ? -lim : (v > lim ? lim : v);
}

struct PaddleCall
{
    std::vector<std::int64_t> axes, starts, ends, strides;
    std::vector<std::int64_t> squeeze;   // input dims of the integers
    std::vector<std::int64_t> unsqueeze; // output positions of None
    std::vector<int> layout;
    std::vector<int> integerItems;
    std::string notModelled;
};

PaddleCall translate(const IndexSpec& spec, int rank)
{
    PaddleCall c;
    if (!spec.subscript) {
        c.notModelled = spec.noSubscriptMessage();
        return c;
    }
    const Subscript& sub = *spec.subscript;
    if (const std::string why = advancedIndexingReason(sub, "NumPy"); !why.empty()) {
        c.notModelled = "The translation into paddle.strided_slice covers integers, slices, None "
                        "and ...; here " +
                        why;
        return c;
    }
    const auto& items = sub.items;
    if (ellipsisCount(items) > 1) {
        c.notModelled = "Two ellipses have no translation (NumPy and TensorFlow refuse the "
                        "subscript too).";
        return c;
    }
    const std::vector<int> dims = consumedDims(items, rank);
    int extra = rank; // axes past the rank, numbered on so that Paddle names them
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        const int dim = dims[k] == -2 ? extra++ : dims[k];
        if (it.kind == SubscriptItem::Kind::Slice) {
            const std::int64_t step = it.step.value_or(1);
            // ':' needs no entry, unless it names an axis past the rank (Paddle refuses that).
            if (!it.start && !it.stop && step == 1 && dims[k] != -2) continue;
            c.axes.push_back(dim);
            c.starts.push_back(held(it.start.value_or(step < 0 ? -1 : 0)));
            c.ends.push_back(held(it.stop.value_or(step < 0 ? -1 : kEnd)));
            c.strides.push_back(step);
        } else if (it.kind == SubscriptItem::Kind::Integer) {
            const std::int64_t i = *it.start;
            c.axes.push_back(dim);
            c.starts.push_back(held(i));
            c.ends.push_back(i == -1 ? kEnd : held(i) + 1);
            c.strides.push_back(1);
            c.squeeze.push_back(dim);
            c.integerItems.push_back(int(k));
        }
    }
    c.layout = basicLayout(items, rank);
    for (std::size_t k = 0; k < c.layout.size(); ++k)
        if (c.layout[k] < 0) c.unsqueeze.push_back(std::int64_t(k));
    return c;
}

} // namespace

Framework PaddleModel::id() const
{
    return Framework::Paddle;
}

std::string_view PaddleModel::title() const
{
    return "PaddlePaddle (strided_slice)";
}

FrameworkOutcome PaddleModel::plan(const IndexSpec& spec, const Tensor& input,
                                   const Limits& limits) const
{
    const Framework fw = Framework::Paddle;
    const Shape& shape = input.shape();
    const int rank = int(shape.size());
    const PaddleCall c = translate(spec, rank);
    std::vector<Step> steps;
    if (!c.notModelled.empty()) return notModelledOutcome(fw, c.notModelled, steps);
    // An integer outside its dimension: strided_slice does not refuse it, and Paddle's size for
    // a start beyond the dimension is undefined (its shape inference and kernel disagree).
    for (std::size_t k = 0; k < c.integerItems.size(); ++k) {
        const auto dim = std::size_t(c.squeeze[k]);
        if (dim >= shape.size()) continue; // the op refuses the axis below
        const std::int64_t i = spec.subscript->items[std::size_t(c.integerItems[k])].start.value();
        const std::int64_t d = shape[dim];
        if (i < -d || i >= d)
            return notModelledOutcome(
                fw,
                "Index " + num(i) + " lies outside dimension " + num(std::int64_t(dim)) +
                    " (size " + num(d) +
                    "). paddle.strided_slice does not refuse it: it clamps the range to an "
                    "empty or undefined one, and paddle.squeeze keeps an axis whose size is not "
                    "1, so the translation has no meaningful result.",
                steps);
    }
    Shape sliced = shape;
    std::vector<AxisPick> picks = wholePicks(shape);
    if (!c.axes.empty()) {
        const OpDef* def = findOp("paddle_strided_slice");
        OpPlan plan;
        try {
            OpCall call(*def, {{input}},
                        {{"axes", Attr::ints(c.axes)},
                         {"starts", Attr::ints(c.starts)},
                         {"ends", Attr::ints(c.ends)},
                         {"strides", Attr::ints(c.strides)}},
                        limits);
            plan = def->plan(call);
        } catch (const OpError& e) {
            if (e.code() == ErrorCode::ResourceExhausted) throw;
            // Paddle raises its InvalidArgument checks as ValueError
            // (paddle/fluid/pybind/exception.cc), the check's text after "(InvalidArgument) ".
            return errorOutcome(fw, "ValueError", e.what(), steps);
        }
        steps.push_back({"paddle.strided_slice",
                         "axes " + listText(c.axes) + ", starts " + listText(c.starts) + ", ends " +
                             listText(c.ends) + ", strides " + listText(c.strides) + ".",
                         {}});
        for (Step& s : plan.steps)
            if (s.title != "Output shape") steps.push_back(std::move(s));
        // Read the picks back from the op's one affine piece.
        const OutputPlan& out = plan.outputs.at(0);
        const AffinePiece& p = std::get<AffinePiece>(out.pieces.at(0));
        sliced = out.shape;
        const auto rowStrides = rowMajorStrides(shape);
        const bool empty = numElements(sliced) == 0;
        const auto firstCoords =
            empty ? std::vector<std::int64_t>(shape.size(), 0) : unravelIndex(p.inOffset, shape);
        for (std::size_t k = 0; k < shape.size(); ++k) {
            const std::int64_t step = rowStrides[k] == 0 ? 1 : p.inStrides[k] / rowStrides[k];
            picks[k] = {firstCoords[k], step, sliced[k], false};
        }
    }
    for (std::int64_t dim : c.squeeze)
        picks[std::size_t(dim)].removed = true;
    if (!c.squeeze.empty())
        steps.push_back(
            {"paddle.squeeze",
             "axis=" + listText(c.squeeze) + ": the integers' axes (each of size 1) are removed.",
             {}});
    if (!c.unsqueeze.empty())
        steps.push_back({"paddle.unsqueeze",
                         "axis=" + listText(c.unsqueeze) +
                             ": axes of size 1 for None, at these output "
                             "positions.",
                         {}});
    return resultOutcome(fw, input, std::move(picks), c.layout, std::move(steps), limits);
}

std::string PaddleModel::code(const IndexSpec& spec, const std::optional<Shape>& shape) const
{
    int rank = 0;
    if (spec.subscript) {
        bool seen = false;
        bool afterEllipsis = false;
        for (const SubscriptItem& it : spec.subscript->items) {
            if (it.kind == SubscriptItem::Kind::Ellipsis)
                seen = true;
            else if (seen && (it.kind == SubscriptItem::Kind::Integer ||
                              it.kind == SubscriptItem::Kind::Slice))
                afterEllipsis = true;
        }
        if (afterEllipsis && !shape)
            invalidArgument("paddle.strided_slice names axes by number, and the items after the "
                            "ellipsis need the input's rank: give the shape (--shape)");
        rank = shape ? int(shape->size()) : indexedDims(spec.subscript->items);
    }
    const PaddleCall c = translate(spec, rank);
    if (!c.notModelled.empty()) invalidArgument(c.notModelled);
    std::string out = "import paddle\n\n";
    std::string y = "x";
    if (!c.axes.empty()) {
        out += "y = paddle.strided_slice(x, axes=" + listText(c.axes) +
               ", starts=" + listText(c.starts) + ", ends=" + listText(c.ends) +
               ", strides=" + listText(c.strides) + ")\n";
        y = "y";
    }
    if (!c.squeeze.empty()) {
        out += "y = paddle.squeeze(" + y + ", axis=" + listText(c.squeeze) + ")\n";
        y = "y";
    }
    if (!c.unsqueeze.empty()) {
        out += "y = paddle.unsqueeze(" + y + ", axis=" + listText(c.unsqueeze) + ")\n";
        y = "y";
    }
    if (y == "x") out += "y = x\n";
    return out;
}

} // namespace ss
