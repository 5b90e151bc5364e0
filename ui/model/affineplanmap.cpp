// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/affineplanmap.h"

#include "core/error.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

namespace ss::ui {

namespace {

// A piece's dimensions of extent > 1: more than the engine's rank (views such as tile's double
// it) but a fixed bound, so that coordinates live on the stack.
constexpr int kMaxDims = 64;
using Coords = std::array<std::int64_t, kMaxDims>;

// How many disjointness sub-questions one plan may ask before it is sent down the stored path.
constexpr int kDisjointBudget = 1 << 14;
// A piece split into its slices to compare it with another: at most this many slices.
constexpr std::int64_t kMaxSplit = 64;

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    const std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return -floorDiv(-a, b);
}

bool mulAdd(std::int64_t& acc, std::int64_t a, std::int64_t b)
{
    std::int64_t p = 0;
    return !__builtin_mul_overflow(a, b, &p) && !__builtin_add_overflow(acc, p, &acc);
}

// A side of a piece as a set of flat indices: min + sum q_k * stride_k, 0 <= q_k < extent_k,
// strides positive and largest first. Disjointness only needs the set, not which coordinate
// lands where.
struct SetDim
{
    std::int64_t stride = 0;
    std::int64_t extent = 1;
    bool operator==(const SetDim&) const = default;
};

std::int64_t spanOf(const std::vector<SetDim>& dims, std::size_t from)
{
    std::int64_t span = 0;
    for (std::size_t k = from; k < dims.size(); ++k)
        span += dims[k].stride * (dims[k].extent - 1);
    return span;
}

// Merges dimensions that continue each other (stride == the next smaller's stride * extent),
// so that a contiguous block is one dimension, whatever view the planner described it in.
std::vector<SetDim> setOf(const std::vector<AffinePlanMap::Dim>& dims,
                          const AffinePlanMap::Side& side, bool input)
{
    std::vector<SetDim> set;
    for (int d : side.order) {
        const auto& dim = dims[std::size_t(d)];
        set.push_back({input ? dim.inStride : std::abs(dim.outStride), dim.extent});
    }
    std::vector<SetDim> merged;
    for (auto it = set.rbegin(); it != set.rend(); ++it) {
        if (!merged.empty() && merged.back().stride * merged.back().extent == it->stride)
            merged.back().extent *= it->extent;
        else
            merged.push_back(*it);
    }
    std::reverse(merged.begin(), merged.end());
    return merged;
}

// Whether {a0 + A} and {b0 + B} provably share no index. False where it cannot tell: the plan
// then keeps its stored sources.
bool disjoint(std::int64_t a0, const std::vector<SetDim>& a, std::size_t ai, std::int64_t b0,
              const std::vector<SetDim>& b, std::size_t bi, int& budget)
{
    if (--budget < 0) return false;
    const std::int64_t spanA = spanOf(a, ai), spanB = spanOf(b, bi);
    if (a0 + spanA < b0 || b0 + spanB < a0) return true;
    const bool aEmpty = ai == a.size(), bEmpty = bi == b.size();
    if (aEmpty && bEmpty) return a0 != b0;
    if (!aEmpty && !bEmpty && a[ai].stride == b[bi].stride) {
        // a0 + i S + x == b0 + j S + y: x - y + (a0 - b0) = (j - i) S, and as both rests span
        // less than S, at most two values of k = j - i can do it; each is a smaller question.
        const std::int64_t S = a[ai].stride;
        const std::int64_t restA = spanOf(a, ai + 1), restB = spanOf(b, bi + 1);
        const std::int64_t d = a0 - b0;
        const std::int64_t kLow = std::max(ceilDiv(d - restB, S), -(a[ai].extent - 1));
        const std::int64_t kHigh = std::min(floorDiv(d + restA, S), b[bi].extent - 1);
        for (std::int64_t k = kLow; k <= kHigh; ++k)
            if (!disjoint(a0, a, ai + 1, b0 + k * S, b, bi + 1, budget)) return false;
        return true;
    }
    // Different outer structure: cut the one with the larger outer stride into its slices.
    const bool cutA = bEmpty || (!aEmpty && a[ai].stride > b[bi].stride);
    const std::vector<SetDim>& c = cutA ? a : b;
    const std::size_t ci = cutA ? ai : bi;
    if (c[ci].extent > kMaxSplit) return false;
    for (std::int64_t q = 0; q < c[ci].extent; ++q) {
        const bool ok = cutA ? disjoint(a0 + q * c[ci].stride, a, ai + 1, b0, b, bi, budget)
                             : disjoint(a0, a, ai, b0 + q * c[ci].stride, b, bi + 1, budget);
        if (!ok) return false;
    }
    return true;
}

bool allDisjoint(const std::vector<AffinePlanMap::Piece>& pieces, const std::vector<int>& which,
                 bool input)
{
    int budget = kDisjointBudget;
    std::vector<std::vector<SetDim>> sets;
    for (int p : which) {
        const auto& piece = pieces[std::size_t(p)];
        sets.push_back(setOf(piece.dims, input ? piece.in : piece.out, input));
    }
    for (std::size_t i = 0; i < which.size(); ++i)
        for (std::size_t j = i + 1; j < which.size(); ++j) {
            const auto& a = pieces[std::size_t(which[i])];
            const auto& b = pieces[std::size_t(which[j])];
            const std::int64_t a0 = input ? a.in.min : a.out.min;
            const std::int64_t b0 = input ? b.in.min : b.out.min;
            if (!disjoint(a0, sets[i], 0, b0, sets[j], 0, budget)) return false;
        }
    return true;
}

// Orders a side's dimensions by |stride| and checks they are nested, which makes the greedy
// inversion exact and the map one-to-one. False if they are not.
bool makeSide(std::vector<AffinePlanMap::Dim>& dims, AffinePlanMap::Side& side, std::int64_t offset,
              bool input)
{
    auto stride = [&](int d) {
        return input ? dims[std::size_t(d)].inStride : std::abs(dims[std::size_t(d)].outStride);
    };
    side.order.resize(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d)
        side.order[d] = int(d);
    std::sort(side.order.begin(), side.order.end(),
              [&](int x, int y) { return stride(x) > stride(y); });
    side.below.assign(dims.size(), 0);
    std::int64_t span = 0;
    for (std::size_t k = dims.size(); k-- > 0;) {
        const int d = side.order[k];
        side.below[k] = span;
        if (span >= stride(d)) return false;
        if (!mulAdd(span, stride(d), dims[std::size_t(d)].extent - 1)) return false;
    }
    side.min = offset;
    for (const auto& dim : dims) {
        const std::int64_t s = input ? dim.inStride : dim.outStride;
        if (s < 0) side.min += s * (dim.extent - 1);
    }
    side.max = side.min + span;
    return true;
}

// The coordinates of `index` on a side of `piece`, if the side holds it.
bool invert(const AffinePlanMap::Piece& piece, bool input, std::int64_t index, std::int64_t* coords)
{
    const AffinePlanMap::Side& side = input ? piece.in : piece.out;
    if (index < side.min || index > side.max) return false;
    std::int64_t r = index - side.min;
    for (int d : side.order) {
        const auto& dim = piece.dims[std::size_t(d)];
        const std::int64_t s = input ? dim.inStride : dim.outStride;
        const std::int64_t q = r / std::abs(s);
        if (q >= dim.extent) return false;
        r -= q * std::abs(s);
        coords[d] = s > 0 ? q : dim.extent - 1 - q;
    }
    return r == 0;
}

std::int64_t place(const AffinePlanMap::Piece& piece, bool input, const std::int64_t* coords)
{
    std::int64_t at = input ? piece.inOffset : piece.outOffset;
    for (std::size_t d = 0; d < piece.dims.size(); ++d)
        at += coords[d] * (input ? piece.dims[d].inStride : piece.dims[d].outStride);
    return at;
}

// The read position in its output of the element at `coords` of the piece.
std::int64_t positionOf(const AffinePlanMap::Piece& piece, const std::int64_t* coords)
{
    std::int64_t at = piece.posOffset;
    for (std::size_t d = 0; d < piece.dims.size(); ++d)
        at += coords[d] * piece.dims[d].posStride;
    return at;
}

// For the one copied piece of an output with constants: positions count its elements in output
// order, so each dimension's position stride is the number of elements the dimensions nested
// inside it hold (signed as its output stride, which walks the output backwards if negative).
void countReadsAlone(AffinePlanMap::Piece& piece)
{
    std::int64_t inside = 1;
    piece.posOffset = 0;
    for (std::size_t k = piece.dims.size(); k-- > 0;) {
        auto& dim = piece.dims[std::size_t(piece.out.order[k])];
        dim.posStride = dim.outStride > 0 ? inside : -inside;
        if (dim.outStride < 0) piece.posOffset += inside * (dim.extent - 1);
        inside *= dim.extent;
    }
    piece.posMin = 0;
    piece.posMax = piece.count - 1;
}

// Calls run(v, s, n, w, os) for the runs of the piece's input elements in [lo, hi]: elements v,
// v + s, ..., v + (n - 1) * s (s > 0), read at positions w, w + os, ... (w from `w` on). Walks the
// piece's input dimensions, largest stride first, visiting only coordinates whose block meets the
// window, so a row costs its runs, not a search per element.
template <class Run>
void forEachRunInWindow(const AffinePlanMap::Piece& piece, std::size_t level, std::int64_t v,
                        std::int64_t w, std::int64_t lo, std::int64_t hi, Run& run)
{
    if (level == piece.dims.size()) {
        if (v >= lo && v <= hi) run(v, std::int64_t(1), std::int64_t(1), w, std::int64_t(0));
        return;
    }
    const auto& dim = piece.dims[std::size_t(piece.in.order[level])];
    const std::int64_t s = dim.inStride;
    const std::int64_t qLow = std::max<std::int64_t>(0, ceilDiv(lo - v - piece.in.below[level], s));
    const std::int64_t qHigh = std::min(dim.extent - 1, floorDiv(hi - v, s));
    if (qLow > qHigh) return;
    if (level + 1 == piece.dims.size()) {
        run(v + qLow * s, s, qHigh - qLow + 1, w + qLow * dim.posStride, dim.posStride);
        return;
    }
    for (std::int64_t q = qLow; q <= qHigh; ++q)
        forEachRunInWindow(piece, level + 1, v + q * s, w + q * dim.posStride, lo, hi, run);
}

// Writes the read positions of the piece's elements among first + i * step (i < count), and
// leaves the others alone: an odometer over the piece's input dimensions, largest stride first,
// where each level keeps its quotient and remainder and passes only the change of its remainder
// down. A column (step = a row) costs a compare and a subtraction per level instead of a
// division per dimension, as at() would.
void walkSequence(const AffinePlanMap::Piece& piece, std::int64_t base, std::int64_t first,
                  std::int64_t step, std::int64_t count, ReadPosition* out)
{
    const std::size_t rank = piece.dims.size();
    Coords stride, extent, outStride, q, rem;
    std::int64_t r = first - piece.inOffset;
    for (std::size_t k = 0; k < rank; ++k) {
        const auto& dim = piece.dims[std::size_t(piece.in.order[k])];
        stride[k] = dim.inStride;
        extent[k] = dim.extent;
        outStride[k] = dim.posStride;
        // Floor division keeps every remainder in [0, stride): for an element of the piece the
        // quotients are its coordinates (the strides are nested), and for any other one some
        // quotient is out of range or the last remainder is not 0.
        q[k] = floorDiv(r, stride[k]);
        r -= q[k] * stride[k];
        rem[k] = r;
    }
    base += piece.posOffset;
    struct DeltaCache
    {
        std::int64_t delta[2] = {0, 0}, whole[2] = {0, 0}, part[2] = {0, 0};
    };
    std::array<DeltaCache, kMaxDims> cache;
    for (std::int64_t i = 0; i < count; ++i) {
        bool member = rank ? rem[rank - 1] == 0 : r == 0;
        std::int64_t position = base;
        for (std::size_t k = 0; k < rank && member; ++k) {
            member = q[k] >= 0 && q[k] < extent[k];
            position += q[k] * outStride[k];
        }
        if (member) out[i] = ReadPosition(position);
        if (rank == 0) {
            r += step;
            continue;
        }
        std::int64_t delta = step;
        for (std::size_t k = 0; k < rank && delta != 0; ++k) {
            // delta = whole * stride + part: a level sees at most two deltas over a walk (its
            // parent's part, with or without the parent's carry), so their division is cached.
            DeltaCache& c = cache[k];
            if (delta != c.delta[0]) {
                std::swap(c.delta[0], c.delta[1]);
                std::swap(c.whole[0], c.whole[1]);
                std::swap(c.part[0], c.part[1]);
                if (delta != c.delta[0]) {
                    c.delta[0] = delta;
                    c.whole[0] = floorDiv(delta, stride[k]);
                    c.part[0] = delta - c.whole[0] * stride[k];
                }
            }
            const std::int64_t old = rem[k];
            std::int64_t next = old + c.part[0];
            q[k] += c.whole[0];
            if (next >= stride[k]) {
                ++q[k];
                next -= stride[k];
            }
            rem[k] = next;
            delta = next - old;
        }
    }
}

// An output with constants: its copied piece's elements are read in output order, the
// constants not at all. Or an output that reads some input elements again (tile, a mirror pad):
// each element takes its source's position.
class SparseOutputOrder final : public ReadOrderMap
{
public:
    SparseOutputOrder(std::shared_ptr<const AffinePlanMap> map, int output, std::int64_t size)
        : ReadOrderMap(size), m_map(std::move(map)), m_output(output)
    {
    }
    ReadPosition at(std::int64_t flat) const override
    {
        return m_map->outputPosition(m_output, flat);
    }
    void read(std::int64_t first, std::int64_t step, std::int64_t count,
              ReadPosition* out) const override
    {
        m_map->readOutput(m_output, first, step, count, out);
    }
    std::int64_t bytes() const override { return 0; }

private:
    std::shared_ptr<const AffinePlanMap> m_map;
    int m_output;
};

} // namespace

