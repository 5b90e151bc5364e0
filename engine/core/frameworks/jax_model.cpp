// SPDX-License-Identifier: GPL-3.0-or-later
// JAX: jax.numpy indexing as jax/_src/numpy/indexing.py does it (read at jax-ml/jax commit
// 00538d0a, the 0.4/0.5 line; Debian ships no JAX, so this model is checked by golden tests):
// - slices, None and ... follow NumPy (Python's slice.indices; a negative step reverses with
//   lax.rev), a step of 0 is Python's "slice step cannot be zero";
// - an integer out of range is not an error: it is wrapped once if negative and then clamped
//   into the dimension, because the gather runs in PROMISE_IN_BOUNDS mode, which XLA clamps
//   (x[7] on five elements is x[4]); only an integer on a size-0 dimension is refused;
// - too many indices and two ellipses are refused in JAX's own words; without a None the
//   lax.slice fast path checks the count first and names the item types;
// - every list subscript is a TypeError (JAX refuses NumPy's list heuristics outright);
// - lists inside a tuple are index arrays read as NumPy reads them (planNumpyStyle), except that
//   nothing is out of bounds: "for retrieval operations (as in NumPy indexing or gather-like
//   primitives) the index is clamped to the bounds of the array", after one wrap of a negative
//   index (JAX's sharp bits, "Out-of-bounds indexing",
//   https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html); other modes exist
//   only through x.at[idx].get(mode=...) (https://docs.jax.dev/en/latest/_autosummary/
//   jax.Array.at.html: "promise_in_bounds", "clip", "drop", "fill"), which a subscript does not
//   reach.
// lax.slice itself takes start, limit and stride per dimension and refuses negative strides
// (its shape rule: "slice strides must have every element be nonnegative").
#include "core/frameworks/jax_model.h"

#include "core/error.h"
#include "core/frameworks/advanced_index.h"
#include "core/strings.h"

