// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/advanced_index.h"

#include "core/error.h"
#include "core/plan.h"
#include "core/strings.h"

#include <algorithm>
#include <compare>
#include <optional>
#include <type_traits>
#include <utility>

namespace ss::frameworks {

namespace {

// The element of `a` that broadcast coordinate `coord` (of a shape of rank `rank`) reads.
std::int64_t arrayOffset(const IndexArray& a, const std::vector<std::int64_t>& coord)
{
    const std::size_t r = a.shape.size();
    const std::size_t lead = coord.size() - r;
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < r; ++k)
        offset = offset * a.shape[k] + (a.shape[k] == 1 ? 0 : coord[lead + k]);
    return offset;
}

std::string shapeOf(const SubscriptItem& it)
{
    return shapeTuple(it.arrayShape);
}

// NumPy 1.24's advanced indexing: every list is an index array (a list of bools a mask, read as
// nonzero()), a bool is a 0-d mask that adds an axis of 1 (True) or 0 (False) entries, and once
// there is an index array the integers join the arrays for the placement rule.

} // namespace

std::optional<Shape> broadcastShapes(const std::vector<Shape>& shapes)
{
    std::size_t rank = 0;
    for (const Shape& s : shapes)
        rank = std::max(rank, s.size());
    Shape out(rank, 1);
    for (const Shape& s : shapes) {
        const std::size_t lead = rank - s.size();
        for (std::size_t k = 0; k < s.size(); ++k) {
            std::int64_t& o = out[lead + k];
            if (s[k] == o || s[k] == 1) continue;
            if (o != 1) return std::nullopt;
            o = s[k];
        }
    }
    return out;
}

std::string numpyShapeText(const Shape& shape)
{
    std::string t = "(";
    for (std::size_t k = 0; k < shape.size(); ++k)
        t += (k ? "," : "") + num(shape[k]);
    return t + (shape.size() == 1 ? ",)" : ")");
}

std::vector<std::vector<std::int64_t>> nonzeroIndices(const Shape& shape,
                                                      const std::vector<std::int64_t>& mask)
{
    std::vector<std::vector<std::int64_t>> out(shape.size());
    std::vector<std::int64_t> coord(shape.size(), 0);
    for (std::int64_t v : mask) {
        if (v)
            for (std::size_t k = 0; k < shape.size(); ++k)
                out[k].push_back(coord[k]);
        for (std::size_t k = shape.size(); k-- > 0;) {
            if (++coord[k] < shape[k]) break;
            coord[k] = 0;
        }
    }
    return out;
}