std::shared_ptr<const AffinePlanMap>
AffinePlanMap::makeRepeat(const OpPlan& plan, const std::vector<std::int64_t>& slotSizes)
{
    if (plan.outputs.size() != 1) return nullptr;
    const OutputPlan& output = plan.outputs.front();
    if (output.computed.isValid() || output.pieces.size() != 1) return nullptr;
    const auto* affine = std::get_if<AffinePiece>(&output.pieces.front());
    if (!affine || affine->slot < 0 || affine->slot >= int(slotSizes.size()) ||
        affine->extents.size() != affine->inStrides.size() ||
        affine->extents.size() != affine->outStrides.size())
        return nullptr;
    const std::int64_t size = numElements(output.shape);
    const std::int64_t slotSize = slotSizes[std::size_t(affine->slot)];
    // `whole` has every dimension (output side: it finds an output element's source), `copy`
    // only those that move through the input (both sides: it finds an input element's first
    // copy, and numbers the input in its own order).
    Piece whole, copy;
    whole.slot = copy.slot = affine->slot;
    whole.inOffset = copy.inOffset = affine->inOffset;
    whole.outOffset = copy.outOffset = affine->outOffset;
    std::vector<std::pair<std::int64_t, std::int64_t>> repeats;
    for (std::size_t d = 0; d < affine->extents.size(); ++d) {
        const Dim dim{affine->extents[d], affine->inStrides[d], affine->outStrides[d],
                      affine->inStrides[d]};
        if (dim.extent <= 0) return nullptr;
        if (dim.extent == 1) continue;
        // Backwards in either tensor, the first copies are not in input order.
        if (dim.outStride <= 0 || dim.inStride < 0) return nullptr;
        whole.dims.push_back(dim);
        whole.count *= dim.extent;
        if (dim.inStride == 0) {
            repeats.emplace_back(dim.extent, dim.outStride);
        } else {
            copy.dims.push_back(dim);
            copy.count *= dim.extent;
        }
    }
    if (repeats.empty() || int(whole.dims.size()) > kMaxDims) return nullptr;
    // The whole piece covers the output exactly, the copy the input, both in the same order.
    if (!makeSide(whole.dims, whole.out, whole.outOffset, false) || whole.out.min != 0 ||
        whole.out.max != size - 1 || whole.count != size)
        return nullptr;
    if (!makeSide(copy.dims, copy.in, copy.inOffset, true) ||
        !makeSide(copy.dims, copy.out, copy.outOffset, false) || copy.in.min != 0 ||
        copy.in.max != slotSize - 1 || copy.count != slotSize || copy.in.order != copy.out.order)
        return nullptr;
    // Positions are input indices: an output element's is its source's (0 along a repetition).
    whole.posOffset = copy.posOffset = affine->inOffset;
    whole.posMin = copy.posMin = 0;
    whole.posMax = copy.posMax = slotSize - 1;

    std::shared_ptr<AffinePlanMap> map(new AffinePlanMap);
    map->m_repeats = true;
    map->m_repeatDims = std::move(repeats);
    map->m_slotSizes = slotSizes;
    map->m_slotPieces.resize(slotSizes.size());
    // Spelled out: nested braces read differently in GCC and clang.
    map->m_pieces.push_back(std::move(whole));
    map->m_pieces.push_back(std::move(copy));
    map->m_outputPieces.assign(1, std::vector<int>(1, 0));
    map->m_slotPieces[std::size_t(affine->slot)].assign(1, 1);
    map->m_outputSizes = {size};
    map->m_outputBases = {0};
    map->m_outputReads = {size};
    map->m_withConstants = {false};
    for (std::size_t s = 0; s < slotSizes.size(); ++s)
        map->m_slotSummaries.push_back(int(s) == affine->slot
                                           ? ReadOrderSummary{slotSize, 0, slotSize - 1}
                                           : ReadOrderSummary{});
    map->m_lastRead = slotSize - 1;
    return map;
}