namespace ss {

using namespace frameworks;

namespace {

// What Python's type() prints for each item, for "Multiple ellipses (...) not supported".
std::string typeName(const SubscriptItem& it)
{
    switch (it.kind) {
    case SubscriptItem::Kind::Integer: return "<class 'int'>";
    case SubscriptItem::Kind::Slice: return "<class 'slice'>";
    case SubscriptItem::Kind::NewAxis: return "<class 'NoneType'>";
    default: return "<class 'ellipsis'>";
    }
}

// lax.slice's start, limit and stride for a pick, and whether the dimension must be reversed.
struct LaxRange
{
    std::int64_t start, limit, stride;
    bool reversed;
};
LaxRange laxRange(const AxisPick& p)
{
    if (p.count == 0) return {0, 0, 1, false};
    if (p.count == 1) return {p.first, p.first + 1, 1, false};
    const std::int64_t last = p.first + p.step * (p.count - 1);
    if (p.step > 0) return {p.first, last + 1, p.step, false};
    return {last, p.first + 1, -p.step, true};
}

} // namespace

Framework JaxModel::id() const
{
    return Framework::Jax;
}

std::string_view JaxModel::title() const
{
    return "JAX (jax.numpy)";
}

FrameworkOutcome JaxModel::plan(const IndexSpec& spec, const Tensor& input,
                                const Limits& limits) const
{
    const Framework fw = Framework::Jax;
    if (std::optional<FrameworkOutcome> early = planBeforeItems(*this, spec, input, limits))
        return std::move(*early);
    const Subscript& sub = *spec.subscript;
    const auto& items = sub.items;
    std::vector<Step> steps;
    if (sub.form == Subscript::Form::List) {
        bool tupleHint = false;
        for (const SubscriptItem& it : items)
            tupleHint |=
                it.kind != SubscriptItem::Kind::Integer && it.kind != SubscriptItem::Kind::Bool;
        return errorOutcome(fw, "TypeError",
                            std::string("Using a non-tuple sequence for multidimensional indexing "
                                        "is not allowed; use `arr[") +
                                (tupleHint ? "tuple" : "array") +
                                "(seq)]` instead of `arr[seq]`. See "
                                "https://github.com/jax-ml/jax/issues/4564 for more information.",
                            steps);
    }
    if (const std::string why = unreadableItemReason(items, "JAX"); !why.empty())
        return notModelledOutcome(fw, why, {});
    if (hasArrayItems(items)) return planNumpyStyle(fw, items, input, limits);
    const Shape& shape = input.shape();
    const int rank = int(shape.size());
    const int used = indexedDims(items);
    const bool twoEllipses = ellipsisCount(items) > 1;
    bool anyNone = false;
    for (const SubscriptItem& it : items)
        anyNone |= it.kind == SubscriptItem::Kind::NewAxis;
    const std::string tooMany = "Too many indices: " + num(rank) +
                                "-dimensional array indexed with " + num(used) + " regular " +
                                (used == 1 ? "index" : "indices") + ".";
    if (!anyNone && ellipsisCount(items) > 0) {
        // The lax.slice fast path canonicalises first: the count, then the ellipses.
        if (used > rank) return errorOutcome(fw, "IndexError", tooMany, steps);
        if (twoEllipses) {
            std::string types;
            for (std::size_t k = 0; k < items.size(); ++k)
                types += (k ? ", " : "") + typeName(items[k]);
            return errorOutcome(fw, "IndexError",
                                "Multiple ellipses (...) not supported: [" + types + "].", steps);
        }
    }
    if (twoEllipses)
        return errorOutcome(fw, "IndexError", "an index can only have a single ellipsis ('...')",
                            steps);
    if (used > rank) return errorOutcome(fw, "IndexError", tooMany, steps);

    const std::vector<int> dims = consumedDims(items, rank);
    std::vector<AxisPick> picks = wholePicks(shape);
    bool anyNegativeStep = false;
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        const int dim = dims[k];
        const int item = int(k);
        if (it.kind == SubscriptItem::Kind::Integer) {
            const std::int64_t size = shape[std::size_t(dim)];
            if (size == 0)
                return errorOutcome(fw, "IndexError",
                                    "index is out of bounds for axis " + num(dim) + " with size 0",
                                    steps);
            const std::int64_t v = *it.start;
            std::int64_t at = v < 0 ? v + size : v;
            std::string detail = "An integer picks element ";
            if (at < 0 || at >= size) {
                const std::int64_t clamped = at < 0 ? 0 : size - 1;
                detail = "Index " + num(v) + " is outside axis " + num(dim) + " (size " +
                         num(size) + "). JAX does not raise: " +
                         (v < 0 ? "it adds the size once (" + num(at) + ") and " : "") +
                         "the gather clamps it to " + num(clamped) + ", so this reads element ";
                at = clamped;
            }
            picks[std::size_t(dim)] = {at, 1, 1, true};
            steps.push_back(itemStep(
                "Item " + num(item) + ": " + it.text,
                detail + num(at) + " of axis " + num(dim) + "; the axis is removed.", item, dim));
        } else if (it.kind == SubscriptItem::Kind::Slice) {
            const std::int64_t size = shape[std::size_t(dim)];
            const std::int64_t step = it.step.value_or(1);
            if (step == 0)
                return errorOutcome(fw, "ValueError", "slice step cannot be zero", steps);
            anyNegativeStep |= step < 0;
            const PythonSlice s = pythonSliceIndices(it.start, it.stop, step, size);
            picks[std::size_t(dim)] = {s.start, step, s.count, false};
            steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                     "As in NumPy: start " + num(s.start) + ", stop " +
                                         num(s.stop) + ", step " + num(step) + ": " + num(s.count) +
                                         (s.count == 1 ? " element" : " elements") + " of axis " +
                                         num(dim) + (step < 0 ? " (a gather, then lax.rev)." : "."),
                                     item, dim));
        } else if (it.kind == SubscriptItem::Kind::NewAxis) {
            steps.push_back(itemStep("Item " + num(item) + ": None",
                                     "None inserts an axis of size 1 (lax.expand_dims).", item,
                                     -1));
        }
    }
    std::vector<std::int64_t> starts, limitsV, strides;
    for (const AxisPick& p : picks) {
        const LaxRange r = laxRange(p);
        starts.push_back(r.start);
        limitsV.push_back(r.limit);
        strides.push_back(r.stride);
    }
    steps.push_back({"lax.slice",
                     anyNegativeStep
                         ? "lax.slice takes no negative stride (TypeError: slice strides must "
                           "have every element be nonnegative), so the lax form slices forward "
                           "over the same elements, lax.slice(x, " +
                               shapeTuple(starts) + ", " + shapeTuple(limitsV) + ", " +
                               shapeTuple(strides) + "), and reverses with lax.rev."
                         : "The same elements with lax: lax.slice(x, " + shapeTuple(starts) + ", " +
                               shapeTuple(limitsV) + ", " + shapeTuple(strides) +
                               "), then lax.squeeze for the integers and lax.expand_dims for "
                               "None.",
                     {}});
    return resultOutcome(fw, input, std::move(picks), basicLayout(items, rank), std::move(steps),
                         limits);
}