FrameworkOutcome gatherOutcome(Framework framework, const Tensor& input, const GatherSpec& spec,
                               const std::string& placement, std::vector<Step> steps,
                               const Limits& limits)
{
    const Shape& inShape = input.shape();
    if (spec.picks.size() != inShape.size())
        throw OpError(ErrorCode::Internal,
                      "an advanced index planned " + num(std::int64_t(spec.picks.size())) +
                          " dimensions for an input of rank " + num(std::int64_t(inShape.size())));
    std::vector<Shape> shapes;
    for (const IndexArray& a : spec.arrays)
        shapes.push_back(a.shape);
    const std::optional<Shape> block = broadcastShapes(shapes);
    if (!block) throw OpError(ErrorCode::Internal, "index arrays that do not broadcast");
    int blockAt = -1;
    Shape outShape;
    std::vector<int> outputDims;
    for (int d : spec.layout) {
        if (d == kBlock) {
            blockAt = int(outShape.size());
            for (std::int64_t e : *block) {
                outShape.push_back(e);
                outputDims.push_back(-1);
            }
        } else {
            outShape.push_back(d < 0 ? 1 : spec.picks[std::size_t(d)].count);
            outputDims.push_back(d);
        }
    }
    if (outShape.size() > std::size_t(kMaxRank))
        return notModelledOutcome(
            framework,
            "The result would have rank " + num(std::int64_t(outShape.size())) +
                "; SliceScope holds tensors of rank 0 to " + num(kMaxRank) + ".",
            std::move(steps));
    limits.check(outShape, input.dtype(), "the output");
    const std::int64_t total = numElements(outShape);
    // An empty result reads nothing, so its indices need not lie inside the input.
    for (const IndexArray& a : spec.arrays) {
        const std::int64_t size = a.dim >= 0 ? inShape[std::size_t(a.dim)] : 1;
        for (std::int64_t v : a.values)
            if (total > 0 && (v < 0 || v >= size))
                throw OpError(ErrorCode::Internal,
                              "an advanced index reads outside dimension " + num(a.dim));
    }

    // Broadcast and placement, as the decode steps tell them.
    {
        std::string text;
        for (const IndexArray& a : spec.arrays)
            text += (text.empty() ? "" : ", ") + a.label + " " + shapeTuple(a.shape);
        Step s{"Broadcast the index arrays",
               (spec.arrays.size() == 1 ? "One index array, " + text + ": its shape is "
                                        : "The index arrays " + text + " broadcast to ") +
                   shapeTuple(*block) + ".",
               {}};
        for (const IndexArray& a : spec.arrays)
            if (a.dim >= 0) s.inputDims.push_back(a.dim);
        steps.push_back(std::move(s));
        Step p{"Where the index dimensions go",
               placement + " The result has shape " + shapeTuple(outShape) + ".",
               {}};
        for (std::size_t k = 0; k < block->size(); ++k)
            p.outputDims.push_back(blockAt + int(k));
        steps.push_back(std::move(p));
    }

    // The plan's memory is charged before it is made, as the core ops' row lists are: an offset
    // per position of the broadcast index arrays, and a source per result element. Index arrays
    // of a few kilobytes of text broadcast to 10^9 positions; uncharged, these lists took every
    // byte of the machine whatever --max-bytes said.
    if (total > 0) {
        limits.reserve(*block, DType::Int64, "the offset list of the broadcast index arrays");
        limits.reserve(outShape, DType::Int64, "the row list");
    }

    // Per result dimension the offsets each coordinate adds; the index dimensions are one
    // dimension here whose offsets come from every array at once.
    const auto inStrides = rowMajorStrides(inShape);
    std::int64_t base = 0;
    for (std::size_t d = 0; d < spec.picks.size(); ++d)
        if (spec.picks[d].removed) base += spec.picks[d].first * inStrides[d];
    std::vector<std::vector<std::int64_t>> offsets;
    std::vector<std::int64_t> blockCoord(block->size(), 0);
    for (int d : spec.layout) {
        std::vector<std::int64_t> o;
        if (d == kBlock) {
            const std::int64_t n = total == 0 ? 0 : numElements(*block);
            o.reserve(std::size_t(n));
            std::fill(blockCoord.begin(), blockCoord.end(), 0);
            for (std::int64_t b = 0; b < n; ++b) {
                std::int64_t off = 0;
                for (const IndexArray& a : spec.arrays)
                    if (a.dim >= 0)
                        off += a.values[std::size_t(arrayOffset(a, blockCoord))] *
                               inStrides[std::size_t(a.dim)];
                o.push_back(off);
                for (std::size_t k = block->size(); k-- > 0;) {
                    if (++blockCoord[k] < (*block)[k]) break;
                    blockCoord[k] = 0;
                }
            }
        } else if (d < 0) {
            o.push_back(0);
        } else {
            const AxisPick& p = spec.picks[std::size_t(d)];
            for (std::int64_t i = 0; i < p.count && total > 0; ++i)
                o.push_back((p.first + p.step * i) * inStrides[std::size_t(d)]);
        }
        offsets.push_back(std::move(o));
    }
    RowsPiece piece;
    piece.rowLength = 1;
    piece.rows.reserve(std::size_t(total));
    if (total > 0) {
        std::vector<std::size_t> at(offsets.size(), 0);
        for (std::int64_t e = 0; e < total; ++e) {
            std::int64_t src = base;
            for (std::size_t m = 0; m < offsets.size(); ++m)
                src += offsets[m][at[m]];
            piece.rows.push_back(packSource(0, src));
            for (std::size_t m = offsets.size(); m-- > 0;) {
                if (++at[m] < offsets[m].size()) break;
                at[m] = 0;
            }
        }
    }

    // One worked element: the last position of the index dimensions.
    std::string example;
    if (total > 0 && !spec.arrays.empty() && numElements(*block) > 0) {
        std::vector<std::int64_t> last(block->begin(), block->end());
        for (std::int64_t& v : last)
            --v;
        for (const IndexArray& a : spec.arrays) {
            if (a.dim < 0) continue;
            std::vector<std::int64_t> own;
            for (std::size_t k = 0; k < a.shape.size(); ++k)
                own.push_back(a.shape[k] == 1 ? 0 : last[last.size() - a.shape.size() + k]);
            example += (example.empty() ? "" : " and ") + std::string("element ") +
                       num(a.values[std::size_t(arrayOffset(a, last))]) + " of axis " + num(a.dim) +
                       " (" + a.label + listText(own) + ")";
        }
        if (!example.empty())
            example = " Index position " + listText(last) + " takes " + example + ".";
    }
    Step read{"Read the elements",
              "Each element of the result takes its index dimensions' position from every "
              "index array at once, and its other dimensions from the slices." +
                  example + " " + num(total) + (total == 1 ? " element is" : " elements are") +
                  " read, in the result's order.",
              {}};
    for (int k = 0; k < int(inShape.size()); ++k)
        read.inputDims.push_back(k);
    for (int k = 0; k < int(outShape.size()); ++k)
        read.outputDims.push_back(k);
    steps.push_back(std::move(read));

    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = outShape;
    out.pieces.push_back(std::move(piece));
    FrameworkOutcome o;
    o.framework = framework;
    o.kind = FrameworkOutcome::Kind::Result;
    o.plan.steps = std::move(steps);
    o.plan.outputs.push_back(std::move(out));
    o.outputDims = std::move(outputDims);
    // What a hover explains each element from: the arrays themselves, unless they are large
    // (a mask of a big tensor), where the per-element sources still say where each came from.
    std::int64_t values = 0;
    for (const IndexArray& a : spec.arrays)
        values += std::int64_t(a.values.size());
    if (values <= kExplainedIndexValues) {
        Attr::List arrays;
        for (const IndexArray& a : spec.arrays)
            arrays.push_back(Attr(Attr::Map{{"name", Attr(a.label)},
                                            {"dim", Attr(std::int64_t(a.dim))},
                                            {"shape", Attr::ints(a.shape)},
                                            {"values", Attr::ints(a.values)}}));
        o.plan.extras.emplace_back(kIndexArraysExtra,
                                   Attr(Attr::Map{{"broadcast", Attr::ints(*block)},
                                                  {"position", Attr(std::int64_t(blockAt))},
                                                  {"rank", Attr(std::int64_t(inShape.size()))},
                                                  {"arrays", Attr(std::move(arrays))}}));
    }
    return o;
}