std::shared_ptr<const AffinePlanMap> AffinePlanMap::make(const OpPlan& plan,
                                                         const std::vector<Shape>& slotShapes)
{
    std::vector<std::int64_t> slotSizes;
    for (const Shape& shape : slotShapes)
        slotSizes.push_back(numElements(shape));
    if (auto repeat = makeRepeat(plan, slotSizes)) return repeat;
    if (auto oneToOne = makeOneToOne(plan, slotSizes)) return oneToOne;
    return makeSeparable(plan, slotShapes);
}

std::shared_ptr<const AffinePlanMap>
AffinePlanMap::makeOneToOne(const OpPlan& plan, const std::vector<std::int64_t>& slotSizes)
{
    std::shared_ptr<AffinePlanMap> map(new AffinePlanMap);
    map->m_slotSizes = slotSizes;
    map->m_slotPieces.resize(slotSizes.size());
    std::int64_t total = 0, elements = 0;
    for (std::size_t k = 0; k < plan.outputs.size(); ++k) {
        const OutputPlan& output = plan.outputs[k];
        if (output.computed.isValid()) return nullptr;
        const std::int64_t size = numElements(output.shape);
        map->m_outputSizes.push_back(size);
        map->m_outputBases.push_back(total);
        elements += size;
        map->m_outputPieces.emplace_back();
        std::int64_t covered = 0;
        // The output's constant pieces: they take room in it and read nothing.
        std::vector<Piece> constants;
        for (const ss::Piece& variant : output.pieces) {
            const auto* affine = std::get_if<AffinePiece>(&variant);
            if (!affine) return nullptr;
            const bool constant = affine->slot == kConstantSlot;
            if (!constant && (affine->slot < 0 || affine->slot >= int(slotSizes.size())))
                return nullptr;
            if (affine->extents.size() != affine->inStrides.size() ||
                affine->extents.size() != affine->outStrides.size())
                return nullptr;
            AffinePlanMap::Piece piece;
            piece.output = int(k);
            piece.slot = affine->slot;
            piece.inOffset = affine->inOffset;
            piece.outOffset = affine->outOffset;
            // An empty piece moves nothing (and its strides are 0: OutputPlan::emptyPiece).
            if (std::find(affine->extents.begin(), affine->extents.end(), 0) !=
                affine->extents.end())
                continue;
            for (std::size_t d = 0; d < affine->extents.size(); ++d) {
                // A constant piece repeats one value: only its output side counts.
                Dim dim{affine->extents[d], constant ? 1 : affine->inStrides[d],
                        affine->outStrides[d]};
                if (dim.extent < 0) return nullptr;
                if (dim.extent == 1) continue;
                // A zero stride repeats (tile, broadcast): not one-to-one.
                if (dim.inStride == 0 || dim.outStride == 0) return nullptr;
                if (dim.inStride < 0) {
                    // Count the dimension the other way round, so every input stride is positive.
                    piece.inOffset += dim.inStride * (dim.extent - 1);
                    piece.outOffset += dim.outStride * (dim.extent - 1);
                    dim.inStride = -dim.inStride;
                    dim.outStride = -dim.outStride;
                }
                piece.dims.push_back(dim);
                piece.count *= dim.extent;
            }
            if (int(piece.dims.size()) > kMaxDims) return nullptr;
            if (constant) {
                if (!makeSide(piece.dims, piece.out, piece.outOffset, false) || piece.out.min < 0 ||
                    piece.out.max >= size)
                    return nullptr;
                covered += piece.count;
                constants.push_back(std::move(piece));
                continue;
            }
            for (Dim& dim : piece.dims)
                dim.posStride = dim.outStride;
            piece.posOffset = piece.outOffset;
            if (!makeSide(piece.dims, piece.in, piece.inOffset, true) ||
                !makeSide(piece.dims, piece.out, piece.outOffset, false))
                return nullptr;
            piece.posMin = piece.out.min;
            piece.posMax = piece.out.max;
            if (piece.in.min < 0 || piece.in.max >= slotSizes[std::size_t(piece.slot)] ||
                piece.out.min < 0 || piece.out.max >= size)
                return nullptr;
            covered += piece.count;
            map->m_outputPieces.back().push_back(int(map->m_pieces.size()));
            map->m_slotPieces[std::size_t(piece.slot)].push_back(int(map->m_pieces.size()));
            map->m_pieces.push_back(std::move(piece));
        }
        // Disjoint pieces inside the output that add up to its size cover it exactly.
        if (covered != size) return nullptr;
        const std::vector<int>& copied = map->m_outputPieces.back();
        if (constants.empty()) {
            if (!allDisjoint(map->m_pieces, copied, false)) return nullptr;
        } else {
            // The constants are disjoint from each other and from what is copied, too.
            std::vector<Piece> all = constants;
            for (int p : copied)
                all.push_back(map->m_pieces[std::size_t(p)]);
            std::vector<int> which(all.size());
            for (std::size_t p = 0; p < which.size(); ++p)
                which[p] = int(p);
            if (!allDisjoint(all, which, false)) return nullptr;
        }
        std::int64_t reads = size;
        if (!constants.empty()) {
            // Around one copied piece, its elements are numbered alone; around several, the
            // numbering would need each piece's share before an element: left to the stored
            // path.
            if (copied.size() > 1) return nullptr;
            reads = 0;
            if (!copied.empty()) {
                Piece& piece = map->m_pieces[std::size_t(copied.front())];
                countReadsAlone(piece);
                reads = piece.count;
            }
        }
        map->m_outputReads.push_back(reads);
        map->m_withConstants.push_back(!constants.empty());
        total += reads;
    }
    for (const auto& which : map->m_slotPieces)
        if (!allDisjoint(map->m_pieces, which, true)) return nullptr;

    // The summaries, from the pieces: a slot's first element is the one its lowest output
    // position reads, and its last position the highest.
    for (std::size_t s = 0; s < slotSizes.size(); ++s) {
        ReadOrderSummary summary;
        std::int64_t lowest = -1;
        for (int p : map->m_slotPieces[s]) {
            const Piece& piece = map->m_pieces[std::size_t(p)];
            const std::int64_t base = map->m_outputBases[std::size_t(piece.output)];
            summary.selected += piece.count;
            summary.last = std::max(summary.last, base + piece.posMax);
            // The lowest position is the piece's first element in output order.
            if (lowest < 0 || base + piece.posMin < lowest) {
                lowest = base + piece.posMin;
                Coords coords{};
                invert(piece, false, piece.out.min, coords.data());
                summary.first = place(piece, true, coords.data());
            }
        }
        map->m_slotSummaries.push_back(summary);
    }
    map->m_lastRead = total - 1;
    return map;
}

