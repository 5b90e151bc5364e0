// SPDX-License-Identifier: GPL-3.0-or-later
// Provenance of a plan that scatters rows by index tensors (dynamic_stitch): source row j of
// piece m goes to the output row its index names, a later one wins where two name one row, and
// rows no index names keep a constant fill. An output row's source is its last writer, which
// depends on every index after it, so no formula gives it. One pass over the indices from the
// last to the first marks the rows written in a bitmap (1/8 byte per output row, in the caches
// where 4 bytes per row are not): a row is won by the first index met that names it. Every
// written row is read once, in output order, so an output element's read position is its place
// among the written elements (a rank in the bitmap), and an input element's is its row's if it
// wins: a second pass, in input order, keeps each input row's rank (4 bytes per input row; the
// indices of a permutation of the rows are its ranks, kept in nothing more), so
// that an input's order is read in its own order (a heat map's selection of 10^7 random winners
// took seconds as a winner and a rank looked up per element). Each output row's winner (4 bytes
// per output row) is found only once a source is asked for, on the pool: storing it is a random
// write per row, the slowest pass of an edit with random indices, and no heat map needs it.
#pragma once

#include "core/op.h"
#include "ui/model/readordermap.h"
#include "ui/model/rowsplanmap.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace ss {
class JobContext;
}

namespace ss::ui {

/// A scatter plan's provenance (see the file's comment).
class ScatterPlanMap : public std::enable_shared_from_this<ScatterPlanMap>
{
public:
    /// The map of `plan` over inputs of these element counts (slot order), or null if its one
    /// output is not an optional constant fill of the whole output followed by scatter-form
    /// IndexPieces of one row length and one 1-D index of stride rowLength each, naming rows of
    /// the whole output. Cheap: the rows written are found by findWinners(), which must succeed
    /// before the map is used.
    static std::shared_ptr<ScatterPlanMap> make(const OpPlan& plan,
                                                const std::vector<std::int64_t>& slotSizes);
    /// The bytes findWinners() will keep, and the first source() call adds.
    std::int64_t bytes() const;
    /// Two passes over the indices (see the file's comment), checking `ctx` for cancellation now
    /// and then (ctx may be null). False if an index names no output row, or, with no fill, a
    /// row is never written: the plan then needs its stored sources.
    bool findWinners(JobContext* ctx);

    int outputCount() const { return 1; }
    int slotCount() const { return int(m_slotSizes.size()); }
    std::int64_t outputSize(int) const { return m_targetRows * m_rowLength; }

    /// packSource(slot, index) of output element `index`, or kNoSource for the fill. The first
    /// call has every output row's winner found on the pool; until they are, a call passes
    /// over the indices. Thread-safe.
    std::int64_t source(int output, std::int64_t index) const;
    /// The output element copied from input slot `slot`'s element `index` (at most one).
    std::vector<std::vector<std::int64_t>> targets(int slot, std::int64_t index) const;
    /// Read positions of input slot `slot`'s element `index` and of output element `index`.
    ReadPosition inputPosition(int slot, std::int64_t index) const;
    ReadPosition outputPosition(std::int64_t index) const;
    /// ReadOrderMap::read for input slot `slot`: along a run, its rows' ranks in order.
    void readInput(int slot, std::int64_t first, std::int64_t step, std::int64_t count,
                   ReadPosition* out) const;
    /// ReadOrderMap::read and blockMinima (along a run of step 1) for the output of a plan with
    /// a fill: the written rows' elements are read in order (RowBitmap::readRows).
    void readOutput(std::int64_t first, std::int64_t step, std::int64_t count,
                    ReadPosition* out) const;
    void outputBlockMinima(std::int64_t first, const std::int64_t* edges, std::size_t blocks,
                           ReadRank* least) const;

    ReadOrder inputOrder(int slot) const;
    ReadOrder outputOrder(int output) const;
    ReadOrderSummary inputSummary(int slot) const { return m_slotSummaries[std::size_t(slot)]; }
    ReadOrderSummary outputSummary(int output) const;
    std::int64_t lastRead() const { return m_lastRead; }

private:
    ScatterPlanMap() = default;
    /// findWinners' stages: the rows written and which input rows win them, from the last index
    /// to the first (false if an index names no output row); each winning input row's rank, in
    /// input order, with each piece's reads; each slot's summary, from its pieces'.
    /// A piece's rows that win, and the lowest and highest of their ranks.
    struct PieceReads
    {
        std::int64_t rows = 0;
        std::int64_t lowest = 0;
        std::int64_t lowestRow = -1;
        std::int64_t highest = -1;
    };
    bool markWinners(JobContext* ctx);
    std::vector<PieceReads> rankWinners(JobContext* ctx);
    void summarizeSlots(const std::vector<PieceReads>& pieceReads);
    /// The number of the input row that wins output row `row` (which is written).
    std::int32_t winnerOf(std::int64_t row) const;
    /// Every written output row's winner, into m_winners (on the pool, once asked for).
    void findEveryWinner() const;
    /// The piece and source row of a winner's number (pieces' rows counted one after another).
    std::pair<std::size_t, std::int64_t> pieceOf(std::int32_t winner) const;

    std::vector<IndexPiece> m_pieces;
    std::vector<std::int64_t> m_pieceBases; ///< per piece, the number of its row 0
    std::int64_t m_inputRows = 0;           ///< the pieces' rows, all together
    std::vector<std::int64_t> m_slotSizes;
    std::int64_t m_rowLength = 1;
    std::int64_t m_targetRows = 0;
    bool m_filled = false;
    /// Piece p's rows' ranks: in m_ranks, or its indices themselves.
    std::int32_t* ranksOf(std::size_t p) { return m_ranks.data<std::int32_t>() + m_pieceBases[p]; }
    const std::int32_t* ranksOf(std::size_t p) const
    {
        return m_indicesAreRanks ? m_pieces[p].indices.data<std::int32_t>()
                                 : m_ranks.data<std::int32_t>() + m_pieceBases[p];
    }

    /// Per input row (numbered as winners), the rank of the row it wins among the rows written,
    /// or -1 if it wins none: int32, a buffer of the tensors' pool (reused by the next maps).
    Tensor m_ranks;
    /// The pieces' int32 indices name every output row once (a permutation of the rows, the
    /// plan says and markWinners checks): each input row wins the row it names, whose rank is
    /// that row, so the indices are the ranks and m_ranks is not made (at 10^7 rows a 40 MB
    /// buffer, fresh in a first evaluation, and two passes over it).
    bool m_indicesAreRanks = false;
    RowBitmap m_written; ///< the output rows some piece writes
    mutable std::once_flag m_winnersAsked;
    mutable std::atomic<bool> m_winnersFound{false};
    /// Per output row, its winner's number (rows not written: unset), once m_winnersFound.
    mutable std::vector<std::int32_t> m_winners;
    std::int64_t m_writtenRows = 0;
    std::vector<ReadOrderSummary> m_slotSummaries;
    std::int64_t m_lastRead = -1;
};

} // namespace ss::ui
