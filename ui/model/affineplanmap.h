// SPDX-License-Identifier: GPL-3.0-or-later
// Provenance worked out from an op's plan instead of kept per element: for a plan that copies
// every output element from exactly one input element, and no input element twice, the read
// order is the output order itself, and every question the workbench asks (an element's read
// position, an output element's source, an input element's target, the summaries) is answered
// by inverting a piece's affine map. An evaluation at 10^8 elements then keeps no sources and
// no read orders at all (16 bytes per element less). An output may also hold constants (pad's
// border) around one copied piece: its read positions then count the piece's elements alone, in
// output order, as the stored orders number them. And a plan of one piece that reads a whole
// input in its own order, repeated along dimensions of input stride 0 (tile), is answered too:
// every input element is first read by the first copy, in input order, so its read position is
// its own index, an output element's is its source's, and an input element's targets are its
// copies.
//
// A plan read dimension by dimension (REFLECT and SYMMETRIC pad) is answered too, though it reads
// some input elements several times: output element o reads input element (f_0(o_0), ...,
// f_{r-1}(o_{r-1})), each f_k a few runs that step by +1 or -1 through the input's dimension k.
// An input element's copies are then the product of its preimages per dimension, and its first
// read in output order is the product of its first preimages, so the elements read first form a
// product set too: an input element's read position (its first read's rank among all first
// reads) is sum_k rank_k(i_k) * (the values read in every dimension after k), where rank_k is a
// dimension's own order of first reads, a few linear pieces. Nothing is kept per element, and no
// pass over the elements is made.
#pragma once

#include "core/op.h"
#include "ui/model/readordermap.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ss::ui {

/// A one-to-one affine plan's provenance. Made only for a plan that passes every check (see
/// make()); any other plan keeps the stored sources and orders, so no answer rests on a guess.
class AffinePlanMap : public std::enable_shared_from_this<AffinePlanMap>
{
public:
    /// The map of `plan` over inputs of these element counts (slot order), or null if the plan
    /// is not provably one-to-one: a piece that is not an AffinePiece from an input slot or of
    /// constants, a computed output, a piece whose map is not invertible (its strides are not
    /// nested), pieces that are not provably disjoint in an output or in an input, an output
    /// they do not cover, or an output with constants and more than one copied piece.
    /// O(pieces^2 * rank), never a pass over the elements.
    /// Or, failing that, the map of a plan read dimension by dimension (see the file's comment).
    static std::shared_ptr<const AffinePlanMap> make(const OpPlan& plan,
                                                     const std::vector<Shape>& slotShapes);

    int outputCount() const { return int(m_outputSizes.size()); }
    int slotCount() const { return int(m_slotSizes.size()); }
    std::int64_t outputSize(int output) const { return m_outputSizes[std::size_t(output)]; }
    /// Output `output`'s first read position: the elements the outputs before it read.
    std::int64_t outputBase(int output) const { return m_outputBases[std::size_t(output)]; }

    /// packSource(slot, index) of output `output`'s element `index` (which must exist).
    std::int64_t source(int output, std::int64_t index) const;
    /// The output element (output, index) copied from input slot `slot`'s element `index`, or
    /// none if the op does not read it; the first of them, if the plan repeats (targets()).
    std::optional<std::pair<int, std::int64_t>> target(int slot, std::int64_t index) const;
    /// Every output element copied from input slot `slot`'s element `index`, per output, in
    /// increasing order (as many as the repetitions for a tile).
    std::vector<std::vector<std::int64_t>> targets(int slot, std::int64_t index) const;

    /// Whether the plan reads some input elements more than once (tile, a mirror pad).
    bool repeats() const { return m_repeats || !m_axes.empty(); }

    /// Input slot `slot`'s element `index`'s read position, or -1.
    ReadPosition inputPosition(int slot, std::int64_t index) const;
    /// Output `output`'s element `index`'s read position, or -1 for a constant.
    ReadPosition outputPosition(int output, std::int64_t index) const;
    /// ReadOrderMap::read for input slot `slot`.
    void readInput(int slot, std::int64_t first, std::int64_t step, std::int64_t count,
                   ReadPosition* out) const;
    /// ReadOrderMap::blockMinima for input slot `slot` along a run of consecutive elements (step
    /// 1), a few steps per block and run of the plan. Always true (the same form as the other
    /// maps').
    bool inputBlockMinima(int slot, std::int64_t first, const std::int64_t* edges,
                          std::size_t blocks, ReadRank* least) const;
    /// ReadOrderMap::read for output `output`.
    void readOutput(int output, std::int64_t first, std::int64_t step, std::int64_t count,
                    ReadPosition* out) const;
    /// ReadOrderMap::blockMinima for the output of a plan read dimension by dimension, along a
    /// run of consecutive elements (step 1); false, doing nothing, for any other plan.
    bool outputBlockMinima(std::int64_t first, const std::int64_t* edges, std::size_t blocks,
                           ReadRank* least) const;

    /// The orders, worked out when asked (no memory per element).
    ReadOrder inputOrder(int slot) const;
    ReadOrder outputOrder(int output) const;
    ReadOrderSummary inputSummary(int slot) const { return m_slotSummaries[std::size_t(slot)]; }
    ReadOrderSummary outputSummary(int output) const;
    /// The op's last read position (every output element is one read).
    std::int64_t lastRead() const { return m_lastRead; }