std::shared_ptr<const AffinePlanMap>
AffinePlanMap::makeSeparable(const OpPlan& plan, const std::vector<Shape>& slotShapes)
{
    if (plan.outputs.size() != 1) return nullptr;
    const OutputPlan& output = plan.outputs.front();
    if (output.computed.isValid()) return nullptr;
    const Shape& outShape = output.shape;
    const std::size_t rank = outShape.size();
    const std::int64_t size = numElements(outShape);
    if (rank == 0 || int(rank) > kMaxDims || size <= 0) return nullptr;
    const std::vector<std::int64_t> outRow = rowMajorStrides(outShape);
    int slot = -1;
    std::vector<std::int64_t> inRow;
    // Per dimension its distinct runs, and per piece the runs it is the product of (each named
    // by its outStart, which identifies it once the runs are checked to tile the dimension).
    std::vector<std::vector<Run>> runs(rank);
    std::vector<std::vector<std::int64_t>> products;
    for (const ss::Piece& variant : output.pieces) {
        const auto* affine = std::get_if<AffinePiece>(&variant);
        if (!affine || affine->slot < 0 || affine->slot >= int(slotShapes.size())) return nullptr;
        if (slot >= 0 && affine->slot != slot) return nullptr;
        if (slot < 0) {
            slot = affine->slot;
            if (slotShapes[std::size_t(slot)].size() != rank) return nullptr;
            inRow = rowMajorStrides(slotShapes[std::size_t(slot)]);
        }
        const Shape& inShape = slotShapes[std::size_t(slot)];
        if (affine->extents.size() != rank || affine->inStrides.size() != rank ||
            affine->outStrides.size() != rank)
            return nullptr;
        if (std::any_of(affine->extents.begin(), affine->extents.end(),
                        [](std::int64_t e) { return e < 0; }))
            return nullptr;
        // An empty piece moves nothing (and its strides are 0: OutputPlan::emptyPiece).
        if (std::find(affine->extents.begin(), affine->extents.end(), 0) != affine->extents.end())
            continue;
        if (affine->inOffset < 0 || affine->inOffset >= numElements(inShape) ||
            affine->outOffset < 0 || affine->outOffset >= size)
            return nullptr;
        // The offsets' coordinates, one dimension at a time (row-major: unique).
        std::int64_t inRest = affine->inOffset, outRest = affine->outOffset;
        std::vector<std::int64_t> product;
        for (std::size_t k = 0; k < rank; ++k) {
            Run run;
            run.inStart = inRest / inRow[k];
            inRest -= run.inStart * inRow[k];
            run.outStart = outRest / outRow[k];
            outRest -= run.outStart * outRow[k];
            run.length = affine->extents[k];
            if (run.length > 1) {
                // Through the dimension itself, one element at a time, either way.
                if (affine->outStrides[k] != outRow[k]) return nullptr;
                if (affine->inStrides[k] == inRow[k])
                    run.step = 1;
                else if (affine->inStrides[k] == -inRow[k])
                    run.step = -1;
                else
                    return nullptr;
            }
            const std::int64_t last = run.inStart + run.step * (run.length - 1);
            if (last < 0 || last >= inShape[k] || run.outStart + run.length > outShape[k])
                return nullptr;
            auto& known = runs[k];
            const auto same = std::find_if(known.begin(), known.end(), [&](const Run& r) {
                return r.outStart == run.outStart && r.length == run.length &&
                       r.inStart == run.inStart && r.step == run.step;
            });
            if (same == known.end()) known.push_back(run);
            product.push_back(run.outStart);
        }
        products.push_back(std::move(product));
    }
    if (slot < 0) return nullptr;
    // Each dimension's runs tile it; the pieces are every product of runs, each once.
    std::int64_t combinations = 1;
    for (std::size_t k = 0; k < rank; ++k) {
        auto& known = runs[k];
        std::sort(known.begin(), known.end(),
                  [](const Run& a, const Run& b) { return a.outStart < b.outStart; });
        std::int64_t next = 0;
        for (const Run& run : known) {
            if (run.outStart != next) return nullptr;
            next += run.length;
        }
        if (next != outShape[k]) return nullptr;
        combinations *= std::int64_t(known.size());
        if (combinations > std::int64_t(products.size())) return nullptr;
    }
    std::sort(products.begin(), products.end());
    if (std::adjacent_find(products.begin(), products.end()) != products.end() ||
        combinations != std::int64_t(products.size()))
        return nullptr;

    std::shared_ptr<AffinePlanMap> map(new AffinePlanMap);
    map->m_axesSlot = slot;
    for (const Shape& shape : slotShapes)
        map->m_slotSizes.push_back(numElements(shape));
    map->m_slotPieces.resize(slotShapes.size());
    for (std::size_t k = 0; k < rank; ++k) {
        Axis axis;
        axis.outExtent = outShape[k];
        axis.inExtent = slotShapes[std::size_t(slot)][k];
        axis.outStride = outRow[k];
        axis.inStride = inRow[k];
        axis.runs = std::move(runs[k]);
        // A dimension's first reads, run by run in output order: a run's values not read by an
        // earlier run, ranked in the run's direction after all earlier runs' new values.
        std::vector<std::pair<std::int64_t, std::int64_t>> seen; // read values, disjoint
        for (const Run& run : axis.runs) {
            const std::int64_t last = run.inStart + run.step * (run.length - 1);
            const std::int64_t lo = std::min(run.inStart, last), hi = std::max(run.inStart, last);
            std::sort(seen.begin(), seen.end());
            std::vector<std::pair<std::int64_t, std::int64_t>> gaps;
            std::int64_t from = lo;
            for (const auto& [a, b] : seen) {
                if (b < from || a > hi) continue;
                if (a > from) gaps.emplace_back(from, a - 1);
                from = std::max(from, b + 1);
            }
            if (from <= hi) gaps.emplace_back(from, hi);
            if (run.step < 0) std::reverse(gaps.begin(), gaps.end());
            for (const auto& [a, b] : gaps) {
                // Ranked from the end the run reads first.
                axis.regions.push_back(run.step > 0 ? Region{a, b, axis.distinct, 1}
                                                    : Region{a, b, axis.distinct + (b - a), -1});
                axis.distinct += b - a + 1;
            }
            seen.emplace_back(lo, hi);
        }
        std::sort(axis.regions.begin(), axis.regions.end(),
                  [](const Region& a, const Region& b) { return a.lo < b.lo; });
        map->m_axes.push_back(std::move(axis));
    }
    std::int64_t selected = 1;
    for (std::size_t k = rank; k-- > 0;) {
        map->m_axes[k].weight = selected;
        selected *= map->m_axes[k].distinct;
    }
    map->m_outputSizes = {size};
    map->m_outputBases = {0};
    map->m_outputReads = {size};
    map->m_outputPieces.resize(1);
    map->m_withConstants = {false};
    // The elements read first form a product set, ranked 0 .. selected - 1; output element 0
    // reads the first of them.
    const std::int64_t first = sourceIndex(map->separableSource(0));
    for (std::size_t s = 0; s < slotShapes.size(); ++s)
        map->m_slotSummaries.push_back(
            int(s) == slot ? ReadOrderSummary{selected, first, selected - 1} : ReadOrderSummary{});
    map->m_lastRead = selected - 1;
    return map;
}

