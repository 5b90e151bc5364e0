// SPDX-License-Identifier: GPL-3.0-or-later
// The index-driven ops: gather, gather_nd, unique_with_counts, dynamic_partition,
// dynamic_stitch, boolean_mask, one_hot, sequence_mask. Index values pick whole rows (the
// contiguous inner slices). Where an index tensor names the rows (gather, gather_nd,
// dynamic_stitch) the plan is an IndexPiece that the copy engine reads it through, in parallel;
// boolean_mask, dynamic_partition and unique (y) write the numbers of the rows they pick into one
// (rowNumbers, 2 or 4 bytes a row); the others are row lists (RowsPiece).
#include "core/error.h"
#include "core/op.h"
#include "core/ops/common.h"
#include "core/ops/ops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ss {

using namespace ops;

namespace {

std::string dtypeText(DType t)
{
    return std::string(dtypeName(t));
}

Shape subShape(const Shape& shape, std::size_t from, std::size_t to)
{
    return Shape(shape.begin() + std::ptrdiff_t(from), shape.begin() + std::ptrdiff_t(to));
}

Shape joinShapes(std::initializer_list<Shape> parts)
{
    Shape all;
    for (const Shape& p : parts)
        all.insert(all.end(), p.begin(), p.end());
    return all;
}

// TensorFlow's SliceDebugString: where flat element `flat` of `shape` sits, as "" (scalar),
// "[i]" or "[i,j,...]".
std::string position(const Shape& shape, std::int64_t flat)
{
    return shape.empty() ? std::string() : listString(unravelIndex(flat, shape));
}

void requireDType(const Tensor& t, const std::string& what, std::initializer_list<DType> allowed)
{
    if (std::find(allowed.begin(), allowed.end(), t.dtype()) != allowed.end()) return;
    std::string names;
    for (DType d : allowed)
        names += (names.empty() ? "" : ", ") + dtypeText(d);
    invalidArgument(what + " has dtype " + dtypeText(t.dtype()) + "; it must be one of: " + names);
}

// Calls f(values) with an integer tensor's elements in their own C++ type, read in place. No op
// takes indices of uint16, uint32 or uint64 (TensorFlow's index kernels are registered for int16,
// int32, int64 and one_hot's for uint8 and int8 too): those are not instantiated.
template <class F> void withInts(const Tensor& t, F&& f)
{
    visitDType(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                      (std::is_signed_v<T> || sizeof(T) == 1))
            f(t.data<T>());
    });
}

// An attribute that Python would see as given: absent and JSON null both mean None.
const Attr* givenAttr(const OpCall& call, std::string_view name)
{
    const Attr* a = call.attr(name);
    return a && !a->isNull() ? a : nullptr;
}

std::optional<DType> dtypeAttr(const OpCall& call, std::string_view name)
{
    const Attr* a = givenAttr(call, name);
    if (!a) return std::nullopt;
    const auto t = a->isString() ? dtypeFromName(a->toString()) : std::nullopt;
    if (!t)
        badRequest("attribute '" + call.spelledAs(name) +
                   "' must name a dtype (bool, int8, uint8, int16, int32, int64, float32, "
                   "float64 or string)");
    return t;
}

// The smallest and largest value of each of the `width` components of `tuples` index tuples
// (stored one after another), scanned in parallel chunks. A range check needs only these: the
// element that fails is looked for only when one does.
struct ValueRange
{
    std::int64_t min = std::numeric_limits<std::int64_t>::max();
    std::int64_t max = std::numeric_limits<std::int64_t>::min();
};