namespace {

const Attr* mapMember(const Attr& map, const char* name)
{
    if (!map.isMap()) return nullptr;
    for (const auto& [key, value] : map.toMap())
        if (key == name) return &value;
    return nullptr;
}

std::optional<std::vector<std::int64_t>> intsOf(const Attr* a)
{
    if (!a || !a->isList()) return std::nullopt;
    std::vector<std::int64_t> v;
    for (const Attr& e : a->toList()) {
        if (!e.isInt()) return std::nullopt;
        v.push_back(e.toInt());
    }
    return v;
}

} // namespace

std::string explainIndexArrays(const Attr& extra, const Shape& outShape, std::int64_t flat)
{
    const auto block = intsOf(mapMember(extra, "broadcast"));
    const Attr* position = mapMember(extra, "position");
    const Attr* rankAttr = mapMember(extra, "rank");
    const Attr* arrays = mapMember(extra, "arrays");
    if (!block || !position || !position->isInt() || !rankAttr || !rankAttr->isInt() || !arrays ||
        !arrays->isList())
        return {};
    const std::int64_t at = position->toInt();
    const std::int64_t total = numElements(outShape);
    if (flat < 0 || flat >= total || at < 0 ||
        at + std::int64_t(block->size()) > std::int64_t(outShape.size()))
        return {};
    // The element's coordinates, and among them its place in the broadcast index dimensions.
    std::vector<std::int64_t> coord(outShape.size(), 0);
    for (std::size_t k = outShape.size(), rest = std::size_t(flat); k-- > 0;) {
        coord[k] = std::int64_t(rest % std::size_t(outShape[k]));
        rest /= std::size_t(outShape[k]);
    }
    const std::vector<std::int64_t> b(coord.begin() + at,
                                      coord.begin() + at + std::int64_t(block->size()));
    const std::int64_t rank = rankAttr->toInt();
    std::string takes;
    for (const Attr& entry : arrays->toList()) {
        const Attr* name = mapMember(entry, "name");
        const Attr* dim = mapMember(entry, "dim");
        const auto shape = intsOf(mapMember(entry, "shape"));
        const auto values = intsOf(mapMember(entry, "values"));
        if (!name || !name->isString() || !dim || !dim->isInt() || !shape || !values ||
            shape->size() > b.size())
            return {};
        if (dim->toInt() < 0) continue; // a 0-d bool: it adds an axis, it reads nothing
        IndexArray a;
        a.shape = *shape;
        a.values = *values;
        const std::int64_t offset = arrayOffset(a, b);
        if (offset < 0 || offset >= std::int64_t(values->size())) return {};
        std::vector<std::int64_t> own;
        for (std::size_t k = 0; k < shape->size(); ++k)
            own.push_back((*shape)[k] == 1 ? 0 : b[b.size() - shape->size() + k]);
        const std::string entryText =
            name->toString() + listText(own) + " = " + num((*values)[std::size_t(offset)]);
        takes += (takes.empty() ? "" : " and ") +
                 (rank == 2 ? (dim->toInt() == 0 ? "row " : "column ") + entryText
                            : entryText + " on axis " + num(dim->toInt()));
    }
    if (takes.empty()) return {};
    const std::size_t count = arrays->toList().size();
    return (count == 1 ? "the index array has shape " : "the index arrays broadcast to ") +
           shapeTuple(*block) + "; element " + listText(b) + " takes " + takes;
}