std::int64_t AffinePlanMap::axisSource(const Axis& axis, std::int64_t o) const
{
    // The last run starting at or before o holds it (the runs tile the dimension).
    auto it = std::upper_bound(axis.runs.begin(), axis.runs.end(), o,
                               [](std::int64_t x, const Run& r) { return x < r.outStart; });
    const Run& run = *std::prev(it);
    return run.inStart + run.step * (o - run.outStart);
}

std::int64_t AffinePlanMap::axisRank(const Axis& axis, std::int64_t v) const
{
    auto it = std::upper_bound(axis.regions.begin(), axis.regions.end(), v,
                               [](std::int64_t x, const Region& r) { return x < r.lo; });
    if (it == axis.regions.begin()) return -1;
    const Region& region = *std::prev(it);
    if (v > region.hi) return -1;
    return region.rankAtLo + region.slope * (v - region.lo);
}

std::int64_t AffinePlanMap::separableSource(std::int64_t index) const
{
    std::int64_t at = 0;
    for (const Axis& axis : m_axes) {
        const std::int64_t o = index / axis.outStride;
        index -= o * axis.outStride;
        at += axisSource(axis, o) * axis.inStride;
    }
    return packSource(m_axesSlot, at);
}

void AffinePlanMap::separableRead(bool input, std::int64_t first, std::int64_t step,
                                  std::int64_t count, ReadPosition* out) const
{
    // Along a row only the last dimension changes: the other dimensions' share of the position
    // is worked out once per row.
    const Axis& last = m_axes.back();
    const std::int64_t rowLength = input ? last.inExtent : last.outExtent;
    std::int64_t row = -1, share = 0;
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t flat = first + i * step;
        const std::int64_t r = flat / rowLength;
        if (r != row) {
            row = r;
            share = 0;
            std::int64_t rest = flat - flat % rowLength;
            for (std::size_t k = 0; k + 1 < m_axes.size() && share >= 0; ++k) {
                const Axis& axis = m_axes[k];
                const std::int64_t stride = input ? axis.inStride : axis.outStride;
                const std::int64_t c = rest / stride;
                rest -= c * stride;
                const std::int64_t rank = axisRank(axis, input ? c : axisSource(axis, c));
                share = rank < 0 ? -1 : share + rank * axis.weight;
            }
        }
        const std::int64_t c = flat - r * rowLength;
        const std::int64_t rank = share < 0 ? -1 : axisRank(last, input ? c : axisSource(last, c));
        out[i] = rank < 0 ? ReadPosition(-1) : ReadPosition(share + rank);
    }
}

