// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/frameworks/advanced_index.h"

#include "core/error.h"
#include "core/plan.h"

#include <algorithm>

namespace ss::frameworks {

namespace {

std::string num(std::int64_t v)
{
    return std::to_string(v);
}

std::string coordText(const std::vector<std::int64_t>& c)
{
    std::string t = "[";
    for (std::size_t k = 0; k < c.size(); ++k)
        t += (k ? ", " : "") + num(c[k]);
    return t + "]";
}

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

std::string torchShapeText(const Shape& shape)
{
    std::string t = "[";
    for (std::size_t k = 0; k < shape.size(); ++k)
        t += (k ? ", " : "") + num(shape[k]);
    return t + "]";
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
                       " (" + a.label + coordText(own) + ")";
        }
        if (!example.empty())
            example = " Index position " + coordText(last) + " takes " + example + ".";
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
    return o;
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

bool hasArrayItems(const std::vector<SubscriptItem>& items)
{
    return std::any_of(items.begin(), items.end(), [](const SubscriptItem& it) {
        return it.kind == SubscriptItem::Kind::IndexArray || it.kind == SubscriptItem::Kind::Bool;
    });
}

} // namespace ss::frameworks
