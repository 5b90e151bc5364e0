// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy 1.24 (Debian 12's python3-numpy) basic indexing, in the order numpy/core/src/multiarray/
// mapping.c checks it: two ellipses while the index is read, then too many indices, then each
// item in order (an integer out of bounds, a slice with step 0).
// Lists and bools are advanced indexing (planAdvanced below), in the order mapping.c's
// prepare_index, get_view_from_index and the map iterator check it.
#include "core/frameworks/numpy_model.h"

#include "core/error.h"
#include "core/frameworks/advanced_index.h"

#include <algorithm>

namespace ss {

using namespace frameworks;

namespace {

std::string num(std::int64_t v)
{
    return std::to_string(v);
}

std::string shapeOf(const SubscriptItem& it)
{
    return shapeTuple(it.arrayShape);
}

// NumPy 1.24's advanced indexing: every list is an index array (a list of bools a mask, read as
// nonzero()), a bool is a 0-d mask that adds an axis of 1 (True) or 0 (False) entries, and once
// there is an index array the integers join the arrays for the placement rule.
FrameworkOutcome planAdvanced(const std::vector<SubscriptItem>& items, const Tensor& input,
                              const Limits& limits)
{
    const Framework fw = Framework::NumPy;
    const Shape& shape = input.shape();
    const int rank = int(shape.size());
    std::vector<Step> steps;
    // prepare_index: one ellipsis, then the count of dimensions the index uses.
    int used = 0, ellipses = 0;
    for (const SubscriptItem& it : items) {
        switch (it.kind) {
        case SubscriptItem::Kind::Ellipsis:
            if (++ellipses > 1)
                return errorOutcome(fw, "IndexError",
                                    "an index can only have a single ellipsis ('...')", steps);
            break;
        case SubscriptItem::Kind::IndexArray:
            used += it.arrayIsBool ? int(it.arrayShape.size()) : 1;
            break;
        case SubscriptItem::Kind::Integer:
        case SubscriptItem::Kind::Slice: ++used; break;
        default: break;
        }
    }
    if (used > rank)
        return errorOutcome(fw, "IndexError",
                            "too many indices for array: array is " + num(rank) +
                                "-dimensional, but " + num(used) + " were indexed",
                            steps);
    const int ellipsisDims = rank - used;
    // The dimension each item starts at.
    std::vector<int> firstDim;
    int endDim = 0;
    {
        int& dim = endDim;
        for (const SubscriptItem& it : items) {
            firstDim.push_back(dim);
            if (it.kind == SubscriptItem::Kind::Ellipsis)
                dim += ellipsisDims;
            else if (it.kind == SubscriptItem::Kind::IndexArray)
                dim += it.arrayIsBool ? int(it.arrayShape.size()) : 1;
            else if (it.kind == SubscriptItem::Kind::Integer ||
                     it.kind == SubscriptItem::Kind::Slice)
                ++dim;
        }
    }
    // A mask must match the dimensions it covers.
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        if (it.kind != SubscriptItem::Kind::IndexArray || !it.arrayIsBool) continue;
        for (std::size_t j = 0; j < it.arrayShape.size(); ++j) {
            const int dim = firstDim[k] + int(j);
            if (it.arrayShape[j] != shape[std::size_t(dim)])
                return errorOutcome(
                    fw, "IndexError",
                    "boolean index did not match indexed array along dimension " + num(dim) +
                        "; dimension is " + num(shape[std::size_t(dim)]) +
                        " but corresponding boolean dimension is " + num(it.arrayShape[j]),
                    steps);
        }
    }
    // get_view_from_index: integers and slices, left to right.
    GatherSpec g;
    g.picks = wholePicks(shape);
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        const int dim = firstDim[k];
        const int item = int(k);
        if (it.kind == SubscriptItem::Kind::Integer) {
            const std::int64_t size = shape[std::size_t(dim)];
            const std::int64_t v = *it.start;
            if (v < -size || v >= size)
                return errorOutcome(fw, "IndexError",
                                    "index " + num(v) + " is out of bounds for axis " + num(dim) +
                                        " with size " + num(size),
                                    steps);
            const std::int64_t at = v < 0 ? v + size : v;
            g.picks[std::size_t(dim)] = {at, 1, 1, true};
            steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                     "An integer picks element " + num(at) + " of axis " +
                                         num(dim) +
                                         "; the axis is removed. Beside index arrays it counts "
                                         "as one for where their dimensions go.",
                                     item, dim));
        } else if (it.kind == SubscriptItem::Kind::Slice) {
            const std::int64_t size = shape[std::size_t(dim)];
            const std::int64_t step = it.step.value_or(1);
            if (step == 0)
                return errorOutcome(fw, "ValueError", "slice step cannot be zero", steps);
            const PythonSlice s = pythonSliceIndices(it.start, it.stop, step, size);
            g.picks[std::size_t(dim)] = {s.start, step, s.count, false};
            steps.push_back(itemStep(
                "Item " + num(item) + ": " + it.text,
                "slice.indices(" + num(size) + ") gives start " + num(s.start) + ", stop " +
                    num(s.stop) + ", step " + num(step) + ": " + num(s.count) +
                    (s.count == 1 ? " element" : " elements") + " of axis " + num(dim) + ".",
                item, dim));
        }
    }
    // The index arrays (a mask becomes one array per dimension), and the placement rule: the
    // arrays and integers stay where they are only when nothing else stands between them.
    int consec = -1; // -1: none yet, 0: in the run, 1: run ended, 2: split
    int blockAt = 0, resultDims = 0;
    std::vector<Shape> shapesForMessage;
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        const int dim = firstDim[k];
        const int item = int(k);
        const bool fancy = it.kind == SubscriptItem::Kind::IndexArray ||
                           it.kind == SubscriptItem::Kind::Bool ||
                           it.kind == SubscriptItem::Kind::Integer;
        if (fancy) {
            if (consec == -1) {
                consec = 0;
                blockAt = resultDims;
            } else if (consec == 1) {
                consec = 2;
            }
        } else if (consec == 0) {
            consec = 1;
        }
        switch (it.kind) {
        case SubscriptItem::Kind::Slice:
            g.layout.push_back(dim);
            ++resultDims;
            break;
        case SubscriptItem::Kind::NewAxis:
            g.layout.push_back(-1);
            ++resultDims;
            steps.push_back(itemStep("Item " + num(item) + ": None",
                                     "None inserts an axis of size 1.", item, -1));
            break;
        case SubscriptItem::Kind::Ellipsis:
            for (int d = 0; d < ellipsisDims; ++d)
                g.layout.push_back(dim + d);
            resultDims += ellipsisDims;
            steps.push_back(itemStep(
                "Item " + num(item) + ": ...",
                "The ellipsis stands for " + num(ellipsisDims) + " whole axes.", item, -1));
            break;
        case SubscriptItem::Kind::Bool: {
            // A 0-d mask: a new axis, indexed by [0] (True) or by nothing (False).
            IndexArray a;
            a.shape = {it.boolValue ? 1 : 0};
            a.values.assign(std::size_t(a.shape[0]), 0);
            a.label = it.text;
            shapesForMessage.push_back(a.shape);
            g.arrays.push_back(std::move(a));
            steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                     std::string("A bool is a 0-d mask: it adds an index "
                                                 "dimension of ") +
                                         (it.boolValue ? "1 entry" : "0 entries") +
                                         " and reads no axis.",
                                     item, -1));
            break;
        }
        case SubscriptItem::Kind::IndexArray: {
            if (it.arrayIsBool) {
                const auto nz = nonzeroIndices(it.arrayShape, it.arrayValues);
                const std::int64_t count = nz.empty() ? 0 : std::int64_t(nz[0].size());
                for (std::size_t j = 0; j < nz.size(); ++j) {
                    IndexArray a;
                    a.shape = {count};
                    a.values = nz[j];
                    a.dim = dim + int(j);
                    a.label = "nonzero(item " + num(item) + ")[" + num(std::int64_t(j)) + "]";
                    shapesForMessage.push_back(a.shape);
                    g.arrays.push_back(std::move(a));
                }
                Step s = itemStep("Item " + num(item) + ": " + it.text,
                                  "A boolean mask of shape " + shapeOf(it) + " over axes " +
                                      num(dim) + " to " + num(dim + int(it.arrayShape.size()) - 1) +
                                      ": it is read as nonzero(), " + num(count) +
                                      " true positions, one index array per axis it covers.",
                                  item, dim);
                for (int j = 1; j < int(it.arrayShape.size()); ++j)
                    s.inputDims.push_back(dim + j);
                steps.push_back(std::move(s));
            } else {
                IndexArray a;
                a.shape = it.arrayShape;
                a.values = it.arrayValues;
                a.dim = dim;
                a.label = "idx" + num(item);
                shapesForMessage.push_back(a.shape);
                steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                         "An index array " + a.label + " of shape " + shapeOf(it) +
                                             " reads axis " + num(dim) + " (size " +
                                             num(shape[std::size_t(dim)]) + ").",
                                         item, dim));
                g.arrays.push_back(std::move(a));
            }
            break;
        }
        default: break;
        }
    }
    // The dimensions after the last item (NumPy's implied trailing ellipsis).
    for (int d = endDim; d < rank; ++d)
        g.layout.push_back(d);
    const bool split = consec == 2;
    g.layout.insert(g.layout.begin() + (split ? 0 : blockAt), kBlock);
    if (!broadcastShapes(shapesForMessage)) {
        std::string text;
        for (const Shape& s : shapesForMessage)
            text += numpyShapeText(s) + " ";
        return errorOutcome(fw, "IndexError",
                            "shape mismatch: indexing arrays could not be broadcast together "
                            "with shapes " +
                                text,
                            steps);
    }
    // The map iterator checks the indices only when it reads something: an empty result (an
    // empty slice, a size-0 axis, index arrays that broadcast to no positions) checks none.
    bool empty = numElements(*broadcastShapes(shapesForMessage)) == 0;
    for (int d : g.layout)
        empty |= d >= 0 && g.picks[std::size_t(d)].count == 0;
    const bool check = !empty;
    for (IndexArray& a : g.arrays) {
        if (a.dim < 0) continue;
        const std::int64_t size = shape[std::size_t(a.dim)];
        for (std::int64_t& v : a.values) {
            if (!check && (v < -size || v >= size)) {
                v = 0; // never read: the result is empty
                continue;
            }
            if (v < -size || v >= size)
                return errorOutcome(fw, "IndexError",
                                    "index " + num(v) + " is out of bounds for axis " + num(a.dim) +
                                        " with size " + num(size),
                                    steps);
            if (v < 0) v += size;
        }
    }
    const std::string placement =
        split ? "The index arrays (and integers) are separated by a slice, None or ..., so "
                "their dimensions go first, before every sliced dimension."
              : "The index arrays (and integers) stand next to each other, so their dimensions "
                "replace them in place, after " +
                    num(blockAt) + (blockAt == 1 ? " dimension." : " dimensions.");
    return gatherOutcome(fw, input, g, placement, std::move(steps), limits);
}

} // namespace