const AffinePlanMap::Piece* AffinePlanMap::find(bool input, int which, std::int64_t index,
                                                std::int64_t* coords) const
{
    for (int p : (input ? m_slotPieces : m_outputPieces)[std::size_t(which)]) {
        const Piece& piece = m_pieces[std::size_t(p)];
        if (invert(piece, input, index, coords)) return &piece;
    }
    return nullptr;
}

std::int64_t AffinePlanMap::source(int output, std::int64_t index) const
{
    if (!m_axes.empty()) return separableSource(index);
    Coords coords; // invert() writes every coordinate the piece has
    const Piece* piece = find(false, output, index, coords.data());
    // make() proved the pieces cover every output element.
    if (!piece) return kNoSource;
    return packSource(piece->slot, place(*piece, true, coords.data()));
}

std::optional<std::pair<int, std::int64_t>> AffinePlanMap::target(int slot,
                                                                  std::int64_t index) const
{
    if (!m_axes.empty()) {
        const auto all = targets(slot, index);
        if (all.front().empty()) return std::nullopt;
        return std::pair{0, all.front().front()};
    }
    Coords coords; // invert() writes every coordinate the piece has
    const Piece* piece = find(true, slot, index, coords.data());
    if (!piece) return std::nullopt;
    return std::pair{piece->output, place(*piece, false, coords.data())};
}