template <class I>
std::vector<ValueRange> componentRanges(const OpCall& call, const I* idx, std::int64_t tuples,
                                        std::size_t width)
{
    constexpr std::int64_t kGrain = std::int64_t(1) << 16;
    std::vector<ValueRange> all(width);
    std::mutex mutex;
    planParallelFor(call, tuples, kGrain, [&](std::int64_t begin, std::int64_t end) {
        std::vector<ValueRange> part(width);
        if (width == 1) {
            // Selects of a local copy, so that the compiler vectorises it: GCC 12 leaves
            // std::min/std::max of the element references a scalar loop of compares and moves,
            // which took almost as long as the gather of 10^7 int32 that follows. (int64 stays
            // scalar: SSE2 has no 64-bit compare.)
            I lo = idx[begin];
            I hi = idx[begin];
            for (std::int64_t k = begin; k < end; ++k) {
                const I v = idx[k];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            part[0] = {lo, hi};
        } else {
            for (std::int64_t t = begin; t < end; ++t)
                for (std::size_t c = 0; c < width; ++c) {
                    const std::int64_t v = idx[std::size_t(t) * width + c];
                    part[c].min = std::min(part[c].min, v);
                    part[c].max = std::max(part[c].max, v);
                }
        }
        const std::lock_guard<std::mutex> lock(mutex);
        for (std::size_t c = 0; c < width; ++c) {
            all[c].min = std::min(all[c].min, part[c].min);
            all[c].max = std::max(all[c].max, part[c].max);
        }
    });
    return all;
}

// ---------------------------------------------------------------------------------------------
// gather

OpPlan gather(const OpCall& call)
{
    const Tensor& params = call.input("params");
    const Tensor& indices = call.input("indices");
    requireDType(indices, "indices", {DType::Int16, DType::Int32, DType::Int64});
    const Shape& ps = params.shape();
    const Shape& is = indices.shape();
    const int r = params.rank();
    const int ri = indices.rank();
    OpPlan plan;

    // 1. params rank, then the axis (tf.gather's axis=None means axis = batch_dims).
    if (r < 1) invalidArgument("params must be at least 1 dimensional");
    std::int64_t batchDims = call.getInt("batch_dims", 0);
    std::int64_t axis = batchDims;
    const Attr* axisAttr = givenAttr(call, "axis");
    if (axisAttr) {
        const IntTensor a = toIntTensor(*axisAttr, call.spelledAs("axis"));
        if (!a.shape.empty()) invalidArgument("axis must be scalar");
        axis = a.values[0];
    }
    // Unsigned, so that no axis value overflows.
    const std::uint64_t minRank = axis < 0 ? 0 - std::uint64_t(axis) : std::uint64_t(axis) + 1;
    if (std::uint64_t(r) < minRank)
        invalidArgument("Shape must be at least rank " + std::to_string(minRank) + " but is rank " +
                        num(r));
    const std::int64_t rawAxis = axis;
    if (axis < 0) axis += r;

    // 2. batch_dims.
    if (batchDims != 0) {
        if (batchDims < -ri || batchDims > ri)
            invalidArgument("Expected batch_dims in the range [" + num(-ri) + ", " + num(ri) +
                            "], but got " + num(batchDims));
        if (batchDims < 0) batchDims += ri;
        if (batchDims >= r)
            invalidArgument("batch_dims (" + num(batchDims) + ") must be less than rank(params) (" +
                            num(r) + ").");
        if (axis < batchDims)
            invalidArgument("batch_dims (" + num(batchDims) +
                            ") must be less than or equal to axis (" + num(axis) + ").");
        for (std::int64_t i = 0; i < batchDims; ++i)
            if (ps[std::size_t(i)] != is[std::size_t(i)])
                invalidArgument("params.shape[" + num(i) + "]: " + num(ps[std::size_t(i)]) +
                                " should be equal to indices.shape[" + num(i) +
                                "]: " + num(is[std::size_t(i)]));
    }
    const auto b = std::size_t(batchDims);
    const auto ax = std::size_t(axis);
    const std::int64_t gatherSize = ps[ax];
    const std::int64_t indexMax = integerMax(indices.dtype());
    if (gatherSize > indexMax)
        invalidArgument("params.shape[" + num(axis) + "] too large for " +
                        dtypeText(indices.dtype()) + " indexing: " + num(gatherSize) + " > " +
                        num(indexMax));
    plan.steps.push_back(
        {"Axis",
         "params has shape " + shapeTuple(ps) + "; gathering along axis " + num(axis) +
             (rawAxis != axis ? " (" + num(rawAxis) + " counts from the end)" : "") +
             (axisAttr ? "" : " (axis not given: it defaults to batch_dims)") + ", size " +
             num(gatherSize) + ". Each index picks one position along it.",
         {},
         {int(axis)},
         {}});
    if (b > 0)
        plan.steps.push_back(
            {"Batch dimensions",
             "batch_dims " + num(batchDims) + ": the first " + num(batchDims) + " dimensions " +
                 shapeTuple(subShape(ps, 0, b)) +
                 " are shared by params and indices; batch entry k of indices picks only from "
                 "batch entry k of params.",
             {},
             dimRange(0, b),
             dimRange(0, b)});

    // 3. The output shape.
    const Shape outShape = joinShapes(
        {subShape(ps, 0, ax), subShape(is, b, is.size()), subShape(ps, ax + 1, ps.size())});
    OutputPlan out = newOutput(call, params.dtype(), outShape, "the output");
    const std::size_t indexDimsEnd = ax + is.size() - b;
    plan.steps.push_back({"Output shape",
                          "params.shape[:" + num(axis) + "] " + shapeTuple(subShape(ps, 0, ax)) +
                              " + indices.shape[" + num(batchDims) + ":] " +
                              shapeTuple(subShape(is, b, is.size())) + " + params.shape[" +
                              num(axis + 1) + ":] " + shapeTuple(subShape(ps, ax + 1, ps.size())) +
                              " = " + shapeTuple(outShape) + ".",
                          {},
                          {int(axis)},
                          dimRange(ax, indexDimsEnd)});

    // 4. Indices are checked only when something is copied (TensorFlow's kernel returns early
    //    for an empty output), and never wrapped.
    if (numElements(outShape) == 0) {
        plan.steps.push_back({"Quirk: no index checks",
                              "The output is empty, so TensorFlow returns before it looks at any "
                              "index value: out-of-range indices pass without an error here.",
                              {}});
        plan.outputs.push_back(std::move(out));
        return plan;
    }
    // Only now: a non-empty output bounds these products (an empty params' other dimensions
    // may multiply past int64).
    const std::int64_t inner = product(ps, ax + 1, ps.size());
    const std::int64_t batch = product(ps, 0, b);
    const std::int64_t outer = product(ps, b, ax);
    const std::int64_t perBatch = indices.size() / batch;
    withInts(indices, [&](const auto* idx) {
        const ValueRange range = componentRanges(call, idx, indices.size(), 1)[0];
        if (range.min >= 0 && range.max < gatherSize) return;
        for (std::int64_t i = 0; i < indices.size(); ++i)
            if (idx[i] < 0 || idx[i] >= gatherSize)
                outOfRange("indices" + position(is, i) + " = " + num(idx[i]) + " is not in [0, " +
                           num(gatherSize) + ")");
    });
    // Output row (bb, o, j) reads params[bb, o, indices[bb, j]]: the copy engine reads the
    // indices in place.
    IndexPiece piece;
    piece.slot = call.slot("params");
    piece.indices = indices;
    piece.rowLength = inner;
    piece.groups = batch * outer;
    piece.count = perBatch;
    piece.groupsPerBlock = outer;
    piece.groupStride = gatherSize * inner;
    piece.indexStrides = {inner};
    out.pieces.push_back(std::move(piece));
    plan.steps.push_back(
        {"Rule",
         std::string(
             b > 0
                 ? "output[b..., p..., q..., s...] = params[b..., p..., indices[b..., q...], s...]"
                 : "output[p..., q..., s...] = params[p..., indices[q...], s...]") +
             ": every index copies a slice of " + num(inner) +
             (inner == 1 ? " element" : " elements") + ". Every index must lie in [0, " +
             num(gatherSize) + "); negative indices are not counted from the end.",
         {},
         {int(axis)},
         dimRange(ax, indexDimsEnd)});
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// gather_nd

OpPlan gatherNd(const OpCall& call)
{
    const Tensor& params = call.input("params");
    const Tensor& indices = call.input("indices");
    requireDType(indices, "indices", {DType::Int16, DType::Int32, DType::Int64});
    const Shape& ps = params.shape();
    const Shape& is = indices.shape();
    const int r = params.rank();
    const int ri = indices.rank();
    OpPlan plan;

    // 1. batch_dims is Python's work (batch_gather_nd): it prepends each index tuple's batch
    //    coordinates and hands the longer tuples to the kernel.
    const std::int64_t batchDims = call.getInt("batch_dims", 0);
    Shape tupleShape = ri > 0 ? subShape(is, 0, is.size() - 1) : Shape{};
    Shape batchShape;
    std::int64_t batchSize = 1;
    if (batchDims != 0) {
        if (batchDims < 0) invalidArgument("tf.gather_nd does not allow negative batch_dims.");
        if (batchDims >= ri)
            invalidArgument("Argument `batch_dims` = " + num(batchDims) +
                            " must be less than rank(`indices`) = " + num(ri));
        if (batchDims >= r)
            invalidArgument("Argument `batch_dims` = " + num(batchDims) +
                            " must be less than rank(`params`) = " + num(r));
        batchShape = subShape(ps, 0, std::size_t(batchDims));
        batchSize = numElements(batchShape);
        // Python reshapes indices to [batch size] + indices.shape[batch_dims:].
        // The batch of an empty params may be huge: the product is checked.
        const std::int64_t requested =
            mulOrThrow(batchSize, product(is, std::size_t(batchDims), is.size()),
                       "the reshaped indices' element count");
        if (requested != indices.size())
            invalidArgument("Input to reshape is a tensor with " + num(indices.size()) +
                            " values, but the requested shape has " + num(requested));
        tupleShape = joinShapes({{batchSize}, subShape(is, std::size_t(batchDims), is.size() - 1)});
        plan.steps.push_back(
            {"Batch dimensions",
             "batch_dims " + num(batchDims) + ": params' first dimensions " +
                 shapeTuple(batchShape) +
                 " are batches. Every index tuple of batch entry k gets k's coordinates put in "
                 "front of it, so the kernel sees tuples of length " +
                 num(batchDims + is.back()) + " over the whole params.",
             {},
             dimRange(0, std::size_t(batchDims)),
             dimRange(0, std::size_t(batchDims))});
    }

    // 2. The kernel's checks, on the (possibly lengthened) tuples.
    if (r < 1) invalidArgument("params must be at least a vector");
    if (ri < 1) invalidArgument("indices must be at least a vector");
    const std::int64_t tupleLength = is.back();
    const std::int64_t depth = batchDims + tupleLength;
    if (depth > r)
        invalidArgument("index innermost dimension length must be <= params rank; saw: " +
                        num(depth) + " vs. " + num(r));
    const auto d = std::size_t(depth);
    const Shape sliceShape = subShape(ps, d, ps.size());
    const Shape outShape =
        joinShapes({batchShape, subShape(is, std::size_t(batchDims), is.size() - 1), sliceShape});
    OutputPlan out = newOutput(call, params.dtype(), outShape, "the output");
    plan.steps.push_back({"Index depth",
                          "indices.shape[-1] = " + num(tupleLength) +
                              (batchDims ? " (+ " + num(batchDims) + " batch coordinates)" : "") +
                              ": each index tuple addresses the first " + num(depth) +
                              " of params' " + num(r) + " dimensions and picks a slice of shape " +
                              shapeTuple(sliceShape) + ".",
                          {},
                          dimRange(0, d),
                          {}});
    const std::string tupleText = batchDims ? "params.shape[:" + num(batchDims) + "] " +
                                                  shapeTuple(batchShape) + " + indices.shape[" +
                                                  num(batchDims) + ":-1] "
                                            : "indices.shape[:-1] ";
    plan.steps.push_back({"Output shape",
                          tupleText +
                              shapeTuple(subShape(is, std::size_t(batchDims), is.size() - 1)) +
                              " + params.shape[" + num(depth) + ":] " + shapeTuple(sliceShape) +
                              " = " + shapeTuple(outShape) + ".",
                          {},
                          dimRange(d, ps.size()),
                          dimRange(0, outShape.size() - sliceShape.size())});

    const std::int64_t tuples = numElements(tupleShape);
    // gather_nd_op.cc addresses params with the index dtype itself (int16 since current TF).
    if (params.size() > integerMax(indices.dtype()))
        invalidArgument("params.NumElements() too large for " + dtypeText(indices.dtype()) +
                        " indexing: " + num(params.size()) + " > " +
                        num(integerMax(indices.dtype())));
    if (tuples == 0) {
        plan.outputs.push_back(std::move(out));
        return plan;
    }
    if (params.size() == 0)
        invalidArgument("Requested more than 0 entries, but params is empty.  Params shape: " +
                        shapeString(ps));
    if (depth > 7)
        invalidArgument("Only indices.shape[-1] values between 1 and 7 are currently supported.  "
                        "Requested rank: " +
                        num(depth));

    // 3. Every tuple must address an existing slice (no wrapping of negative values).
    const auto strides = rowMajorStrides(ps);
    const std::int64_t perBatch = tuples / batchSize;
    const std::int64_t batchStride = batchDims ? strides[std::size_t(batchDims) - 1] : 0;
    const std::int64_t sliceSize = numElements(sliceShape);
    withInts(indices, [&](const auto* idx) {
        const std::vector<ValueRange> ranges =
            componentRanges(call, idx, tuples, std::size_t(tupleLength));
        bool inRange = true;
        for (std::size_t k = 0; k < ranges.size(); ++k)
            inRange =
                inRange && ranges[k].min >= 0 && ranges[k].max < ps[std::size_t(batchDims) + k];
        if (inRange) return;
        for (std::int64_t t = 0; t < tuples; ++t) {
            for (std::int64_t k = 0; k < tupleLength; ++k) {
                const std::int64_t v = idx[t * tupleLength + k];
                const auto dim = std::size_t(batchDims + k);
                if (v < 0 || v >= ps[dim]) {
                    std::vector<std::int64_t> tuple = batchDims
                                                          ? unravelIndex(t / perBatch, batchShape)
                                                          : std::vector<std::int64_t>{};
                    tuple.insert(tuple.end(), idx + t * tupleLength, idx + (t + 1) * tupleLength);
                    outOfRange("indices" + position(tupleShape, t) + " = " + listText(tuple) +
                               " does not index into param shape " + shapeString(ps));
                }
            }
        }
    });
    // Tuple t of batch entry t / perBatch reads the slice at that entry's offset plus its own.
    IndexPiece piece;
    piece.slot = call.slot("params");
    piece.indices = indices;
    piece.rowLength = sliceSize;
    piece.groups = batchSize;
    piece.count = perBatch;
    piece.groupStride = batchStride;
    piece.indexStrides.assign(strides.begin() + std::ptrdiff_t(batchDims),
                              strides.begin() + std::ptrdiff_t(depth));
    out.pieces.push_back(std::move(piece));
    plan.steps.push_back({"Rule",
                          "output[i..., s...] = params[indices[i...][0], ..., indices[i...][" +
                              num(depth - 1) + "], s...]. Each of the " + num(tuples) +
                              " tuples copies " + num(sliceSize) +
                              (sliceSize == 1 ? " element" : " elements") +
                              "; a component outside its dimension is an error, negative values "
                              "are not counted from the end.",
                          {}});
    plan.outputs.push_back(std::move(out));
    return plan;
}

// ---------------------------------------------------------------------------------------------
// unique_with_counts

// unique's table: from a value's key to its number in order of first occurrence. Flat, with open
// addressing and linear probing, doubled when three quarters full: no node per value and no
// allocation per insert, where std::unordered_map spent most of its time. (Doubled when half
// full, with a count in each slot, 10^7 distinct values took 2^25 slots of 12 bytes, 400 MB,
// beside the 200 MB they grew from; the allocator keeps that peak for the next request.) The
// slot's home is the top bits of key * 2^64/phi (Fibonacci hashing), which depend on every key
// bit.
template <class Key> class DistinctTable
{
    struct Slot
    {
        Key key;
        std::int32_t id; // -1: empty
    };

public:
    /// Bytes a table holding `distinct` values may take, while it doubles included: just doubled,
    /// 8/3 slots a value, beside the 4/3 it grew from.
    static constexpr std::int64_t kBytesPerValue = 4 * std::int64_t(sizeof(Slot));

    /// The id of `key`: its existing one (same(id) confirms a match of equal keys), or `newId`,
    /// which it then gets. At most `later` keys come after it: a table three quarters full is
    /// not doubled if they cannot fill it past seven eighths (10^7 random values, 6.3 million
    /// distinct, doubled it to 2^24 slots for their last 0.5%, a third of the op's time).
    template <class Same>
    std::int32_t insert(Key key, std::int32_t newId, std::int64_t later, const Same& same)
    {
        const auto wanted = std::size_t(m_size + 1);
        if (4 * wanted > 3 * m_slots.size() &&
            8 * (wanted + std::size_t(later)) > 7 * m_slots.size())
            grow();
        for (std::size_t pos = home(key);; pos = (pos + 1) & (m_slots.size() - 1)) {
            Slot& s = m_slots[pos];
            if (s.id < 0) {
                s = {key, newId};
                ++m_size;
                return newId;
            }
            if (s.key == key && same(s.id)) return s.id;
        }
    }

    /// Starts fetching the slot where a lookup of `key` begins.
    void prefetch(Key key) const
    {
        if (!m_slots.empty()) __builtin_prefetch(&m_slots[home(key)], 1);
    }

private:
    std::size_t home(Key key) const
    {
        return std::size_t((std::uint64_t(key) * 0x9E3779B97F4A7C15ull) >> m_shift);
    }

    void grow()
    {
        std::vector<Slot> old(m_slots.empty() ? 512 : m_slots.size() * 2, Slot{Key(), -1});
        old.swap(m_slots);
        m_shift = 64 - std::countr_zero(m_slots.size());
        constexpr std::size_t kAhead = 16; // as in findDistinct
        for (std::size_t k = 0; k < old.size(); ++k) {
            if (k + kAhead < old.size() && old[k + kAhead].id >= 0)
                __builtin_prefetch(&m_slots[home(old[k + kAhead].key)], 1);
            const Slot& s = old[k];
            if (s.id < 0) continue;
            std::size_t pos = home(s.key);
            while (m_slots[pos].id >= 0)
                pos = (pos + 1) & (m_slots.size() - 1);
            m_slots[pos] = s;
        }
    }

    std::vector<Slot> m_slots;
    std::size_t m_size = 0;
    int m_shift = 64;
};

// The key a value is compared by: its bits (unsigned, as wide as the value, at least 32 bits)
// or, for strings, their hash (same() then compares the strings).
template <class T>
using DistinctKey = std::conditional_t<std::is_same_v<T, std::string> || sizeof(T) >= 8,
                                       std::uint64_t, std::uint32_t>;

// For each element, the number of its distinct value in order of first occurrence (written to
// idx); where each distinct value first occurs; how often each occurs. Equality is C++ ==, as in
// TensorFlow's hash map: every NaN is new, -0.0 and +0.0 are one value.
// The key of a value other than NaN: -0.0 and +0.0 get one key; strings their hash.
template <class T> DistinctKey<T> distinctKey(const T& v)
{
    using Key = DistinctKey<T>;
    if constexpr (std::is_same_v<T, std::string>) {
        return Key(std::hash<std::string_view>{}(v));
    } else if constexpr (std::is_floating_point_v<T>) {
        using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
        return Key(std::bit_cast<Bits>(v == T(0) ? T(0) : v));
    } else if constexpr (kIsHalfFloat<T>) {
        return Key((v.bits & 0x7fffu) == 0 ? 0u : v.bits); // -0 is +0
    } else if constexpr (std::is_same_v<T, bool>) {
        return Key(v);
    } else {
        return Key(std::make_unsigned_t<T>(v));
    }
}

// findDistinct for integers whose values lie within a span of at most twice their count (labels,
// class ids, an arange): the table is indexed by value - min, 4 bytes for each value of the span
// (at most 8 per element, a quarter of what the hash table may take), with no hashing or probing,
// and values in order read it in order (10^7 distinct int32, an arange, went through a hash table
// doubled 15 times to 2^24 slots, 128 MB: the workbench's first unique at 10^7 took 0.6-1.1 s at
// load 12, 0.3-0.75 s now). Returns nullopt for a wider span.
template <class T, class Idx>
std::optional<std::int64_t> findDistinctInSpan(const T* x, std::int64_t n, Idx* idx)
{
    if (n == 0) return std::nullopt;
    T lo = x[0], hi = x[0];
    for (std::int64_t i = 1; i < n; ++i) {
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
    }
    // Modulo 2^64 the difference of the values as unsigned is their true difference.
    const std::uint64_t span = std::uint64_t(hi) - std::uint64_t(lo);
    if (span >= std::uint64_t(2 * n)) return std::nullopt;
    std::vector<std::int32_t> ids(std::size_t(span + 1), -1);
    std::int32_t next = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        std::int32_t& id = ids[std::size_t(std::uint64_t(x[i]) - std::uint64_t(lo))];
        const bool fresh = id < 0; // without a branch: random values would mispredict it
        id = fresh ? next : id;
        next += std::int32_t(fresh);
        idx[i] = Idx(id);
    }
    return next;
}

// For each element, the number of its distinct value in order of first occurrence (written to
// idx); returns the number of distinct values. Equality is C++ ==, as in TensorFlow's hash map:
// every NaN is new, -0.0 and +0.0 are one value.
template <class T, class Idx> std::int64_t findDistinct(const T* x, std::int64_t n, Idx* idx)
{
    if constexpr (std::is_integral_v<T>)
        if (const std::optional<std::int64_t> distinct = findDistinctInSpan(x, n, idx))
            return *distinct;
    // Many distinct values make a table larger than the caches, where every lookup would wait
    // for memory: the slot of a value this far ahead is fetched while the current one is looked
    // up (string keys are hashed once only, so they are not fetched ahead).
    constexpr std::int64_t kAhead = 16;
    DistinctTable<DistinctKey<T>> table;
    // Strings with equal hashes are compared by their text: where each string value first occurs.
    std::vector<std::int32_t> stringFirsts;
    std::int32_t next = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        if constexpr (!std::is_same_v<T, std::string>)
            if (i + kAhead < n) table.prefetch(distinctKey(x[i + kAhead]));
        std::int32_t id = next;
        // NaN is never equal to anything: a value of its own, kept out of the table.
        if constexpr (kIsRealFloat<T>)
            if (std::isnan(realValue(x[i]))) id = -1;
        if (id == -1)
            id = next;
        else if constexpr (std::is_same_v<T, std::string>)
            id = table.insert(distinctKey(x[i]), next, n - 1 - i, [&](std::int32_t k) {
                return x[stringFirsts[std::size_t(k)]] == x[i];
            });
        else
            id =
                table.insert(distinctKey(x[i]), next, n - 1 - i, [](std::int32_t) { return true; });
        if (id == next) {
            ++next;
            if constexpr (std::is_same_v<T, std::string>) stringFirsts.push_back(std::int32_t(i));
        }
        idx[i] = Idx(id);
    }
    return next;
}

