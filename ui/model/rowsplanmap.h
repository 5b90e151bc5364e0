// SPDX-License-Identifier: GPL-3.0-or-later
// Provenance of a plan that picks whole rows of an input in their own order (boolean_mask,
// dynamic_partition, unique's y, a gather of rows in order), worked out from the plan instead of
// kept per element. Each output is one row list, or one index piece's gather form with an index
// per row (boolean_mask's and dynamic_partition's row numbers), whose rows are distinct rows of
// one input, in increasing order, and no two outputs share a row; or it is computed (unique's idx
// and count), all constants (one_hot, sequence_mask) or empty, and reads nothing. Every input
// element is then read at most once, in output order: an output element's read position is its
// place among the elements read (the outputs before it, then its index), and an input element's is
// the place of the one element that copies it. What is kept is which input rows each output picks,
// as a bitmap with a count of the bits set before every 512 of them and before every 64 within
// those (1/8 byte per input row and output, plus 1/64 and 1/32 byte): an input row's place in its
// output is a rank in the bitmap, and an output row's source a select, a popcount or a few, so
// nothing is kept per element.
#pragma once

#include "core/op.h"
#include "ui/model/readordermap.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ss {
class JobContext;
}

namespace ss::ui {

/// A set of rows 0 .. n-1 as a bitmap with the count of rows set before every 512 of them, and
/// before each 64 within their 512, so that a rank is one popcount and a select a few: 1/8 byte
/// per row, plus 1/64 and 1/32.
class RowBitmap
{
public:
    RowBitmap() = default;
    /// `rows` rows, none set.
    explicit RowBitmap(std::int64_t rows);
    /// The bytes a bitmap of `rows` rows keeps.
    static std::int64_t bytesFor(std::int64_t rows);

    bool has(std::int64_t row) const { return (m_bits[std::size_t(row >> 6)] >> (row & 63)) & 1; }
    /// Sets `row`; false if it was set already. (No branch: over random rows a mispredicted one
    /// cost more than the memory.)
    bool set(std::int64_t row)
    {
        std::uint64_t& word = m_bits[std::size_t(row >> 6)];
        const std::uint64_t bit = std::uint64_t(1) << (row & 63);
        const bool was = word & bit;
        word |= bit;
        return !was;
    }
    /// Counts the rank samples: after the last set(), before rank() or select().
    void finish();
    /// The rows set before `row`.
    std::int64_t rank(std::int64_t row) const;
    /// out[i] = rank(rows[i]) for each i < count whose out[i] is not negative (the others are
    /// left alone; the ranks must fit 31 bits): a pass with no branch per row.
    void rankEach(const std::int16_t* rows, std::int64_t count, std::int32_t* out) const;
    void rankEach(const std::int32_t* rows, std::int64_t count, std::int32_t* out) const;
    void rankEach(const std::int64_t* rows, std::int64_t count, std::int32_t* out) const;
    /// The row set that has `r` rows set before it (r < the rows set).
    std::int64_t select(std::int64_t r) const;
    /// The rows set in [from, to) (a few popcounts when they are close).
    std::int64_t count(std::int64_t from, std::int64_t to) const;
    /// The first row set in [from, to), or `to` if none is.
    std::int64_t next(std::int64_t from, std::int64_t to) const;

    /// The read order of a tensor of rows of `length` elements whose rows set are read in
    /// order from `base` on (row r's element e at base + rank(r) * length + e), and the others
    /// not at all: ReadOrderMap::read, writing the positions of the elements read and leaving
    /// the others alone. A rank per row where the walk jumps, the next row's from the last one's
    /// where it steps to it (a view's row, a whole-order pass).
    void readRows(std::int64_t base, std::int64_t length, std::int64_t first, std::int64_t step,
                  std::int64_t count, ReadPosition* out) const;
    /// The same order's ReadOrderMap::blockMinima along a run of consecutive elements (step 1):
    /// positions rise with the index, so a block's lowest is its first element in a row set,
    /// found with a few popcounts per block.
    void rowsBlockMinima(std::int64_t base, std::int64_t length, std::int64_t first,
                         const std::int64_t* edges, std::size_t blocks, ReadRank* least) const;

private:
    std::vector<std::uint64_t> m_bits;
    std::vector<std::int64_t> m_ranks;      ///< per 512 rows, the rows set before them
    std::vector<std::uint16_t> m_wordRanks; ///< per word, the rows set before it in its 512
};

/// A row-picking plan's provenance (see the file's comment).
class RowsPlanMap : public std::enable_shared_from_this<RowsPlanMap>
{
public:
    /// Inputs read by more outputs than this keep their stored sources: an input element's
    /// position tests each of them, and their bitmaps would pass 4 bytes per input row.
    static constexpr int kMaxOutputsPerSlot = 32;