std::vector<std::vector<std::int64_t>> AffinePlanMap::targets(int slot, std::int64_t index) const
{
    std::vector<std::vector<std::int64_t>> all(m_outputSizes.size());
    if (!m_axes.empty()) {
        if (slot != m_axesSlot || index < 0 || index >= m_slotSizes[std::size_t(slot)]) return all;
        // Every combination of the element's preimages, one per dimension.
        std::vector<std::int64_t>& list = all.front();
        list.push_back(0);
        for (const Axis& axis : m_axes) {
            const std::int64_t v = index / axis.inStride;
            index -= v * axis.inStride;
            std::vector<std::int64_t> preimages;
            for (const Run& run : axis.runs) {
                const std::int64_t q = (v - run.inStart) * run.step;
                if (q >= 0 && q < run.length) preimages.push_back(run.outStart + q);
            }
            std::vector<std::int64_t> longer;
            for (std::int64_t at : list)
                for (std::int64_t o : preimages)
                    longer.push_back(at + o * axis.outStride);
            list = std::move(longer);
        }
        std::sort(list.begin(), list.end());
        return all;
    }
    const auto first = target(slot, index);
    if (!first) return all;
    std::vector<std::int64_t>& list = all[std::size_t(first->first)];
    list.push_back(first->second);
    // Each repetition copies every copy so far once more.
    for (const auto& [extent, stride] : m_repeatDims) {
        const std::size_t n = list.size();
        for (std::int64_t q = 1; q < extent; ++q)
            for (std::size_t i = 0; i < n; ++i)
                list.push_back(list[i] + q * stride);
    }
    std::sort(list.begin(), list.end());
    return all;
}