// Where each distinct value first occurs (unless `first` is null) and how often it occurs, from
// idx in one pass: the values are numbered in order of first occurrence, so the first element
// whose number is one past the highest seen so far is that value's first occurrence. (Kept while
// the table was built, they were two 8-byte lists and a count in every slot.)
template <class Idx, class Row>
void writeFirstsAndCounts(const Idx* idx, std::int64_t n, Row* first, Idx* count,
                          std::int64_t distinct)
{
    std::fill_n(count, distinct, Idx(0));
    // Counts of many distinct values do not fit the caches: the one this far ahead is fetched.
    constexpr std::int64_t kAhead = 16;
    std::int64_t next = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        if (i + kAhead < n) __builtin_prefetch(&count[idx[i + kAhead]], 1);
        if (idx[i] == next) {
            if (first) first[next] = Row(i);
            ++next;
        }
        ++count[idx[i]];
    }
}

// Whether the first `distinct` elements are the distinct values (idx[i] == i for each of them):
// then y is x[:distinct], every x when its values are all distinct. Stops at the first repeat.
template <class Idx> bool distinctValuesComeFirst(const Idx* idx, std::int64_t distinct)
{
    for (std::int64_t i = 0; i < distinct; ++i)
        if (idx[i] != Idx(i)) return false;
    return true;
}

// Calls f with idx's values, writable, as int32 or int64 (out_idx).
template <class F> void withIdx(Tensor& idx, F&& f)
{
    if (idx.dtype() == DType::Int32)
        f(idx.data<std::int32_t>());
    else
        f(idx.data<std::int64_t>());
}