    /// The map of `plan` over inputs of these element counts (slot order), or null if an output
    /// is not computed, empty, or one RowsPiece, gather-form IndexPiece of one index per row or
    /// rank-1 run of consecutive elements (an AffinePiece of stride 1) that covers it from its
    /// start (reading rows of one input slot with a row length that
    /// divides the slot, or only constants), or if an input is read by outputs of different row
    /// lengths or by more than kMaxOutputsPerSlot.
    /// Cheap: the rows are checked and marked by markRows(), which must succeed before the map
    /// is used.
    static std::shared_ptr<RowsPlanMap> make(const OpPlan& plan,
                                             const std::vector<std::int64_t>& slotSizes);
    /// The bytes markRows() will keep.
    std::int64_t bytes() const { return m_bytes; }
    /// One pass over the plan's rows (the plan make() was given): marks the rows each output
    /// picks, checking `ctx` for cancellation now and then (ctx may be null). False if they are
    /// not distinct, row-aligned rows in increasing order, or two outputs share one: the plan
    /// then needs its stored sources.
    bool markRows(const OpPlan& plan, JobContext* ctx);

    int outputCount() const { return int(m_outputs.size()); }
    int slotCount() const { return int(m_slotSizes.size()); }
    std::int64_t outputSize(int output) const { return m_outputs[std::size_t(output)].size; }

    /// packSource(slot, index) of output `output`'s element `index` (which must exist), or
    /// kNoSource for an output that reads nothing.
    std::int64_t source(int output, std::int64_t index) const;
    /// The output element copied from input slot `slot`'s element `index` (at most one), per
    /// output.
    std::vector<std::vector<std::int64_t>> targets(int slot, std::int64_t index) const;

    /// Input slot `slot`'s element `index`'s read position, or -1.
    ReadPosition inputPosition(int slot, std::int64_t index) const;
    /// ReadOrderMap::read for input slot `slot` (RowBitmap::readRows of its outputs' bitmaps).
    void readInput(int slot, std::int64_t first, std::int64_t step, std::int64_t count,
                   ReadPosition* out) const;
    /// ReadOrderMap::blockMinima for input slot `slot`, along a run of consecutive elements
    /// (step 1; RowBitmap::rowsBlockMinima of its outputs' bitmaps). Always true (the same form
    /// as AffinePlanMap's, which may decline).
    bool inputBlockMinima(int slot, std::int64_t first, const std::int64_t* edges,
                          std::size_t blocks, ReadRank* least) const;

    ReadOrder inputOrder(int slot) const;
    ReadOrder outputOrder(int output) const;
    ReadOrderSummary inputSummary(int slot) const { return m_slotSummaries[std::size_t(slot)]; }
    ReadOrderSummary outputSummary(int output) const;
    /// The op's last read position.
    std::int64_t lastRead() const { return m_lastRead; }

private:
    RowsPlanMap() = default;

    /// One output: the input rows it picks, or none (reads = false).
    struct Output
    {
        bool reads = false;
        bool constant = false; ///< a row list of constants only (checked by markRows)
        int slot = -1;
        std::int64_t size = 0;
        std::int64_t base = 0;      ///< the read position of its first element
        std::int64_t rowLength = 1; ///< > 0 where it reads
        RowBitmap picked;           ///< the input rows of its slot it picks
    };

    std::vector<Output> m_outputs;
    std::vector<std::vector<int>> m_slotOutputs; ///< per slot, the outputs reading it
    std::vector<std::int64_t> m_slotSizes;
    std::vector<ReadOrderSummary> m_slotSummaries;
    std::int64_t m_bytes = 0;
    std::int64_t m_lastRead = -1;
};

} // namespace ss::ui
