// SPDX-License-Identifier: GPL-3.0-or-later
// NumPy 1.24 (Debian 12's python3-numpy) basic indexing, in the order numpy/core/src/multiarray/
// mapping.c checks it: two ellipses while the index is read, then too many indices, then each
// item in order (an integer out of bounds, a slice with step 0).
// Lists and bools are advanced indexing (planNumpyStyle in advanced_index.cpp), in the order
// mapping.c's prepare_index, get_view_from_index and the map iterator check it.
#include "core/frameworks/numpy_model.h"

#include "core/error.h"
#include "core/frameworks/advanced_index.h"
#include "core/strings.h"

#include <algorithm>

namespace ss {

using namespace frameworks;

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
    if (std::optional<FrameworkOutcome> early = planBeforeItems(*this, spec, input, limits))
        return std::move(*early);
    const Subscript& sub = *spec.subscript;
    if (sub.form == Subscript::Form::List) {
        // NumPy 1.23 and later read every list subscript as one index array.
        const std::vector<SubscriptItem> whole{*sub.wholeList};
        if (const std::string why = unreadableItemReason(whole, "NumPy"); !why.empty())
            return notModelledOutcome(fw, why, {});
        return planNumpyStyle(Framework::NumPy, whole, input, limits);
    }
    if (const std::string why = unreadableItemReason(sub.items, "NumPy"); !why.empty())
        return notModelledOutcome(fw, why, {});
    if (hasArrayItems(sub.items)) return planNumpyStyle(Framework::NumPy, sub.items, input, limits);
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