OpPlan uniqueWithCounts(const OpCall& call)
{
    const Tensor& x = call.input("x");
    const std::optional<DType> outIdx = dtypeAttr(call, "out_idx");
    const DType idxType = outIdx.value_or(DType::Int32);
    if (idxType != DType::Int32 && idxType != DType::Int64)
        invalidArgument("out_idx must be int32 or int64, not " + dtypeText(idxType));
    if (x.size() > std::numeric_limits<std::int32_t>::max())
        invalidArgument("unique does not support input tensors larger than 2147483647 elements");
    if (x.rank() != 1) invalidArgument("unique expects a 1D vector.");
    // TF_CALL_REAL_NUMBER_TYPES, string and bool: complex numbers have no kernel.
    requireRealNumbers(call, "x", {DType::Bool, DType::String});
    const std::int64_t n = x.size();
    call.limits().check({n}, idxType, "idx");
    // Working memory while the distinct values are found, at worst (every value distinct): the
    // table, and for strings where each first occurs (4 bytes, with room to grow).
    std::int64_t workingBytesPerElement = 0;
    visitDType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!kIsComplex<T>)
            workingBytesPerElement = DistinctTable<DistinctKey<T>>::kBytesPerValue +
                                     (std::is_same_v<T, std::string> ? 8 : 0);
    });
    call.limits().charge(n * workingBytesPerElement,
                         "unique's working memory for " + num(n) + " elements");

    Tensor idxValues = Tensor::empty(idxType, {n}, call.limits());
    std::int64_t distinct = 0;
    visitDType(x.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!kIsComplex<T>) // refused above
            withIdx(idxValues, [&](auto* idx) { distinct = findDistinct(x.data<T>(), n, idx); });
    });

    OpPlan plan;
    OutputPlan y = newOutput(call, x.dtype(), {distinct}, "y");
    Tensor counts = Tensor::empty(idxType, {distinct}, call.limits());
    bool prefix = false;
    withIdx(idxValues, [&](auto* idx) { prefix = distinctValuesComeFirst(idx, distinct); });
    if (distinct > 0 && prefix) {
        // y is a run of x, copied as one block (all of x: shared, not copied), with no row
        // numbers: a 10^7-element first evaluation of distinct values wrote 40 MB of fresh
        // numbers and copied x row by row into a fresh y.
        y.pieces.push_back(AffinePiece{
            .slot = call.slot("x"), .extents = {distinct}, .inStrides = {1}, .outStrides = {1}});
        withIdx(idxValues, [&](auto* idx) {
            using I = std::remove_pointer_t<decltype(idx)>;
            writeFirstsAndCounts(idx, n, static_cast<I*>(nullptr), counts.data<I>(), distinct);
        });
    } else if (distinct > 0) {
        IndexPiece rows = rowNumbers(call, call.slot("x"), n, distinct, 1);
        withRowNumbers(rows, [&](auto* first) {
            withIdx(idxValues, [&](auto* idx) {
                using I = std::remove_pointer_t<decltype(idx)>;
                writeFirstsAndCounts(idx, n, first, counts.data<I>(), distinct);
            });
        });
        y.pieces.push_back(std::move(rows));
    }
    OutputPlan idxOut = newOutput(call, idxType, {n}, "idx");
    idxOut.computed = std::move(idxValues);
    OutputPlan countOut = newOutput(call, idxType, {distinct}, "count");
    countOut.computed = std::move(counts);
    plan.outputs = {std::move(y), std::move(idxOut), std::move(countOut)};

    plan.steps.push_back({"Distinct values",
                          "x has " + num(n) + " elements and " + num(distinct) +
                              " distinct values. y lists them in the order they first occur "
                              "(not sorted); each is copied from its first occurrence.",
                          {},
                          {0},
                          {0}});
    plan.steps.push_back({"idx and count",
                          "idx[i] is the position in y of x[i], so y[idx[i]] == x[i]; count[k] is "
                          "how often y[k] occurs in x. Both have dtype " +
                              dtypeText(idxType) + " (out_idx).",
                          {}});
    if (isFloat(x.dtype()))
        plan.steps.push_back({"Float equality",
                              "Values are compared with ==: every NaN is a distinct value of its "
                              "own, and -0.0 and +0.0 are the same value (the first one seen is "
                              "kept).",
                              {}});
    return plan;
}

// ---------------------------------------------------------------------------------------------
// dynamic_partition

// More outputs than this would only describe an unreadable response; refused up front.
constexpr std::int64_t kMaxPartitions = std::int64_t(1) << 16;

OpPlan dynamicPartition(const OpCall& call)
{
    const Tensor& data = call.input("data");
    const Tensor& partitions = call.input("partitions");
    requireDType(partitions, "partitions", {DType::Int32});
    const std::int64_t n = call.requireInt("num_partitions");
    checkAttrMinimum("num_partitions", n, 1);
    if (n > kMaxPartitions)
        throw OpError(ErrorCode::ResourceExhausted, "num_partitions " + num(n) +
                                                        " would make more outputs than SliceScope "
                                                        "handles (" +
                                                        num(kMaxPartitions) + ")");
    const Shape& ds = data.shape();
    const Shape& pshape = partitions.shape();
    if (pshape.size() > ds.size() || !std::equal(pshape.begin(), pshape.end(), ds.begin()))
        invalidArgument("data.shape must start with partitions.shape, got data.shape = " +
                        shapeString(ds) + ", partitions.shape = " + shapeString(pshape));
    const std::int32_t* part = partitions.data<std::int32_t>();
    std::vector<std::int64_t> counts(std::size_t(n), 0);
    for (std::int64_t i = 0; i < partitions.size(); ++i) {
        if (part[i] < 0 || part[i] >= n)
            invalidArgument("partitions" + position(pshape, i) + " = " + num(part[i]) +
                            " is not in [0, " + num(n) + ")");
        ++counts[std::size_t(part[i])];
    }

    OpPlan plan;
    const Shape sliceShape = subShape(ds, pshape.size(), ds.size());
    // With no partitions nothing is copied, and an empty data's slice may be too big to count.
    const std::int64_t inner = partitions.size() == 0 ? 0 : numElements(sliceShape);
    std::vector<IndexPiece> rows;
    const int slot = call.slot("data");
    for (std::int64_t k = 0; k < n; ++k) {
        plan.outputs.push_back(newOutput(call, data.dtype(),
                                         joinShapes({{counts[std::size_t(k)]}, sliceShape}),
                                         "output " + num(k)));
        rows.push_back(
            rowNumbers(call, slot, partitions.size(), inner ? counts[std::size_t(k)] : 0, inner));
    }
    if (inner > 0) {
        // Every partition's numbers have one type; each partition's next row, in order.
        withRowNumbers(rows.front(), [&](auto* first) {
            using I = std::remove_pointer_t<decltype(first)>;
            std::vector<I*> next;
            for (IndexPiece& piece : rows)
                next.push_back(piece.indices.data<I>());
            for (std::int64_t j = 0; j < partitions.size(); ++j)
                *next[std::size_t(part[j])]++ = I(j);
        });
    }
    for (std::int64_t k = 0; k < n; ++k)
        plan.outputs[std::size_t(k)].pieces.push_back(std::move(rows[std::size_t(k)]));

    const auto pr = pshape.size();
    plan.steps.push_back({"Slices",
                          "partitions has shape " + shapeTuple(pshape) + ", the start of data's " +
                              shapeTuple(ds) +
                              ": each partition number sends one slice data[js, ...] of shape " +
                              shapeTuple(sliceShape) + " to output partitions[js].",
                          {},
                          dimRange(0, pr),
                          {}});
    const std::string sizes = joinInts(counts);
    plan.steps.push_back({"Output shapes",
                          "Output k has shape [count of k in partitions] + " +
                              shapeTuple(sliceShape) + "; the counts for k = 0.." + num(n - 1) +
                              " are " + sizes +
                              ". Slices keep their row-major order within each output; a "
                              "partition number that never occurs gives a 0-row output.",
                          {},
                          {},
                          {0}});
    return plan;
}

// ---------------------------------------------------------------------------------------------
// dynamic_stitch

// How many distinct rows in [0, rows) the (range-checked) indices name: one bitmap per part of
// the indices, filled in parallel, then merged.
std::int64_t distinctRows(const OpCall& call, const std::vector<Tensor>& indices, std::int64_t rows)
{
    std::int64_t total = 0;
    for (const Tensor& t : indices)
        total += t.size();
    constexpr std::int64_t kGrain = std::int64_t(1) << 16;
    const std::int64_t parts = std::clamp<std::int64_t>(
        total / kGrain, 1, call.executor() ? call.executor()->threadCount() : 1);
    const auto words = std::size_t((rows + 63) / 64);
    call.limits().charge(parts * std::int64_t(words) * 8, "dynamic_stitch's row bitmaps");
    std::vector<std::vector<std::uint64_t>> bitmaps(static_cast<std::size_t>(parts));
    planParallelFor(call, parts, 1, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t q = begin; q < end; ++q) {
            std::vector<std::uint64_t>& bits = bitmaps[std::size_t(q)];
            bits.assign(words, 0);
            // Part q covers positions [from, to) of all the indices, taken one tensor after
            // another.
            const std::int64_t from = total * q / parts;
            const std::int64_t to = total * (q + 1) / parts;
            std::int64_t at = 0;
            for (const Tensor& t : indices) {
                const std::int32_t* idx = t.data<std::int32_t>();
                const std::int64_t lo = std::max<std::int64_t>(from - at, 0);
                const std::int64_t hi = std::min<std::int64_t>(to - at, t.size());
                for (std::int64_t i = lo; i < hi; ++i)
                    bits[std::size_t(idx[i]) / 64] |= std::uint64_t(1) << (idx[i] % 64);
                at += t.size();
            }
        }
    });
    std::int64_t named = 0;
    for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t word = 0;
        for (const auto& bits : bitmaps)
            word |= bits[w];
        named += std::popcount(word);
    }
    return named;
}