std::string JaxModel::code(const IndexSpec& spec, const std::optional<Shape>& shape) const
{
    if (!spec.subscript)
        invalidArgument("no Python subscript expresses these strided_slice arguments: " +
                        spec.noSubscriptReason);
    const Subscript& sub = *spec.subscript;
    const std::string text = sub.form == Subscript::Form::List
                                 ? std::string()
                                 : subscriptText(sub.items, sub.form == Subscript::Form::Tuple);
    std::string out = "import jax.numpy as jnp\nfrom jax import lax\n\n";
    if (sub.form == Subscript::Form::List)
        invalidArgument("JAX refuses a list subscript (TypeError: Using a non-tuple sequence for "
                        "multidimensional indexing is not allowed)");
    if (shape && hasArrayItems(sub.items)) {
        out += "# Index arrays: jax.numpy gathers (lax.gather); an index outside an axis is "
               "clamped, not an error.\n";
    } else if (shape) {
        // lax needs concrete start/limit/stride, so it is written for this shape.
        const Shape& s = *shape;
        // The picks do not depend on the values: plan on an uninitialised stand-in.
        const FrameworkOutcome o =
            plan(spec, Tensor::empty(DType::Bool, s, Limits::machineDefault()),
                 Limits::machineDefault());
        if (o.kind == FrameworkOutcome::Kind::Result) {
            std::vector<std::int64_t> starts, limitsV, strides, rev, squeeze, expand;
            for (std::size_t k = 0; k < o.picks.size(); ++k) {
                const LaxRange r = laxRange(o.picks[k]);
                starts.push_back(r.start);
                limitsV.push_back(r.limit);
                strides.push_back(r.stride);
                if (r.reversed) rev.push_back(std::int64_t(k));
                if (o.picks[k].removed) squeeze.push_back(std::int64_t(k));
            }
            for (std::size_t k = 0; k < o.outputDims.size(); ++k)
                if (o.outputDims[k] < 0) expand.push_back(std::int64_t(k));
            std::string lax = "lax.slice(x, " + shapeTuple(starts) + ", " + shapeTuple(limitsV) +
                              ", " + shapeTuple(strides) + ")";
            if (!rev.empty()) lax = "lax.rev(" + lax + ", " + shapeTuple(rev) + ")";
            if (!squeeze.empty()) lax = "lax.squeeze(" + lax + ", " + shapeTuple(squeeze) + ")";
            if (!expand.empty()) lax = "lax.expand_dims(" + lax + ", " + shapeTuple(expand) + ")";
            out += "# With lax, for an input of shape " + shapeTuple(s) +
                   " (strides must be positive, so reversed dimensions use lax.rev):\n";
            out += "y_lax = " + lax + "\n";
        } else {
            out += "# No lax form: jax.numpy raises " + o.errorType + " here.\n";
        }
        out += "# jax.numpy indexing:\n";
    }
    return out + text + "\n";
}

} // namespace ss