ReadPosition AffinePlanMap::inputPosition(int slot, std::int64_t index) const
{
    if (!m_axes.empty()) {
        ReadPosition position = -1;
        if (slot == m_axesSlot) separableRead(true, index, 1, 1, &position);
        return position;
    }
    Coords coords; // invert() writes every coordinate the piece has
    const Piece* piece = find(true, slot, index, coords.data());
    if (!piece) return -1;
    return ReadPosition(m_outputBases[std::size_t(piece->output)] +
                        positionOf(*piece, coords.data()));
}

ReadPosition AffinePlanMap::outputPosition(int output, std::int64_t index) const
{
    if (!m_axes.empty()) {
        ReadPosition position = -1;
        separableRead(false, index, 1, 1, &position);
        return position;
    }
    Coords coords; // invert() writes every coordinate the piece has
    const Piece* piece = find(false, output, index, coords.data());
    if (!piece) return -1;
    return ReadPosition(m_outputBases[std::size_t(output)] + positionOf(*piece, coords.data()));
}

void AffinePlanMap::readInput(int slot, std::int64_t first, std::int64_t step, std::int64_t count,
                              ReadPosition* out) const
{
    if (count <= 0) return;
    if (!m_axes.empty()) {
        if (slot == m_axesSlot)
            separableRead(true, first, step, count, out);
        else
            std::fill(out, out + count, ReadPosition(-1));
        return;
    }
    const auto& pieces = m_slotPieces[std::size_t(slot)];
    if (step != 1 && step != -1) {
        // Any other step (a column, a strided sample): each piece walks the sequence.
        std::fill(out, out + count, ReadPosition(-1));
        for (int p : pieces) {
            const Piece& piece = m_pieces[std::size_t(p)];
            walkSequence(piece, m_outputBases[std::size_t(piece.output)], first, step, count, out);
        }
        return;
    }
    // A run of the input, either way: every element not read stays -1, and each piece writes
    // the elements it reads inside the window (element v at out[(v - first) * step]).
    std::fill(out, out + count, ReadPosition(-1));
    const std::int64_t lo = step > 0 ? first : first - count + 1;
    const std::int64_t hi = step > 0 ? first + count - 1 : first;
    auto write = [&](std::int64_t v, std::int64_t s, std::int64_t n, std::int64_t w,
                     std::int64_t os) {
        ReadPosition* o = out + (v - first) * step;
        const std::int64_t oStep = s * step;
        for (std::int64_t q = 0; q < n; ++q, o += oStep, w += os)
            *o = ReadPosition(w);
    };
    for (int p : pieces) {
        const Piece& piece = m_pieces[std::size_t(p)];
        if (piece.in.max < lo || piece.in.min > hi) continue;
        forEachRunInWindow(piece, 0, piece.inOffset,
                           m_outputBases[std::size_t(piece.output)] + piece.posOffset, lo, hi,
                           write);
    }
}

bool AffinePlanMap::inputBlockMinima(int slot, std::int64_t first, const std::int64_t* edges,
                                     std::size_t blocks, ReadRank* least) const
{
    if (!m_axes.empty()) return false; // read dimension by dimension: no runs to fold
    if (blocks == 0) return true;
    const std::int64_t lo = first + edges[0];
    const std::int64_t hi = first + edges[blocks] - 1;
    // Each run of positions rises or falls along its elements: a block's lowest is at an end.
    auto lower = [&](std::int64_t v, std::int64_t s, std::int64_t n, std::int64_t w,
                     std::int64_t os) { lowerByRun(v - first, s, n, w, os, edges, blocks, least); };
    for (int p : m_slotPieces[std::size_t(slot)]) {
        const Piece& piece = m_pieces[std::size_t(p)];
        if (piece.in.max < lo || piece.in.min > hi) continue;
        forEachRunInWindow(piece, 0, piece.inOffset,
                           m_outputBases[std::size_t(piece.output)] + piece.posOffset, lo, hi,
                           lower);
    }
    return true;
}

void AffinePlanMap::readOutput(int output, std::int64_t first, std::int64_t step,
                               std::int64_t count, ReadPosition* out) const
{
    if (count <= 0) return;
    if (!m_axes.empty()) {
        separableRead(false, first, step, count, out);
        return;
    }
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = outputPosition(output, first + i * step);
}

ReadOrder AffinePlanMap::inputOrder(int slot) const
{
    return std::make_shared<const PlanInputOrder<AffinePlanMap>>(shared_from_this(), slot,
                                                                 m_slotSizes[std::size_t(slot)]);
}

ReadOrder AffinePlanMap::outputOrder(int output) const
{
    if (m_withConstants[std::size_t(output)] || repeats())
        return std::make_shared<const SparseOutputOrder>(shared_from_this(), output,
                                                         m_outputSizes[std::size_t(output)]);
    // Every output element is read, in output order: its position is its place over the op.
    return sequentialOrder(m_outputBases[std::size_t(output)], m_outputSizes[std::size_t(output)]);
}

ReadOrderSummary AffinePlanMap::outputSummary(int output) const
{
    const std::int64_t reads = m_outputReads[std::size_t(output)];
    if (reads == 0) return {};
    const std::int64_t last = m_outputBases[std::size_t(output)] + reads - 1;
    // Repeated: output element 0 reads input element 0, and the input's last is read last.
    if (repeats()) return {reads, 0, m_lastRead};
    if (!m_withConstants[std::size_t(output)]) return {reads, 0, last};
    // The copied piece's first element in output order is read first.
    return {reads, m_pieces[std::size_t(m_outputPieces[std::size_t(output)].front())].out.min,
            last};
}

} // namespace ss::ui