    /// One dimension of a piece (extent > 1) with its strides in the input and the output.
    struct Dim
    {
        std::int64_t extent = 1;
        std::int64_t inStride = 0;  ///< > 0 (negative strides are normalised away)
        std::int64_t outStride = 0; ///< any sign but 0
        /// The read position's stride: outStride, but for an output with constants, where
        /// positions count the piece's elements alone.
        std::int64_t posStride = 0;
    };
    /// One side (input or output) of a piece, ready to invert.
    struct Side
    {
        std::int64_t min = 0;   ///< the side's lowest flat index
        std::int64_t max = 0;   ///< and highest
        std::vector<int> order; ///< dimensions by |stride|, largest first
        /// Per position in `order`: the span of the dimensions after it, sum |stride| *
        /// (extent - 1), which is less than that dimension's |stride| (nested strides).
        std::vector<std::int64_t> below;
    };
    struct Piece
    {
        int output = 0;
        int slot = 0;
        std::int64_t inOffset = 0;  ///< coordinate 0's input index
        std::int64_t outOffset = 0; ///< coordinate 0's output index
        std::int64_t posOffset = 0; ///< coordinate 0's read position in its output
        std::int64_t posMin = 0;    ///< the piece's lowest read position in its output
        std::int64_t posMax = 0;    ///< and highest
        std::vector<Dim> dims;
        Side in, out;
        std::int64_t count = 1;
    };

    /// A plan read dimension by dimension: in one dimension, output coordinates outStart ..
    /// outStart + length - 1 read input coordinates inStart, inStart + step, ...
    struct Run
    {
        std::int64_t outStart = 0;
        std::int64_t length = 1;
        std::int64_t inStart = 0;
        std::int64_t step = 1; ///< +1 or -1
    };
    /// Input coordinates lo .. hi of one dimension, first read in that dimension's order at
    /// ranks rankAtLo + slope * (v - lo).
    struct Region
    {
        std::int64_t lo = 0;
        std::int64_t hi = 0;
        std::int64_t rankAtLo = 0;
        std::int64_t slope = 1;
    };
    struct Axis
    {
        std::int64_t outExtent = 1;
        std::int64_t inExtent = 1;
        std::int64_t outStride = 1;  ///< row-major, in the output
        std::int64_t inStride = 1;   ///< row-major, in the input
        std::vector<Run> runs;       ///< by outStart, covering the output's dimension
        std::vector<Region> regions; ///< by lo: the input coordinates read
        std::int64_t distinct = 0;   ///< how many input coordinates are read
        std::int64_t weight = 1;     ///< the product of `distinct` over the later dimensions
    };

private:
    AffinePlanMap() = default;
    /// The map of a one-to-one plan, with constants around one piece or none, or null.
    static std::shared_ptr<const AffinePlanMap>
    makeOneToOne(const OpPlan& plan, const std::vector<std::int64_t>& slotSizes);
    /// The map of a plan read dimension by dimension (see the file's comment), or null.
    static std::shared_ptr<const AffinePlanMap> makeSeparable(const OpPlan& plan,
                                                              const std::vector<Shape>& slotShapes);
    /// A separable map's answers: output coordinate `o` of dimension k's input coordinate, an
    /// input coordinate's rank in its dimension (-1: not read), an output element's source and
    /// an element's read position (input = true: of the input slot).
    std::int64_t axisSource(const Axis& axis, std::int64_t o) const;
    std::int64_t axisRank(const Axis& axis, std::int64_t v) const;
    std::int64_t separableSource(std::int64_t index) const;
    /// The share of the dimensions before the last in the read position of the elements of the
    /// row (of the input slot, or the output) that starts at `rowStart`; -1 if they are not read.
    std::int64_t rowShare(bool input, std::int64_t rowStart) const;
    void separableRead(bool input, std::int64_t first, std::int64_t step, std::int64_t count,
                       ReadPosition* out) const;
    /// Calls visit(v, 1, n, w, os) for the runs of elements v .. v + n - 1 in [lo, hi] of the
    /// input slot (input = true) or the output that the plan reads, read at positions w, w + os,
    /// ...: along a row the other dimensions' share is fixed, and the last dimension's rank is
    /// linear on each of its regions (and, in the output, on each run's part of one), so a row
    /// costs its runs, not a search per element. Elements not read are left out.
    template <class Visit>
    void forEachSeparableRun(bool input, std::int64_t lo, std::int64_t hi, Visit& visit) const;
    /// The map of a one-piece plan with repeated dimensions (see the file's comment), or null.
    static std::shared_ptr<const AffinePlanMap>
    makeRepeat(const OpPlan& plan, const std::vector<std::int64_t>& slotSizes);
    // The piece of output `output` (input = false) or input slot `output` (input = true) that
    // holds element `index`, with the element's coordinates in it; null if none does.
    const Piece* find(bool input, int which, std::int64_t index, std::int64_t* coords) const;

    std::vector<Piece> m_pieces;
    std::vector<std::vector<int>> m_outputPieces; ///< per output, its pieces
    std::vector<std::vector<int>> m_slotPieces;   ///< per slot, the pieces reading it
    std::vector<std::int64_t> m_outputSizes, m_outputBases, m_slotSizes;
    std::vector<std::int64_t> m_outputReads; ///< per output, its elements read from an input
    std::vector<bool> m_withConstants;       ///< per output, whether constants are in it
    /// A repeating plan (makeRepeat): its one piece's dimensions of input stride 0, each with
    /// its extent and output stride.
    bool m_repeats = false;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_repeatDims;
    /// A plan read dimension by dimension (makeSeparable): per output dimension, and its slot.
    std::vector<Axis> m_axes;
    int m_axesSlot = -1;
    std::vector<ReadOrderSummary> m_slotSummaries;
    std::int64_t m_lastRead = -1;
};

} // namespace ss::ui