OpPlan dynamicStitch(const OpCall& call)
{
    const std::vector<Tensor>& indices = call.inputList("indices");
    const std::vector<Tensor>& data = call.inputList("data");
    if (indices.empty()) invalidArgument("dynamic_stitch needs at least one indices tensor");
    if (indices.size() != data.size())
        invalidArgument("dynamic_stitch needs one data tensor per indices tensor, got " +
                        num(std::int64_t(indices.size())) + " indices and " +
                        num(std::int64_t(data.size())) + " data tensors");
    for (std::size_t m = 0; m < indices.size(); ++m) {
        requireDType(indices[m], "indices[" + num(std::int64_t(m)) + "]", {DType::Int32});
        if (data[m].dtype() != data[0].dtype())
            invalidArgument("data[" + num(std::int64_t(m)) + "] has dtype " +
                            dtypeText(data[m].dtype()) + " but data[0] has " +
                            dtypeText(data[0].dtype()) +
                            "; every data tensor must have the same dtype");
    }

    // 1. The first dimension is max index + 1; then every index must lie in [0, that).
    std::int64_t maxIndex = -1;
    std::vector<ValueRange> ranges;
    for (const Tensor& t : indices) {
        ranges.push_back(t.size() ? componentRanges(call, t.data<std::int32_t>(), t.size(), 1)[0]
                                  : ValueRange{0, -1});
        maxIndex = std::max(maxIndex, ranges.back().max);
    }
    const std::int64_t first = maxIndex + 1;
    for (std::size_t m = 0; m < indices.size(); ++m) {
        if (ranges[m].min >= 0) continue;
        const std::int32_t* idx = indices[m].data<std::int32_t>();
        for (std::int64_t i = 0; i < indices[m].size(); ++i)
            if (idx[i] < 0 || idx[i] >= first)
                outOfRange("indices[" + num(i) + "] is out of range");
    }

    // 2. Every data[m] is indices[m].shape + one common slice shape.
    const Shape& i0 = indices[0].shape();
    const Shape& d0 = data[0].shape();
    for (std::size_t m = 0; m < indices.size(); ++m) {
        const Shape& is = indices[m].shape();
        const Shape& ds = data[m].shape();
        const std::string mm = num(std::int64_t(m));
        if (is.size() > ds.size() || !std::equal(is.begin(), is.end(), ds.begin()))
            invalidArgument("data[" + mm + "].shape = " + shapeString(ds) +
                            " does not start with indices[" + mm + "].shape = " + shapeString(is));
        if (m > 0 && (ds.size() - is.size() != d0.size() - i0.size() ||
                      !std::equal(ds.begin() + std::ptrdiff_t(is.size()), ds.end(),
                                  d0.begin() + std::ptrdiff_t(i0.size()))))
            invalidArgument("Need data[0].shape[" + num(std::int64_t(i0.size())) + ":] = data[" +
                            mm + "].shape[" + num(std::int64_t(is.size())) +
                            ":], got data[0].shape = " + shapeString(d0) + ", data[" + mm +
                            "].shape = " + shapeString(ds) + ", indices[0].shape = " +
                            shapeString(i0) + ", indices[" + mm + "].shape = " + shapeString(is));
    }
    const Shape sliceShape = subShape(d0, i0.size(), d0.size());
    const Shape outShape = joinShapes({{first}, sliceShape});
    OutputPlan out = newOutput(call, data[0].dtype(), outShape, "the output");

    // 3. Each data[m] is scattered to the rows its indices name, in order of m, then i: the last
    //    writer of a row wins. Rows no index names are zero, filled first.
    OpPlan plan;
    const std::int64_t inner = numElements(sliceShape);
    std::int64_t duplicates = 0;
    std::int64_t unwritten = 0;
    if (numElements(outShape) > 0) {
        const std::int64_t named = distinctRows(call, indices, first);
        std::int64_t total = 0;
        for (const Tensor& t : indices)
            total += t.size();
        duplicates = total - named;
        unwritten = first - named;
        if (unwritten > 0)
            out.pieces.push_back(
                OutputPlan::fillPiece(out.addConstant(Tensor::zeros(out.dtype, {})), outShape));
        for (std::size_t m = 0; m < indices.size(); ++m) {
            if (indices[m].size() == 0) continue;
            IndexPiece piece;
            piece.slot = call.slot("data", int(m));
            piece.indices = indices[m];
            piece.rowLength = inner;
            piece.count = indices[m].size();
            piece.indexStrides = {inner};
            piece.scatter = true;
            piece.distinctTargets = duplicates == 0;
            piece.targetRows = first;
            out.pieces.push_back(std::move(piece));
        }
    }
    plan.outputs.push_back(std::move(out));

    plan.steps.push_back({"First dimension",
                          "The largest index is " + num(maxIndex) + ", so merged has " +
                              num(first) + " rows (max + 1). Every index must lie in [0, " +
                              num(first) + "): only a negative one can fail.",
                          {},
                          {},
                          {0}});
    plan.steps.push_back({"Output shape",
                          "Each data[m] has shape indices[m].shape + " + shapeTuple(sliceShape) +
                              ", so merged has shape (" + num(first) + ",) + " +
                              shapeTuple(sliceShape) + " = " + shapeTuple(outShape) + ".",
                          {}});
    plan.steps.push_back({"Rule",
                          "merged[indices[m][i...], ...] = data[m][i..., ...], taken in order of "
                          "m, then i: where an index repeats, the later slice wins (" +
                              num(duplicates) + (duplicates == 1 ? " row" : " rows") +
                              " overwritten here).",
                          {}});
    if (unwritten > 0)
        plan.steps.push_back({"Rows never written",
                              num(unwritten) + (unwritten == 1 ? " row is" : " rows are") +
                                  " named by no index. TensorFlow's CPU kernel fills them with "
                                  "zeros, and so does SliceScope.",
                              {}});
    return plan;
}

// ---------------------------------------------------------------------------------------------
// boolean_mask

// Python's shape[start:stop] for a slice with step 1.
Shape pythonSlice(const Shape& shape, std::int64_t start, std::int64_t stop)
{
    const auto n = std::int64_t(shape.size());
    auto clampIndex = [n](std::int64_t i) {
        return i < 0 ? std::max<std::int64_t>(i + n, 0) : std::min(i, n);
    };
    start = clampIndex(start);
    stop = clampIndex(stop);
    return stop > start ? subShape(shape, std::size_t(start), std::size_t(stop)) : Shape{};
}

OpPlan booleanMask(const OpCall& call)
{
    const Tensor& tensor = call.input("tensor");
    const Tensor& mask = call.input("mask");
    const Shape& ts = tensor.shape();
    const Shape& ms = mask.shape();
    requireDType(mask, "mask", {DType::Bool});
    if (mask.rank() == 0) invalidArgument("mask cannot be scalar.");
    const std::int64_t axis = call.getInt("axis", 0);
    const auto k = std::int64_t(ms.size());
    // The static shape check on tensor.shape[axis:axis+K], with Python's slice rules: a negative
    // axis only passes when the slice still has K dimensions before the end.
    const std::int64_t stop = axis > std::numeric_limits<std::int64_t>::max() - k
                                  ? std::numeric_limits<std::int64_t>::max()
                                  : axis + k;
    const Shape covered = pythonSlice(ts, axis, stop);
    if (covered != ms)
        invalidArgument("Shapes " + shapeTuple(covered) + " and " + shapeTuple(ms) +
                        " are incompatible");
    const auto ax = std::size_t(axis < 0 ? axis + tensor.rank() : axis);
    const auto end = ax + ms.size();

    // Read as bytes, so that counting and choosing agree on any nonzero byte.
    const auto* m = static_cast<const std::uint8_t*>(mask.raw());
    const auto count = mask.size() - std::int64_t(std::count(m, m + mask.size(), 0));
    const Shape outShape = joinShapes({subShape(ts, 0, ax), {count}, subShape(ts, end, ts.size())});
    OutputPlan out = newOutput(call, tensor.dtype(), outShape, "the output");
    const std::int64_t span = mask.size();
    if (numElements(outShape) > 0) {
        // A non-empty output bounds these products; an empty tensor's may pass int64.
        const std::int64_t outer = product(ts, 0, ax);
        const std::int64_t inner = product(ts, end, ts.size());
        const std::int64_t first = std::find_if(m, m + span, [](std::uint8_t b) { return b; }) - m;
        if (std::find(m + first, m + first + count, 0) == m + first + count) {
            // The true entries are one run (all of the mask, a prefix such as a sequence mask's):
            // the output is a slice, copied a block at a time (all of the tensor: shared), with
            // no row numbers. A 10^7-element first evaluation of an all-true mask wrote 40 MB of
            // fresh numbers, then copied the tensor row by row into a fresh output.
            out.pieces.push_back(AffinePiece{.slot = call.slot("tensor"),
                                             .inOffset = first * inner,
                                             .extents = {outer, count, inner},
                                             .inStrides = {span * inner, inner, 1},
                                             .outStrides = {count * inner, inner, 1}});
        } else {
            // Branch-free (a random mask mispredicts every other branch): each position is written
            // to the next free row, which only advances past a true one; +1 for the last write.
            IndexPiece rows = rowNumbers(call, call.slot("tensor"), span, count + 1, inner);
            withRowNumbers(rows, [&](auto* picked) {
                using I = std::remove_pointer_t<decltype(picked)>;
                std::int64_t n = 0;
                for (std::int64_t i = 0; i < span; ++i) {
                    picked[n] = I(i);
                    n += m[i] != 0;
                }
            });
            // Every outer block picks the same rows, one block further on: one list serves them
            // all.
            rows.count = count;
            rows.groups = outer;
            rows.groupsPerBlock = outer;
            rows.groupStride = span * inner;
            out.pieces.push_back(std::move(rows));
        }
    }

    OpPlan plan;
    plan.outputs.push_back(std::move(out));
    plan.steps.push_back({"Mask placement",
                          "mask has shape " + shapeTuple(ms) + "; from axis " + num(axis) +
                              (axis < 0 ? " (" + num(std::int64_t(ax)) + ")" : "") +
                              " it covers tensor dimensions " + num(std::int64_t(ax)) + " to " +
                              num(std::int64_t(end) - 1) + " of " + shapeTuple(ts) +
                              ", which must match it exactly.",
                          {},
                          dimRange(ax, end),
                          {}});
    plan.steps.push_back({"Flatten",
                          "Those dimensions are flattened into one of size " + num(span) +
                              ", and so is the mask: it has " + num(count) + " true " +
                              (count == 1 ? "entry" : "entries") + " in row-major order.",
                          {},
                          dimRange(ax, end),
                          {int(ax)}});
    plan.steps.push_back({"Output shape",
                          shapeTuple(subShape(ts, 0, ax)) + " + (" + num(count) + ",) + " +
                              shapeTuple(subShape(ts, end, ts.size())) + " = " +
                              shapeTuple(outShape) +
                              ": output[..., i, ...] is the slice at the i-th true mask entry "
                              "(a gather of where(mask) along axis " +
                              num(std::int64_t(ax)) + ").",
                          {},
                          {},
                          {int(ax)}});
    return plan;
}