Framework NumpyModel::id() const
{
    return Framework::NumPy;
}

std::string_view NumpyModel::title() const
{
    return "NumPy 1.24";
}

FrameworkOutcome NumpyModel::plan(const IndexSpec& spec, const Tensor& input,
                                  const Limits& limits) const
{
    const Framework fw = Framework::NumPy;
    if (!spec.subscript) return notModelledOutcome(fw, spec.noSubscriptMessage(), {});
    const Subscript& sub = *spec.subscript;
    if (sub.form == Subscript::Form::List) {
        // NumPy 1.23 and later read every list subscript as one index array.
        const std::vector<SubscriptItem> whole{*sub.wholeList};
        if (const std::string why = unreadableItemReason(whole, "NumPy"); !why.empty())
            return notModelledOutcome(fw, why, {});
        return planAdvanced(whole, input, limits);
    }
    if (const std::string why = unreadableItemReason(sub.items, "NumPy"); !why.empty())
        return notModelledOutcome(fw, why, {});
    if (hasArrayItems(sub.items)) return planAdvanced(sub.items, input, limits);
    const auto& items = sub.items;
    const Shape& shape = input.shape();
    const int rank = int(shape.size());
    std::vector<Step> steps;
    if (ellipsisCount(items) > 1)
        return errorOutcome(fw, "IndexError", "an index can only have a single ellipsis ('...')",
                            steps);
    const int used = indexedDims(items);
    if (used > rank)
        return errorOutcome(fw, "IndexError",
                            "too many indices for array: array is " + num(rank) +
                                "-dimensional, but " + num(used) + " were indexed",
                            steps);
    const std::vector<int> dims = consumedDims(items, rank);
    std::vector<AxisPick> picks = wholePicks(shape);
    for (std::size_t k = 0; k < items.size(); ++k) {
        const SubscriptItem& it = items[k];
        const int dim = dims[k];
        const int item = int(k);
        if (it.kind == SubscriptItem::Kind::Integer) {
            const std::int64_t size = shape[std::size_t(dim)];
            const std::int64_t v = *it.start;
            if (v < -size || v >= size)
                return errorOutcome(fw, "IndexError",
                                    "index " + num(v) + " is out of bounds for axis " + num(dim) +
                                        " with size " + num(size),
                                    steps);
            const std::int64_t at = v < 0 ? v + size : v;
            picks[std::size_t(dim)] = {at, 1, 1, true};
            steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                     "An integer picks element " + num(at) + " of axis " +
                                         num(dim) + " (size " + num(size) + ")" +
                                         (v < 0 ? ", counting from the end" : "") +
                                         "; the axis is removed.",
                                     item, dim));
        } else if (it.kind == SubscriptItem::Kind::Slice) {
            const std::int64_t size = shape[std::size_t(dim)];
            const std::int64_t step = it.step.value_or(1);
            if (step == 0)
                return errorOutcome(fw, "ValueError", "slice step cannot be zero", steps);
            const PythonSlice s = pythonSliceIndices(it.start, it.stop, step, size);
            picks[std::size_t(dim)] = {s.start, step, s.count, false};
            steps.push_back(
                itemStep("Item " + num(item) + ": " + it.text,
                         "slice.indices(" + num(size) + ") gives start " + num(s.start) +
                             ", stop " + num(s.stop) + ", step " + num(step) +
                             " (negative values count from the end, then clamp to " +
                             (step < 0 ? "[-1, " + num(size - 1) + "]" : "[0, " + num(size) + "]") +
                             "): " + num(s.count) + (s.count == 1 ? " element" : " elements") +
                             " of axis " + num(dim) + ".",
                         item, dim));
        } else if (it.kind == SubscriptItem::Kind::NewAxis) {
            steps.push_back(itemStep("Item " + num(item) + ": None",
                                     "None inserts an axis of size 1.", item, -1));
        } else {
            steps.push_back(itemStep("Item " + num(item) + ": ...",
                                     "The ellipsis stands for " + num(std::max(0, rank - used)) +
                                         " whole axes.",
                                     item, -1));
        }
    }
    return resultOutcome(fw, input, std::move(picks), basicLayout(items, rank), std::move(steps),
                         limits);
}

std::string NumpyModel::code(const IndexSpec& spec, const std::optional<Shape>&) const
{
    if (!spec.subscript)
        invalidArgument("no NumPy subscript expresses these strided_slice arguments: " +
                        spec.noSubscriptReason);
    const Subscript& sub = *spec.subscript;
    std::string text;
    if (sub.form == Subscript::Form::List) {
        text = "x[[";
        for (std::size_t k = 0; k < sub.items.size(); ++k)
            text += (k ? ", " : "") + itemText(sub.items[k]);
        text += "]]";
    } else {
        text = subscriptText(sub.items, sub.form == Subscript::Form::Tuple);
    }
    return "import numpy as np\n\n" + text + "\n";
}

} // namespace ss