std::string unreadableItemReason(const std::vector<SubscriptItem>& items, const std::string& who)
{
    for (const SubscriptItem& it : items) {
        if (it.kind == SubscriptItem::Kind::Other)
            return who + " reads " + it.text +
                   " as something other than an index (only integers, slices, None, ..., bools "
                   "and rectangular lists of integers or bools are modelled).";
        if (it.kind == SubscriptItem::Kind::Slice && !it.invalidMessage.empty())
            return who + " is only modelled for integer slice bounds, not " + it.text + ".";
    }
    return {};
}

FrameworkOutcome planNumpyStyle(Framework fw, const std::vector<SubscriptItem>& items,
                                const Tensor& input, const Limits& limits)
{
    const bool jax = fw == Framework::Jax;
    const Shape& shape = input.shape();
    const int rank = int(shape.size());
    std::vector<Step> steps;
    if (jax) {
        // Where JAX releases disagree, SliceScope says so rather than pick one: a bool
        // scalar (an axis of arange(0 or 1) in recent releases, counted as an index in older
        // ones), and a mask beside other index arrays, which recent releases leave out of the
        // test for adjacent index arrays.
        int advanced = 0;
        bool mask = false;
        for (const SubscriptItem& it : items) {
            if (it.kind == SubscriptItem::Kind::Bool)
                return notModelledOutcome(fw,
                                          "JAX releases read a bool beside index arrays "
                                          "differently (an index in the 0.4 line, an axis of "
                                          "arange(int(b)) later); SliceScope does not model it.",
                                          steps);
            advanced += it.kind == SubscriptItem::Kind::IndexArray ||
                        it.kind == SubscriptItem::Kind::Integer;
            mask |= it.kind == SubscriptItem::Kind::IndexArray && it.arrayIsBool;
        }
        if (mask && advanced > 1)
            return notModelledOutcome(
                fw,
                "JAX releases place the index dimensions differently when a boolean mask stands "
                "beside other index arrays or integers (recent ones leave the mask out of the "
                "adjacency test); SliceScope does not model it.",
                steps);
    }
    // prepare_index: one ellipsis, then the count of dimensions the index uses.
    int used = 0, ellipses = 0;
    for (const SubscriptItem& it : items) {
        switch (it.kind) {
        case SubscriptItem::Kind::Ellipsis:
            if (++ellipses > 1 && !jax)
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
    if (jax && ellipses > 1)
        return errorOutcome(fw, "IndexError", "an index can only have a single ellipsis ('...')",
                            steps);
    if (used > rank)
        return errorOutcome(fw, "IndexError",
                            jax ? "Too many indices: " + num(rank) +
                                      "-dimensional array indexed with " + num(used) + " regular " +
                                      (used == 1 ? "index" : "indices") + "."
                                : "too many indices for array: array is " + num(rank) +
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
        if (jax) {
            // _expand_bool_indices: every mask dimension equal to the array's (or 0).
            Shape expected(shape.begin() + firstDim[k],
                           shape.begin() + firstDim[k] + int(it.arrayShape.size()));
            bool ok = true;
            for (std::size_t j = 0; j < expected.size(); ++j)
                ok &= it.arrayShape[j] == 0 || it.arrayShape[j] == expected[j];
            if (!ok)
                return errorOutcome(fw, "IndexError",
                                    "boolean index did not match shape of indexed array in "
                                    "index " +
                                        num(std::int64_t(k)) + ": got " +
                                        shapeTuple(it.arrayShape) + ", expected " +
                                        shapeTuple(expected),
                                    steps);
            continue;
        }
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
            if (jax && size == 0)
                return errorOutcome(fw, "IndexError",
                                    "index is out of bounds for axis " + num(dim) + " with size 0",
                                    steps);
            if (!jax && (v < -size || v >= size))
                return errorOutcome(fw, "IndexError",
                                    "index " + num(v) + " is out of bounds for axis " + num(dim) +
                                        " with size " + num(size),
                                    steps);
            std::int64_t at = v < 0 ? v + size : v;
            at = std::clamp<std::int64_t>(at, 0, size - 1); // JAX clamps; NumPy is in range
            if (at != (v < 0 ? v + size : v))
                steps.push_back(itemStep("Item " + num(item) + ": clamped",
                                         "Index " + num(v) + " lies outside axis " + num(dim) +
                                             "; JAX's gather clamps it to " + num(at) + ".",
                                         item, dim));
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
    if (!broadcastShapes(shapesForMessage) && jax) {
        std::string text;
        for (const Shape& s : shapesForMessage)
            text += (text.empty() ? "" : ", ") + shapeTuple(s);
        return errorOutcome(fw, "ValueError",
                            "Incompatible shapes for broadcasting: shapes=[" + text + "]", steps);
    }
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
        if (jax && check && size == 0)
            return notModelledOutcome(fw,
                                      "An index array on an axis of size 0: JAX's gather has "
                                      "nothing to clamp to; SliceScope does not model it.",
                                      steps);
        bool clamped = false;
        for (std::int64_t& v : a.values) {
            if (jax && check) {
                // Wrapped once if negative, then clamped by the gather (see JaxModel).
                const std::int64_t w = v < 0 ? v + size : v;
                v = std::clamp<std::int64_t>(w, 0, size - 1);
                clamped |= v != w;
                continue;
            }
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
        if (clamped)
            steps.push_back({"Out-of-bounds indices clamp",
                             a.label + " holds indices outside axis " + num(a.dim) + " (size " +
                                 num(size) +
                                 "). x[idx] in JAX does not raise: a negative index is wrapped "
                                 "once, then the gather clamps into [0, " +
                                 num(size - 1) +
                                 "] (x.at[idx].get(mode='fill') would give the fill value "
                                 "instead, mode='drop' drops the update in a scatter).",
                             {a.dim}});
    }
    const std::string placement =
        split ? "The index arrays (and integers) are separated by a slice, None or ..., so "
                "their dimensions go first, before every sliced dimension."
              : "The index arrays (and integers) stand next to each other, so their dimensions "
                "replace them in place, after " +
                    num(blockAt) + (blockAt == 1 ? " dimension." : " dimensions.");
    return gatherOutcome(fw, input, g, placement, std::move(steps), limits);
}

bool hasArrayItems(const std::vector<SubscriptItem>& items)
{
    return std::any_of(items.begin(), items.end(), [](const SubscriptItem& it) {
        return it.kind == SubscriptItem::Kind::IndexArray || it.kind == SubscriptItem::Kind::Bool;
    });
}

bool hasComparisons(const IndexSpec& spec)
{
    if (!spec.subscript) return false;
    return std::any_of(spec.subscript->items.begin(), spec.subscript->items.end(),
                       [](const SubscriptItem& it) { return it.comparison.has_value(); });
}

namespace {

template <class T> bool compareElement(const T& element, const SubscriptItem::Comparison& c)
{
    // Integers compare exactly with an integer (no trip through double past 2^53); everything
    // else as doubles, so a NaN is unequal to every number and unordered, as in NumPy.
    auto order = [&]() -> std::partial_ordering {
        if constexpr (std::is_same_v<T, bool>) {
            return c.isInteger ? std::int64_t(element) <=> c.intValue : double(element) <=> c.value;
        } else if constexpr (std::is_integral_v<T>) {
            if (c.isInteger) {
                if (std::cmp_less(element, c.intValue)) return std::partial_ordering::less;
                if (std::cmp_greater(element, c.intValue)) return std::partial_ordering::greater;
                return std::partial_ordering::equivalent;
            }
            return static_cast<long double>(element) <=> static_cast<long double>(c.value);
        } else {
            return realValue(element) <=> c.value;
        }
    }();
    if (c.op == ">") return order == std::partial_ordering::greater;
    if (c.op == ">=")
        return order == std::partial_ordering::greater ||
               order == std::partial_ordering::equivalent;
    if (c.op == "<") return order == std::partial_ordering::less;
    if (c.op == "<=")
        return order == std::partial_ordering::less || order == std::partial_ordering::equivalent;
    if (c.op == "==") return order == std::partial_ordering::equivalent;
    return order != std::partial_ordering::equivalent; // !=, true for NaN
}

} // namespace

std::string resolveComparisons(IndexSpec& spec, const Tensor& input, const Limits& limits)
{
    if (!spec.subscript) return {};
    for (SubscriptItem& it : spec.subscript->items) {
        if (!it.comparison) continue;
        const DType dtype = input.dtype();
        if (dtype == DType::String || dtype == DType::Complex64 || dtype == DType::Complex128)
            return it.text + " on a " + std::string(dtypeName(dtype)) +
                   " tensor is not modelled: the mask "
                   "compares numbers";
        limits.charge(input.size() * std::int64_t(sizeof(std::int64_t)),
                      "the mask " + it.text + " (" + std::to_string(input.size()) + " elements)");
        it.arrayShape = input.shape();
        it.arrayValues.assign(std::size_t(input.size()), 0);
        const SubscriptItem::Comparison c = *it.comparison;
        visitDType(dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (!std::is_same_v<T, std::string> && !kIsComplex<T>) {
                const T* data = input.data<T>();
                for (std::int64_t i = 0; i < input.size(); ++i)
                    it.arrayValues[std::size_t(i)] = compareElement(data[i], c) ? 1 : 0;
            }
        });
        it.arrayIsBool = true;
        it.comparison.reset();
    }
    return {};
}

std::optional<FrameworkOutcome> planBeforeItems(const FrameworkModel& model, const IndexSpec& spec,
                                                const Tensor& input, const Limits& limits)
{
    if (!spec.subscript) return notModelledOutcome(model.id(), spec.noSubscriptMessage(), {});
    if (!hasComparisons(spec)) return std::nullopt;
    IndexSpec masked = spec;
    if (const std::string why = resolveComparisons(masked, input, limits); !why.empty())
        return notModelledOutcome(model.id(), why, {});
    return model.plan(masked, input, limits);
}

} // namespace ss::frameworks