// ---------------------------------------------------------------------------------------------
// one_hot and sequence_mask: every output element is one of two constants

// Where each output line is `lineLength` elements of which a prefix or one position is on, every
// line is one row reading a window of the constants: `before` off values, `on` on values, then
// `after` off values. The window is as long as about two lines.
Tensor constantWindow(const OpCall& call, const Tensor& onValue, const Tensor& offValue,
                      std::int64_t before, std::int64_t on, std::int64_t after)
{
    Tensor window = Tensor::empty(onValue.dtype(), {before + on + after}, call.limits());
    const int width = dtypeSize(onValue.dtype());
    for (std::int64_t k = 0; k < window.size(); ++k) {
        const Tensor& v = k >= before && k < before + on ? onValue : offValue;
        if (v.dtype() == DType::String)
            window.data<std::string>()[k] = v.data<std::string>()[0];
        else
            std::memcpy(static_cast<char*>(window.raw()) + k * width, v.raw(), std::size_t(width));
    }
    return window;
}

// The shape of an attribute read as a Python literal (from its list nesting) and its first
// scalar, which decides the dtype Python would infer.
std::pair<Shape, const Attr*> literalShape(const Attr& a)
{
    Shape shape;
    const Attr* leaf = &a;
    while (leaf->isList()) {
        shape.push_back(std::int64_t(leaf->toList().size()));
        if (leaf->toList().empty()) return {shape, nullptr};
        leaf = &leaf->toList().front();
    }
    return {shape, leaf};
}

// The dtype tf.convert_to_tensor gives a Python scalar, trying `hint` first as TensorFlow does.
DType pythonDType(const Attr* leaf, std::optional<DType> hint, const std::string& what)
{
    if (!leaf) // an empty list
        return hint.value_or(DType::Float32);
    if (leaf->isBool()) return DType::Bool;
    if (leaf->isString()) return DType::String;
    if (leaf->isFloat())
        return hint && (isFloat(*hint) || isComplex(*hint)) ? *hint : DType::Float32;
    if (!leaf->isInt()) badRequest("attribute '" + what + "' must be a number, bool or string");
    const std::int64_t v = leaf->toInt();
    if (hint && (isFloat(*hint) || isComplex(*hint) ||
                 (isInteger(*hint) && v >= integerMin(*hint) && v <= integerMax(*hint))))
        return *hint;
    return v >= integerMin(DType::Int32) && v <= integerMax(DType::Int32) ? DType::Int32
                                                                          : DType::Int64;
}

Tensor scalarOf(DType dtype, const Attr& value)
{
    if (value.isString()) return Tensor::scalar(dtype, value.toString());
    if (value.isFloat()) return Tensor::scalar(dtype, value.toDouble());
    return Tensor::scalar(dtype, value.isBool() ? std::int64_t(value.toBool()) : value.toInt());
}

OpPlan oneHot(const OpCall& call)
{
    const Tensor& indices = call.input("indices");
    OpPlan plan;

    // 1. Python's dtype rules for on_value, off_value and dtype, before the op is built.
    const Attr* on = givenAttr(call, "on_value");
    const Attr* off = givenAttr(call, "off_value");
    const std::optional<DType> requested = dtypeAttr(call, "dtype");
    const auto onLiteral = on ? literalShape(*on) : std::pair<Shape, const Attr*>{};
    const auto offLiteral = off ? literalShape(*off) : std::pair<Shape, const Attr*>{};
    // What each given value converts to (the dtype argument is tried first); unused when absent.
    const DType onType =
        on ? pythonDType(onLiteral.second, requested, call.spelledAs("on_value")) : DType::Float32;
    const DType offType =
        off ? pythonDType(offLiteral.second, requested, call.spelledAs("off_value"))
            : DType::Float32;
    if (requested && on && onType != *requested)
        invalidArgument("dtype " + dtypeText(onType) +
                        " of on_value does not match dtype parameter " + dtypeText(*requested));
    if (requested && off && offType != *requested)
        invalidArgument("dtype " + dtypeText(offType) +
                        " of off_value does not match dtype parameter " + dtypeText(*requested));
    const DType dtype = requested ? *requested : on ? onType : offType;
    // The defaults are the Python ints 1 and 0, which convert to numbers only.
    const bool numeric = dtype != DType::Bool && dtype != DType::String;
    if (!on && !numeric)
        invalidArgument("Cannot convert 1 to EagerTensor of dtype " + dtypeText(dtype));
    if (!off && !numeric)
        invalidArgument("Cannot convert 0 to EagerTensor of dtype " + dtypeText(dtype));
    if (on && off && onType != offType)
        invalidArgument("dtype " + dtypeText(onType) + " of on_value does not match dtype " +
                        dtypeText(offType) + " of off_value");
    requireDType(indices, "indices", {DType::UInt8, DType::Int8, DType::Int32, DType::Int64});
    plan.steps.push_back({"Output dtype",
                          dtypeText(dtype) +
                              (requested ? " (the dtype argument)"
                               : on      ? " (from on_value)"
                               : off     ? " (from off_value)"
                                         : " (the default when no value or dtype is given)") +
                              ". on_value " + (on ? "is given" : "defaults to 1") + ", off_value " +
                              (off ? "is given" : "defaults to 0") + ".",
                          {}});

    // 2. The kernel's checks.
    const std::int64_t axis = call.getInt("axis", -1);
    const int outRank = indices.rank() + 1;
    if (axis != -1 && (axis < 0 || axis >= outRank))
        invalidArgument("Expected axis to be -1 or between [0, " + num(outRank) +
                        ").  But received: " + num(axis));
    const IntTensor depthArg = call.intTensor("depth");
    // TensorFlow prints the shape it got; the value given is what the user recognises.
    if (!depthArg.shape.empty())
        invalidArgument("depth must be a scalar, but got: " + shapeString(depthArg.shape) +
                        " (the shape of the list " +
                        (depthArg.values.size() <= 8
                             ? listString(depthArg.values)
                             : "of " + num(std::int64_t(depthArg.values.size())) + " values") +
                        " given as depth; give one integer)");
    if (!onLiteral.first.empty())
        invalidArgument("on_value must be a scalar, but got: " + shapeString(onLiteral.first));
    if (!offLiteral.first.empty())
        invalidArgument("off_value must be a scalar, but got: " + shapeString(offLiteral.first));
    const std::int64_t depth = depthArg.values[0];
    if (depth > integerMax(DType::Int32) || depth < integerMin(DType::Int32))
        invalidArgument("Cannot convert " + num(depth) + " to EagerTensor of dtype int32");
    if (depth < 0) invalidArgument("depth must be non-negative, got: " + num(depth));

    const auto ax = std::size_t(axis == -1 ? indices.rank() : axis);
    const Shape& is = indices.shape();
    const Shape outShape = joinShapes({subShape(is, 0, ax), {depth}, subShape(is, ax, is.size())});
    OutputPlan out = newOutput(call, dtype, outShape, "the output");
    const Tensor onValue = on ? scalarOf(dtype, *on) : Tensor::scalar(dtype, 1);
    const Tensor offValue = off ? scalarOf(dtype, *off) : Tensor::scalar(dtype, 0);

    // out[p, d, s] is on exactly where indices[p, s] == d.
    const std::int64_t suffix = product(is, ax, is.size());
    std::int64_t allOff = 0;
    if (suffix == 1 && numElements(outShape) > 0) {
        // The new axis is the last: line p reads the window [off x depth, on, off x depth] from
        // depth - indices[p], or from 0 (all off) for an index outside [0, depth).
        out.constants = constantWindow(call, onValue, offValue, depth, 1, depth);
        RowsPiece rows = rowList(call, indices.size(), depth);
        rows.constantRuns = true;
        withInts(indices, [&](const auto* idx) {
            for (std::int64_t i = 0; i < indices.size(); ++i) {
                const std::int64_t v = idx[i];
                const bool inRange = v >= 0 && v < depth;
                allOff += !inRange;
                rows.rows.push_back(packSource(kConstantSlot, inRange ? depth - v : 0));
            }
        });
        out.pieces.push_back(std::move(rows));
    } else if (numElements(outShape) > 0) {
        // The new axis is inner: element [p, d, s] reads the same window from d + start[p, s],
        // with start depth - indices[p, s] (or 0). As a gather of the constants, one number per
        // index instead of a constant row per output element (8 bytes each): rows g = p * depth
        // + d of the suffix's length, group g read from g (stride 1) plus the index of [p, s],
        // which is start - p * depth so that only d is left of g.
        const std::int64_t outer = product(is, 0, ax);
        out.constants = constantWindow(call, onValue, offValue, depth, 1, depth);
        IndexPiece starts =
            indexPieceOfCount(call, kConstantSlot, narrowestIndexType(outer * depth),
                              indices.size(), "one_hot's window starts");
        starts.groups = outer * depth;
        starts.count = suffix;
        starts.groupsPerBlock = depth;
        starts.groupStride = 1;
        withInts(indices, [&](const auto* idx) {
            withRowNumbers(starts, [&](auto* start) {
                using I = std::remove_pointer_t<decltype(start)>;
                for (std::int64_t i = 0; i < indices.size(); ++i) {
                    const std::int64_t v = idx[i];
                    const bool inRange = v >= 0 && v < depth;
                    allOff += !inRange;
                    start[i] = I((inRange ? depth - v : 0) - (i / suffix) * depth);
                }
            });
        });
        out.pieces.push_back(std::move(starts));
    }
    plan.outputs.push_back(std::move(out));

    plan.steps.push_back({"Output shape",
                          "indices " + shapeTuple(is) + " with a new dimension of size depth " +
                              num(depth) + " at position " + num(std::int64_t(ax)) +
                              (axis == -1 ? " (axis -1: after the last)" : "") + ": " +
                              shapeTuple(outShape) + ".",
                          {},
                          {},
                          {int(ax)}});
    plan.steps.push_back(
        {"Rule",
         "Along the new dimension, the element at position d is on_value where the "
         "index equals d and off_value elsewhere." +
             (allOff > 0 ? " " + num(allOff) + (allOff == 1 ? " index lies" : " indices lie") +
                               " outside [0, " + num(depth) +
                               "): TensorFlow gives all-off lines for them, with no error."
                         : std::string()),
         {},
         {},
         {int(ax)}});
    return plan;
}

