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

std::string shapeOf(const SubscriptItem& it)
{
    return shapeTuple(it.arrayShape);
}

// NumPy 1.24's advanced indexing: every list is an index array (a list of bools a mask, read as
// nonzero()), a bool is a 0-d mask that adds an axis of 1 (True) or 0 (False) entries, and once
// there is an index array the integers join the arrays for the placement rule.

} // namespace

std::int64_t arrayOffset(const IndexArray& a, const std::vector<std::int64_t>& coord)
{
    const std::size_t r = a.shape.size();
    const std::size_t lead = coord.size() - r;
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < r; ++k)
        offset = offset * a.shape[k] + (a.shape[k] == 1 ? 0 : coord[lead + k]);
    return offset;
}

void nextCoord(std::vector<std::int64_t>& coord, const Shape& shape)
{
    for (std::size_t k = coord.size(); k-- > 0;) {
        if (++coord[k] < shape[k]) break;
        coord[k] = 0;
    }
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
        nextCoord(coord, shape);
    }
    return out;
}

namespace {

/// Where the result's dimensions come from: the index block's dimensions at its place in the
/// layout, a new axis, or a sliced input dimension.
struct GatherLayout
{
    Shape outShape;
    std::vector<int> outputDims; ///< the input dimension of each result dimension, -1: none
    int blockAt = -1;            ///< the result dimension the index block starts at
};

GatherLayout gatherLayout(const GatherSpec& spec, const Shape& block)
{
    GatherLayout l;
    for (int d : spec.layout) {
        if (d == kBlock) {
            l.blockAt = int(l.outShape.size());
            for (std::int64_t e : block) {
                l.outShape.push_back(e);
                l.outputDims.push_back(-1);
            }
        } else {
            l.outShape.push_back(d < 0 ? 1 : spec.picks[std::size_t(d)].count);
            l.outputDims.push_back(d);
        }
    }
    return l;
}

/// Broadcast and placement, as the decode steps tell them.
void explainPlacement(const GatherSpec& spec, const Shape& block, const std::string& placement,
                      const GatherLayout& layout, std::vector<Step>& steps)
{
    std::string text;
    for (const IndexArray& a : spec.arrays)
        text += (text.empty() ? "" : ", ") + a.label + " " + shapeTuple(a.shape);
    Step s{"Broadcast the index arrays",
           (spec.arrays.size() == 1 ? "One index array, " + text + ": its shape is "
                                    : "The index arrays " + text + " broadcast to ") +
               shapeTuple(block) + ".",
           {}};
    for (const IndexArray& a : spec.arrays)
        if (a.dim >= 0) s.inputDims.push_back(a.dim);
    steps.push_back(std::move(s));
    Step p{"Where the index dimensions go",
           placement + " The result has shape " + shapeTuple(layout.outShape) + ".",
           {}};
    for (std::size_t k = 0; k < block.size(); ++k)
        p.outputDims.push_back(layout.blockAt + int(k));
    steps.push_back(std::move(p));
}

/// The source of every element of the result (`total` of them), in the result's order.
RowsPiece gatherRows(const GatherSpec& spec, const Shape& inShape, const Shape& block,
                     std::int64_t total)
{
    // Per result dimension the offsets each coordinate adds; the index dimensions are one
    // dimension here whose offsets come from every array at once.
    const auto inStrides = rowMajorStrides(inShape);
    std::int64_t base = 0;
    for (std::size_t d = 0; d < spec.picks.size(); ++d)
        if (spec.picks[d].removed) base += spec.picks[d].first * inStrides[d];
    std::vector<std::vector<std::int64_t>> offsets;
    std::vector<std::int64_t> blockCoord(block.size(), 0);
    for (int d : spec.layout) {
        std::vector<std::int64_t> o;
        if (d == kBlock) {
            const std::int64_t n = total == 0 ? 0 : numElements(block);
            o.reserve(std::size_t(n));
            std::fill(blockCoord.begin(), blockCoord.end(), 0);
            for (std::int64_t b = 0; b < n; ++b) {
                std::int64_t off = 0;
                for (const IndexArray& a : spec.arrays)
                    if (a.dim >= 0)
                        off += a.values[std::size_t(arrayOffset(a, blockCoord))] *
                               inStrides[std::size_t(a.dim)];
                o.push_back(off);
                nextCoord(blockCoord, block);
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
    return piece;
}

/// How the elements are read, with one worked element: the last position of the index
/// dimensions.
Step readStep(const GatherSpec& spec, const Shape& block, int inRank, int outRank,
              std::int64_t total)
{
    std::string example;
    if (total > 0 && !spec.arrays.empty() && numElements(block) > 0) {
        std::vector<std::int64_t> last(block.begin(), block.end());
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
    for (int k = 0; k < inRank; ++k)
        read.inputDims.push_back(k);
    for (int k = 0; k < outRank; ++k)
        read.outputDims.push_back(k);
    return read;
}

/// What a hover explains each element from: the arrays themselves, unless they are large (a
/// mask of a big tensor), where the per-element sources still say where each came from.
void addIndexArraysExtra(const GatherSpec& spec, const Shape& block, int blockAt, int inRank,
                         OpPlan& plan)
{
    std::int64_t values = 0;
    for (const IndexArray& a : spec.arrays)
        values += std::int64_t(a.values.size());
    if (values > kExplainedIndexValues) return;
    Attr::List arrays;
    for (const IndexArray& a : spec.arrays)
        arrays.push_back(Attr(Attr::Map{{"name", Attr(a.label)},
                                        {"dim", Attr(std::int64_t(a.dim))},
                                        {"shape", Attr::ints(a.shape)},
                                        {"values", Attr::ints(a.values)}}));
    plan.extras.emplace_back(kIndexArraysExtra,
                             Attr(Attr::Map{{"broadcast", Attr::ints(block)},
                                            {"position", Attr(std::int64_t(blockAt))},
                                            {"rank", Attr(std::int64_t(inRank))},
                                            {"arrays", Attr(std::move(arrays))}}));
}

} // namespace

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
    GatherLayout layout = gatherLayout(spec, *block);
    if (layout.outShape.size() > std::size_t(kMaxRank))
        return notModelledOutcome(
            framework,
            "The result would have rank " + num(std::int64_t(layout.outShape.size())) +
                "; SliceScope holds tensors of rank 0 to " + num(kMaxRank) + ".",
            std::move(steps));
    limits.check(layout.outShape, input.dtype(), "the output");
    const std::int64_t total = numElements(layout.outShape);
    // An empty result reads nothing, so its indices need not lie inside the input.
    for (const IndexArray& a : spec.arrays) {
        const std::int64_t size = a.dim >= 0 ? inShape[std::size_t(a.dim)] : 1;
        for (std::int64_t v : a.values)
            if (total > 0 && (v < 0 || v >= size))
                throw OpError(ErrorCode::Internal,
                              "an advanced index reads outside dimension " + num(a.dim));
    }
    explainPlacement(spec, *block, placement, layout, steps);
    // The plan's memory is charged before it is made, as the core ops' row lists are: an offset
    // per position of the broadcast index arrays, and a source per result element. Index arrays
    // of a few kilobytes of text broadcast to 10^9 positions; uncharged, these lists took every
    // byte of the machine whatever --max-bytes said.
    if (total > 0) {
        limits.reserve(*block, DType::Int64, "the offset list of the broadcast index arrays");
        limits.reserve(layout.outShape, DType::Int64, "the row list");
    }
    RowsPiece piece = gatherRows(spec, inShape, *block, total);
    steps.push_back(
        readStep(spec, *block, int(inShape.size()), int(layout.outShape.size()), total));

    OutputPlan out;
    out.dtype = input.dtype();
    out.shape = layout.outShape;
    out.pieces.push_back(std::move(piece));
    FrameworkOutcome o;
    o.framework = framework;
    o.kind = FrameworkOutcome::Kind::Result;
    o.plan.steps = std::move(steps);
    o.plan.outputs.push_back(std::move(out));
    o.outputDims = std::move(layout.outputDims);
    addIndexArraysExtra(spec, *block, layout.blockAt, int(inShape.size()), o.plan);
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

namespace {

/// NumPy's (and JAX's) advanced indexing of one subscript, in the stages of NumPy's
/// mapping.c: prepare_index counts the dimensions the items use, get_view_from_index applies
/// the integers and slices, then the index arrays are placed and their values checked. Each
/// stage that can fail returns the outcome to give instead (with the steps explained so far).
class NumpyStyleIndexing
{
public:
    NumpyStyleIndexing(Framework fw, const std::vector<SubscriptItem>& items, const Shape& shape)
        : m_fw(fw), m_jax(fw == Framework::Jax), m_items(items), m_shape(shape),
          m_rank(int(shape.size()))
    {
    }

    std::optional<FrameworkOutcome> releasesDisagree();
    std::optional<FrameworkOutcome> countDims();
    void findFirstDims();
    std::optional<FrameworkOutcome> checkMasks() const;
    std::optional<FrameworkOutcome> viewFromIndex();
    void placeIndexArrays();
    std::optional<FrameworkOutcome> checkBroadcast() const;
    std::optional<FrameworkOutcome> checkIndexValues();
    std::string placement() const;

    GatherSpec gather;
    std::vector<Step> steps;

private:
    void addMask(const SubscriptItem& it, int item, int dim);
    void addIndexArray(const SubscriptItem& it, int item, int dim);
    FrameworkOutcome error(std::string type, std::string message) const
    {
        return errorOutcome(m_fw, std::move(type), std::move(message), steps);
    }

    const Framework m_fw;
    const bool m_jax;
    const std::vector<SubscriptItem>& m_items;
    const Shape& m_shape;
    const int m_rank;
    int m_ellipsisDims = 0;
    std::vector<int> m_firstDim; ///< the dimension each item starts at
    int m_endDim = 0;            ///< the dimension after the last item's
    int m_blockAt = 0;           ///< where the index dimensions go when they stay in place
    bool m_split = false;        ///< whether something stands between the index arrays
    std::vector<Shape> m_arrayShapes;
};

/// Where JAX releases disagree, SliceScope says so rather than pick one: a bool scalar (an axis
/// of arange(0 or 1) in recent releases, counted as an index in older ones), and a mask beside
/// other index arrays, which recent releases leave out of the test for adjacent index arrays.
std::optional<FrameworkOutcome> NumpyStyleIndexing::releasesDisagree()
{
    if (!m_jax) return std::nullopt;
    int advanced = 0;
    bool mask = false;
    for (const SubscriptItem& it : m_items) {
        if (it.kind == SubscriptItem::Kind::Bool)
            return notModelledOutcome(m_fw,
                                      "JAX releases read a bool beside index arrays "
                                      "differently (an index in the 0.4 line, an axis of "
                                      "arange(int(b)) later); SliceScope does not model it.",
                                      steps);
        advanced +=
            it.kind == SubscriptItem::Kind::IndexArray || it.kind == SubscriptItem::Kind::Integer;
        mask |= it.kind == SubscriptItem::Kind::IndexArray && it.arrayIsBool;
    }
    if (mask && advanced > 1)
        return notModelledOutcome(
            m_fw,
            "JAX releases place the index dimensions differently when a boolean mask stands "
            "beside other index arrays or integers (recent ones leave the mask out of the "
            "adjacency test); SliceScope does not model it.",
            steps);
    return std::nullopt;
}

/// prepare_index: one ellipsis, then the count of dimensions the index uses.
std::optional<FrameworkOutcome> NumpyStyleIndexing::countDims()
{
    int used = 0, ellipses = 0;
    for (const SubscriptItem& it : m_items) {
        switch (it.kind) {
        case SubscriptItem::Kind::Ellipsis:
            if (++ellipses > 1 && !m_jax)
                return error("IndexError", "an index can only have a single ellipsis ('...')");
            break;
        case SubscriptItem::Kind::IndexArray:
            used += it.arrayIsBool ? int(it.arrayShape.size()) : 1;
            break;
        case SubscriptItem::Kind::Integer:
        case SubscriptItem::Kind::Slice: ++used; break;
        default: break;
        }
    }
    if (m_jax && ellipses > 1)
        return error("IndexError", "an index can only have a single ellipsis ('...')");
    if (used > m_rank)
        return error("IndexError", m_jax ? "Too many indices: " + num(m_rank) +
                                               "-dimensional array indexed with " + num(used) +
                                               " regular " + (used == 1 ? "index" : "indices") + "."
                                         : "too many indices for array: array is " + num(m_rank) +
                                               "-dimensional, but " + num(used) + " were indexed");
    m_ellipsisDims = m_rank - used;
    return std::nullopt;
}

/// The dimension each item starts at.
void NumpyStyleIndexing::findFirstDims()
{
    int& dim = m_endDim;
    for (const SubscriptItem& it : m_items) {
        m_firstDim.push_back(dim);
        if (it.kind == SubscriptItem::Kind::Ellipsis)
            dim += m_ellipsisDims;
        else if (it.kind == SubscriptItem::Kind::IndexArray)
            dim += it.arrayIsBool ? int(it.arrayShape.size()) : 1;
        else if (it.kind == SubscriptItem::Kind::Integer || it.kind == SubscriptItem::Kind::Slice)
            ++dim;
    }
}

/// A mask must match the dimensions it covers.
std::optional<FrameworkOutcome> NumpyStyleIndexing::checkMasks() const
{
    for (std::size_t k = 0; k < m_items.size(); ++k) {
        const SubscriptItem& it = m_items[k];
        if (it.kind != SubscriptItem::Kind::IndexArray || !it.arrayIsBool) continue;
        if (m_jax) {
            // _expand_bool_indices: every mask dimension equal to the array's (or 0).
            Shape expected(m_shape.begin() + m_firstDim[k],
                           m_shape.begin() + m_firstDim[k] + int(it.arrayShape.size()));
            bool ok = true;
            for (std::size_t j = 0; j < expected.size(); ++j)
                ok &= it.arrayShape[j] == 0 || it.arrayShape[j] == expected[j];
            if (!ok)
                return error("IndexError",
                             "boolean index did not match shape of indexed array in index " +
                                 num(std::int64_t(k)) + ": got " + shapeTuple(it.arrayShape) +
                                 ", expected " + shapeTuple(expected));
            continue;
        }
        for (std::size_t j = 0; j < it.arrayShape.size(); ++j) {
            const int dim = m_firstDim[k] + int(j);
            if (it.arrayShape[j] != m_shape[std::size_t(dim)])
                return error("IndexError",
                             "boolean index did not match indexed array along dimension " +
                                 num(dim) + "; dimension is " + num(m_shape[std::size_t(dim)]) +
                                 " but corresponding boolean dimension is " +
                                 num(it.arrayShape[j]));
        }
    }
    return std::nullopt;
}

/// get_view_from_index: integers and slices, left to right.
std::optional<FrameworkOutcome> NumpyStyleIndexing::viewFromIndex()
{
    gather.picks = wholePicks(m_shape);
    for (std::size_t k = 0; k < m_items.size(); ++k) {
        const SubscriptItem& it = m_items[k];
        const int dim = m_firstDim[k];
        const int item = int(k);
        if (it.kind == SubscriptItem::Kind::Integer) {
            const std::int64_t size = m_shape[std::size_t(dim)];
            const std::int64_t v = *it.start;
            if (m_jax && size == 0)
                return error("IndexError",
                             "index is out of bounds for axis " + num(dim) + " with size 0");
            if (!m_jax && (v < -size || v >= size))
                return error("IndexError", "index " + num(v) + " is out of bounds for axis " +
                                               num(dim) + " with size " + num(size));
            std::int64_t at = v < 0 ? v + size : v;
            at = std::clamp<std::int64_t>(at, 0, size - 1); // JAX clamps; NumPy is in range
            if (at != (v < 0 ? v + size : v))
                steps.push_back(itemStep("Item " + num(item) + ": clamped",
                                         "Index " + num(v) + " lies outside axis " + num(dim) +
                                             "; JAX's gather clamps it to " + num(at) + ".",
                                         item, dim));
            gather.picks[std::size_t(dim)] = {at, 1, 1, true};
            steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                     "An integer picks element " + num(at) + " of axis " +
                                         num(dim) +
                                         "; the axis is removed. Beside index arrays it counts "
                                         "as one for where their dimensions go.",
                                     item, dim));
        } else if (it.kind == SubscriptItem::Kind::Slice) {
            const std::int64_t size = m_shape[std::size_t(dim)];
            const std::int64_t step = it.step.value_or(1);
            if (step == 0) return error("ValueError", "slice step cannot be zero");
            const PythonSlice s = pythonSliceIndices(it.start, it.stop, step, size);
            gather.picks[std::size_t(dim)] = {s.start, step, s.count, false};
            steps.push_back(itemStep(
                "Item " + num(item) + ": " + it.text,
                "slice.indices(" + num(size) + ") gives start " + num(s.start) + ", stop " +
                    num(s.stop) + ", step " + num(step) + ": " + num(s.count) +
                    (s.count == 1 ? " element" : " elements") + " of axis " + num(dim) + ".",
                item, dim));
        }
    }
    return std::nullopt;
}

/// The index arrays (a mask becomes one array per dimension), and the placement rule: the
/// arrays and integers stay where they are only when nothing else stands between them.
void NumpyStyleIndexing::placeIndexArrays()
{
    int consec = -1; // -1: none yet, 0: in the run, 1: run ended, 2: split
    int resultDims = 0;
    for (std::size_t k = 0; k < m_items.size(); ++k) {
        const SubscriptItem& it = m_items[k];
        const int dim = m_firstDim[k];
        const int item = int(k);
        const bool fancy = it.kind == SubscriptItem::Kind::IndexArray ||
                           it.kind == SubscriptItem::Kind::Bool ||
                           it.kind == SubscriptItem::Kind::Integer;
        if (fancy) {
            if (consec == -1) {
                consec = 0;
                m_blockAt = resultDims;
            } else if (consec == 1) {
                consec = 2;
            }
        } else if (consec == 0) {
            consec = 1;
        }
        switch (it.kind) {
        case SubscriptItem::Kind::Slice:
            gather.layout.push_back(dim);
            ++resultDims;
            break;
        case SubscriptItem::Kind::NewAxis:
            gather.layout.push_back(-1);
            ++resultDims;
            steps.push_back(itemStep("Item " + num(item) + ": None",
                                     "None inserts an axis of size 1.", item, -1));
            break;
        case SubscriptItem::Kind::Ellipsis:
            for (int d = 0; d < m_ellipsisDims; ++d)
                gather.layout.push_back(dim + d);
            resultDims += m_ellipsisDims;
            steps.push_back(itemStep(
                "Item " + num(item) + ": ...",
                "The ellipsis stands for " + num(m_ellipsisDims) + " whole axes.", item, -1));
            break;
        case SubscriptItem::Kind::Bool: {
            // A 0-d mask: a new axis, indexed by [0] (True) or by nothing (False).
            IndexArray a;
            a.shape = {it.boolValue ? 1 : 0};
            a.values.assign(std::size_t(a.shape[0]), 0);
            a.label = it.text;
            m_arrayShapes.push_back(a.shape);
            gather.arrays.push_back(std::move(a));
            steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                                     std::string("A bool is a 0-d mask: it adds an index "
                                                 "dimension of ") +
                                         (it.boolValue ? "1 entry" : "0 entries") +
                                         " and reads no axis.",
                                     item, -1));
            break;
        }
        case SubscriptItem::Kind::IndexArray:
            if (it.arrayIsBool)
                addMask(it, item, dim);
            else
                addIndexArray(it, item, dim);
            break;
        default: break;
        }
    }
    // The dimensions after the last item (NumPy's implied trailing ellipsis).
    for (int d = m_endDim; d < m_rank; ++d)
        gather.layout.push_back(d);
    m_split = consec == 2;
    gather.layout.insert(gather.layout.begin() + (m_split ? 0 : m_blockAt), kBlock);
}

/// A boolean mask is read as nonzero(): one index array per axis it covers.
void NumpyStyleIndexing::addMask(const SubscriptItem& it, int item, int dim)
{
    const auto nz = nonzeroIndices(it.arrayShape, it.arrayValues);
    const std::int64_t count = nz.empty() ? 0 : std::int64_t(nz[0].size());
    for (std::size_t j = 0; j < nz.size(); ++j) {
        IndexArray a;
        a.shape = {count};
        a.values = nz[j];
        a.dim = dim + int(j);
        a.label = "nonzero(item " + num(item) + ")[" + num(std::int64_t(j)) + "]";
        m_arrayShapes.push_back(a.shape);
        gather.arrays.push_back(std::move(a));
    }
    Step s = itemStep("Item " + num(item) + ": " + it.text,
                      "A boolean mask of shape " + shapeOf(it) + " over axes " + num(dim) + " to " +
                          num(dim + int(it.arrayShape.size()) - 1) + ": it is read as nonzero(), " +
                          num(count) + " true positions, one index array per axis it covers.",
                      item, dim);
    for (int j = 1; j < int(it.arrayShape.size()); ++j)
        s.inputDims.push_back(dim + j);
    steps.push_back(std::move(s));
}

void NumpyStyleIndexing::addIndexArray(const SubscriptItem& it, int item, int dim)
{
    IndexArray a;
    a.shape = it.arrayShape;
    a.values = it.arrayValues;
    a.dim = dim;
    a.label = "idx" + num(item);
    m_arrayShapes.push_back(a.shape);
    steps.push_back(itemStep("Item " + num(item) + ": " + it.text,
                             "An index array " + a.label + " of shape " + shapeOf(it) +
                                 " reads axis " + num(dim) + " (size " +
                                 num(m_shape[std::size_t(dim)]) + ").",
                             item, dim));
    gather.arrays.push_back(std::move(a));
}

/// The index arrays broadcast together.
std::optional<FrameworkOutcome> NumpyStyleIndexing::checkBroadcast() const
{
    if (broadcastShapes(m_arrayShapes)) return std::nullopt;
    std::string text;
    if (m_jax) {
        for (const Shape& s : m_arrayShapes)
            text += (text.empty() ? "" : ", ") + shapeTuple(s);
        return error("ValueError", "Incompatible shapes for broadcasting: shapes=[" + text + "]");
    }
    for (const Shape& s : m_arrayShapes)
        text += numpyShapeText(s) + " ";
    return error("IndexError",
                 "shape mismatch: indexing arrays could not be broadcast together with shapes " +
                     text);
}

/// The index arrays' values: in range for NumPy, wrapped once and clamped for JAX. The map
/// iterator checks the indices only when it reads something: an empty result (an empty slice,
/// a size-0 axis, index arrays that broadcast to no positions) checks none.
std::optional<FrameworkOutcome> NumpyStyleIndexing::checkIndexValues()
{
    bool empty = numElements(*broadcastShapes(m_arrayShapes)) == 0;
    for (int d : gather.layout)
        empty |= d >= 0 && gather.picks[std::size_t(d)].count == 0;
    const bool check = !empty;
    for (IndexArray& a : gather.arrays) {
        if (a.dim < 0) continue;
        const std::int64_t size = m_shape[std::size_t(a.dim)];
        if (m_jax && check && size == 0)
            return notModelledOutcome(m_fw,
                                      "An index array on an axis of size 0: JAX's gather has "
                                      "nothing to clamp to; SliceScope does not model it.",
                                      steps);
        bool clamped = false;
        for (std::int64_t& v : a.values) {
            if (m_jax && check) {
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
                return error("IndexError", "index " + num(v) + " is out of bounds for axis " +
                                               num(a.dim) + " with size " + num(size));
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
    return std::nullopt;
}

std::string NumpyStyleIndexing::placement() const
{
    return m_split ? "The index arrays (and integers) are separated by a slice, None or ..., so "
                     "their dimensions go first, before every sliced dimension."
                   : "The index arrays (and integers) stand next to each other, so their "
                     "dimensions replace them in place, after " +
                         num(m_blockAt) + (m_blockAt == 1 ? " dimension." : " dimensions.");
}

} // namespace

FrameworkOutcome planNumpyStyle(Framework fw, const std::vector<SubscriptItem>& items,
                                const Tensor& input, const Limits& limits)
{
    NumpyStyleIndexing ix(fw, items, input.shape());
    if (auto failed = ix.releasesDisagree()) return std::move(*failed);
    if (auto failed = ix.countDims()) return std::move(*failed);
    ix.findFirstDims();
    if (auto failed = ix.checkMasks()) return std::move(*failed);
    if (auto failed = ix.viewFromIndex()) return std::move(*failed);
    ix.placeIndexArrays();
    if (auto failed = ix.checkBroadcast()) return std::move(*failed);
    if (auto failed = ix.checkIndexValues()) return std::move(*failed);
    return gatherOutcome(fw, input, ix.gather, ix.placement(), std::move(ix.steps), limits);
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