OpPlan sequenceMask(const OpCall& call)
{
    const Tensor& lengths = call.input("lengths");
    requireDType(lengths, "lengths",
                 {DType::Int8, DType::UInt8, DType::Int16, DType::Int32, DType::Int64});
    const std::vector<std::int64_t> len = lengths.toInt64Vector();
    OpPlan plan;

    // maxlen: given (a Python int: int32 when it fits), or max(0, max(lengths)) in lengths' dtype.
    std::int64_t maxlen = 0;
    DType compareType = lengths.dtype();
    if (const Attr* a = givenAttr(call, "maxlen")) {
        const auto [shape, leaf] = literalShape(*a);
        const IntTensor m = toIntTensor(*a, call.spelledAs("maxlen"));
        if (!shape.empty())
            invalidArgument(
                "Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = " +
                listString(m.values) + " with shape '" + shapeTuple(shape) + "' instead");
        maxlen = m.values[0];
        compareType = pythonDType(leaf, std::nullopt, call.spelledAs("maxlen"));
        plan.steps.push_back({"maxlen", "maxlen " + num(maxlen) + " is given.", {}});
    } else {
        for (std::int64_t v : len)
            maxlen = std::max(maxlen, v);
        plan.steps.push_back(
            {"maxlen",
             "maxlen is not given: it is max(0, max(lengths)) = " + num(maxlen) + ".",
             {}});
    }
    if (maxlen < 0) invalidArgument("Requires start <= limit when delta > 0: 0/" + num(maxlen));
    const DType dtype = dtypeAttr(call, "dtype").value_or(DType::Bool);
    if (dtype == DType::String) unimplemented("Cast bool to string is not supported");

    const Shape outShape = joinShapes({lengths.shape(), {maxlen}});
    OutputPlan out = newOutput(call, dtype, outShape, "the output");
    // Lengths are cast to maxlen's dtype before the comparison: an int64 length compared with an
    // int32 maxlen wraps, as in TensorFlow.
    bool wrapped = false;
    if (numElements(outShape) > 0) {
        // Line i is `take` trues then falses: it reads the window [true x maxlen, false x maxlen]
        // from maxlen - take.
        out.constants = constantWindow(call, Tensor::scalar(dtype, 1), Tensor::scalar(dtype, 0), 0,
                                       maxlen, maxlen);
        RowsPiece rows = rowList(call, std::int64_t(len.size()), maxlen);
        rows.constantRuns = true;
        for (std::size_t i = 0; i < len.size(); ++i) {
            const std::int64_t cast =
                compareType == DType::Int32 ? std::int64_t(std::int32_t(len[i])) : len[i];
            wrapped |= cast != len[i];
            const std::int64_t take = std::clamp<std::int64_t>(cast, 0, maxlen);
            rows.rows.push_back(packSource(kConstantSlot, maxlen - take));
        }
        out.pieces.push_back(std::move(rows));
    }
    plan.outputs.push_back(std::move(out));

    plan.steps.push_back({"Output shape",
                          "lengths.shape " + shapeTuple(lengths.shape()) +
                              " + (maxlen,) = " + shapeTuple(outShape) + ".",
                          {},
                          {},
                          {int(outShape.size()) - 1}});
    plan.steps.push_back(
        {"Rule",
         "output[..., j] = j < lengths[...]: each line starts with as many "
         "trues as its length (all of them when the length is at least maxlen, "
         "none when it is 0 or negative)" +
             std::string(dtype == DType::Bool
                             ? "."
                             : ", then cast to " + dtypeText(dtype) + " (1 and 0).") +
             (wrapped ? " Quirk: some int64 lengths do not fit the int32 maxlen and "
                        "wrap when TensorFlow casts them."
                      : ""),
         {},
         {},
         {int(outShape.size()) - 1}});
    return plan;
}

} // namespace

std::vector<OpDef> indexOps()
{
    return {
        {.name = "gather",
         .summary = "tf.gather: slices of params picked by integer indices along an axis",
         .inputs = {{"params"}, {"indices"}},
         .attrs = {{"axis", "0", AttrType::IntsOrNull}, {"batch_dims", "0", AttrType::Int}},
         .outputs = "output",
         .plan = gather,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {4, 3})},
                      {exampleValue(DType::Int32, Attr::List{3, 1, 1})}},
                     {{"axis", Attr(0)}}},
         .family = OpFamily::Index,
         .indexPick = IndexPick::AlongAxis,
         .equivalents =
             {equivalent(Framework::NumPy,
                         "import numpy as np\n\nnp.take(x, indices, axis={axis=0})",
                         "np.take has no batch_dims."),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.gather(x, indices, axis={axis=0}, "
                         "batch_dims={batch_dims=0})"),
              equivalent(Framework::PyTorch,
                         "import torch\n\ntorch.index_select(x, {axis=0}, indices.flatten())"
                         ".reshape(x.shape[:{axis=0}] + indices.shape + x.shape[{axis=0} + 1:])",
                         "index_select takes a 1-D index, so the indices are flattened and the "
                         "shape restored; "
                         "an index out of range raises."),
              equivalent(Framework::Jax,
                         "import jax.numpy as jnp\n\njnp.take(x, indices, axis={axis=0})",
                         "jnp.take fills out-of-range indices (NaN or the type's minimum) instead "
                         "of raising."),
              equivalent(
                  Framework::Onnx,
                  "from onnx import helper\n\nhelper.make_node(\"Gather\", [\"x\", \"indices\"], "
                  "[\"y\"], axis={axis=0})"),
              equivalent(Framework::Paddle,
                         "import paddle\n\npaddle.gather(x, indices, axis={axis=0})",
                         "paddle.gather takes a 1-D index.")}},
        {.name = "gather_nd",
         .summary = "tf.gather_nd: elements or slices of params addressed by index tuples",
         .inputs = {{"params"}, {"indices"}},
         .attrs = {{"batch_dims", "0", AttrType::Int}},
         .outputs = "output",
         .plan = gatherNd,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {3, 4})},
                      {exampleValue(DType::Int32, Attr::List{Attr::List{2, 1}, Attr::List{0, 3},
                                                             Attr::List{1, 0}})}},
                     {}},
         .family = OpFamily::Index,
         .indexPick = IndexPick::Tuples,
         .equivalents =
             {when("batch_dims", "0", "0",
                   equivalent(Framework::NumPy,
                              "import numpy as np\n\nx[tuple(np.moveaxis(indices, -1, 0))]")),
              noEquivalent(Framework::NumPy, "With batch_dims, index each batch entry in turn: "
                                             "NumPy has no batched gather_nd."),
              equivalent(Framework::TensorFlow, "import tensorflow as tf\n\ntf.gather_nd({args})"),
              when("batch_dims", "0", "0",
                   equivalent(Framework::PyTorch,
                              "import torch\n\nx[tuple(indices.long().unbind(-1))]")),
              noEquivalent(Framework::PyTorch, "With batch_dims, index each batch entry in turn: "
                                               "PyTorch has no batched gather_nd."),
              when("batch_dims", "0", "0",
                   equivalent(Framework::Jax,
                              "import jax.numpy as jnp\n\nx[tuple(jnp.moveaxis(indices, -1, 0))]",
                              "JAX clamps out-of-range indices instead of raising.")),
              noEquivalent(
                  Framework::Jax,
                  "With batch_dims, index each batch entry in turn (or jax.vmap over them)."),
              equivalent(Framework::Onnx, "from onnx import helper\n\n# inputs: x, indices "
                                          "(int64)\nhelper.make_node(\"GatherND\", [\"x\", "
                                          "\"indices\"], [\"y\"], batch_dims={batch_dims=0})"),
              when("batch_dims", "0", "0",
                   equivalent(Framework::Paddle, "import paddle\n\npaddle.gather_nd(x, indices)")),
              noEquivalent(Framework::Paddle,
                           "paddle.gather_nd has no batch_dims: index each batch entry in turn.")}},
        {.name = "unique_with_counts",
         .summary = "tf.unique_with_counts: distinct values in order of first occurrence",
         .inputs = {{"x"}},
         .attrs = {{"out_idx", "int32"}},
         .outputs = "y, idx, count",
         .plan = uniqueWithCounts,
         .notation = Notation::Generic,
         .example = {{{exampleValue(DType::Int32, Attr::List{3, 1, 3, 2, 1, 3})}}, {}},
         .family = OpFamily::Index,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.unique_with_counts({args})"),
              equivalent(Framework::Onnx,
                         "from onnx import helper\n\n# y, idx, count are Unique's outputs Y, "
                         "inverse_indices, counts\nhelper.make_node(\"Unique\", [\"x\"], [\"y\", "
                         "\"\", \"idx\", \"count\"], sorted=0)",
                         "ONNX's idx and count are int64 whatever out_idx says."),
              noEquivalent(
                  Framework::NumPy,
                  "NumPy sorts the distinct values; TensorFlow keeps them in order of first "
                  "occurrence (reorder them by the index of their first occurrence)."),
              noEquivalent(
                  Framework::PyTorch,
                  "PyTorch sorts the distinct values; TensorFlow keeps them in order of first "
                  "occurrence (reorder them by the index of their first occurrence)."),
              noEquivalent(Framework::Jax,
                           "JAX sorts the distinct values; TensorFlow keeps them in order of first "
                           "occurrence (reorder them by the index of their first occurrence)."),
              noEquivalent(
                  Framework::Paddle,
                  "PaddlePaddle sorts the distinct values; TensorFlow keeps them in order of first "
                  "occurrence (reorder them by the index of their first occurrence).")}},
        {.name = "dynamic_partition",
         .summary = "tf.dynamic_partition: slices of data sent to the outputs named by partitions",
         .inputs = {{"data"}, {"partitions"}},
         .attrs = {{"num_partitions", "", AttrType::Int}},
         .outputs = "one per partition",
         .plan = dynamicPartition,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {5})},
                      {exampleValue(DType::Int32, Attr::List{0, 1, 2, 1, 0})}},
                     {{"num_partitions", Attr(3)}}},
         .family = OpFamily::Index,
         .equivalents =
             {equivalent(
                  Framework::NumPy,
                  "import numpy as np\n\n[x[partitions == k] for k in range({num_partitions})]"),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.dynamic_partition({args})"),
              equivalent(Framework::PyTorch,
                         "import torch\n\n[x[partitions == k] for k in range({num_partitions})]"),
              equivalent(
                  Framework::Jax,
                  "import jax.numpy as jnp\n\n[x[partitions == k] for k in "
                  "range({num_partitions})]",
                  "A boolean mask works only outside jit: the pieces' sizes depend on the values."),
              noEquivalent(
                  Framework::Onnx,
                  "ONNX has no dynamic_partition: per partition, Equal, NonZero, then GatherND."),
              noEquivalent(Framework::Paddle,
                           "Paddle has no dynamic_partition: per partition, "
                           "paddle.nonzero(partitions == k), then paddle.gather_nd.")}},
        {.name = "dynamic_stitch",
         .summary = "tf.dynamic_stitch: slices of data interleaved into the rows named by indices",
         .inputs = {{"indices", true}, {"data", true}},
         .attrs = {},
         .outputs = "merged",
         .plan = dynamicStitch,
         .notation = Notation::Generic,
         .example = {{{exampleValue(DType::Int32, Attr::List{0, 3, 1}),
                       exampleValue(DType::Int32, Attr::List{2, 4})},
                      {exampleValue(DType::Int32, Attr::List{10, 13, 11}),
                       exampleValue(DType::Int32, Attr::List{12, 14})}},
                     {}},
         .family = OpFamily::Index,
         .equivalents =
             {equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.dynamic_stitch({args})"),
              noEquivalent(Framework::NumPy,
                           "NumPy has no dynamic_stitch: write each data[i]'s rows to the rows its "
                           "indices[i] name, in order (a later write wins)."),
              noEquivalent(Framework::PyTorch,
                           "PyTorch has no dynamic_stitch: write each data[i]'s rows to the rows "
                           "its indices[i] name, in order (a later write wins)."),
              noEquivalent(Framework::Jax,
                           "JAX has no dynamic_stitch: write each data[i]'s rows to the rows its "
                           "indices[i] name, in order (a later write wins)."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no dynamic_stitch: write each data[i]'s rows to the rows its "
                           "indices[i] name, in order (a later write wins)."),
              noEquivalent(Framework::Paddle,
                           "PaddlePaddle has no dynamic_stitch: write each data[i]'s rows to the "
                           "rows its indices[i] name, in order (a later write wins).")}},
        {.name = "boolean_mask",
         .summary = "tf.boolean_mask: the slices where a bool mask is true",
         .inputs = {{"tensor"}, {"mask"}},
         .attrs = {{"axis", "0", AttrType::Int}},
         .outputs = "output",
         .plan = booleanMask,
         .notation = Notation::Generic,
         .example = {{{exampleFill(DType::Int32, {4, 3})},
                      {exampleValue(DType::Bool, Attr::List{true, false, true, true})}},
                     {{"axis", Attr(0)}}},
         .family = OpFamily::Index,
         .equivalents =
             {equivalent(Framework::NumPy, "import numpy as np\n\nx[mask]"),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.boolean_mask(x, mask)"),
              equivalent(Framework::PyTorch, "import torch\n\nx[mask]"),
              noEquivalent(
                  Framework::Jax,
                  "JAX needs a static output shape: a boolean mask works only outside jit."),
              noEquivalent(Framework::Onnx, "ONNX: NonZero, then GatherND."),
              equivalent(Framework::Paddle, "import paddle\n\npaddle.masked_select(x, mask)",
                         "paddle.masked_select flattens the result.")}},
        {.name = "one_hot",
         .summary =
             "tf.one_hot: on_value where the index matches the position, off_value elsewhere",
         .inputs = {{"indices"}},
         .attrs = {{"depth", "", AttrType::Ints},
                   {"on_value", "1"},
                   {"off_value", "0"},
                   {"axis", "-1", AttrType::Int},
                   {"dtype", "float32"}},
         .outputs = "output",
         .plan = oneHot,
         .notation = Notation::Generic,
         .example = {{{exampleValue(DType::Int32, Attr::List{0, 2, -1, 1})}}, {{"depth", Attr(3)}}},
         .family = OpFamily::Index,
         .equivalents =
             {noEquivalent(Framework::NumPy, "NumPy has no one_hot; np.eye(depth)[x] is close but "
                                             "refuses out-of-range indices, "
                                             "which TensorFlow turns into all-off rows."),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.one_hot(x, {depth})"),
              equivalent(Framework::PyTorch,
                         "import torch\n\ntorch.nn.functional.one_hot(x.long(), {depth})",
                         "PyTorch refuses negative or out-of-range indices."),
              equivalent(Framework::Jax, "import jax\n\njax.nn.one_hot(x, {depth})"),
              equivalent(
                  Framework::Onnx,
                  "from onnx import helper\n\n# inputs: x, depth = {depth}, values = [off, on]\n"
                  "helper.make_node(\"OneHot\", [\"x\", \"depth\", \"values\"], [\"y\"])"),
              equivalent(Framework::Paddle,
                         "import paddle\n\npaddle.nn.functional.one_hot(x, {depth})")}},
        {.name = "sequence_mask",
         .summary = "tf.sequence_mask: true for the first lengths[i] positions of each line",
         .inputs = {{"lengths"}},
         .attrs = {{"maxlen", "max of lengths", AttrType::IntsOrNull}, {"dtype", "bool"}},
         .outputs = "output",
         .plan = sequenceMask,
         .notation = Notation::Generic,
         .example = {{{exampleValue(DType::Int32, Attr::List{1, 3, 2})}}, {{"maxlen", Attr(4)}}},
         .family = OpFamily::Index,
         .equivalents =
             {equivalent(Framework::NumPy,
                         "import numpy as np\n\nnp.arange({maxlen=x.max()}) < x[..., None]",
                         "The mask is bool: cast it with .astype for another dtype."),
              equivalent(Framework::TensorFlow,
                         "import tensorflow as tf\n\ntf.sequence_mask({args})"),
              equivalent(Framework::PyTorch,
                         "import torch\n\ntorch.arange({maxlen=x.max()}) < x[..., None]",
                         "The mask is bool: cast it with .to for another dtype."),
              equivalent(Framework::Jax,
                         "import jax.numpy as jnp\n\njnp.arange({maxlen=x.max()}) < x[..., None]",
                         "The mask is bool: cast it with .astype for another dtype."),
              noEquivalent(Framework::Onnx,
                           "ONNX has no sequence_mask: Range, Unsqueeze and Less do it."),
              equivalent(Framework::Paddle,
                         "import paddle\n\npaddle.nn.functional.sequence_mask(x, "
                         "maxlen={maxlen=None}, dtype={dtype='bool'})",
                         "Paddle's own default dtype is int64.")}},
    };
}

} // namespace ss
