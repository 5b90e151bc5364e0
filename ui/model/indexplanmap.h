// SPDX-License-Identifier: GPL-3.0-or-later
// Provenance of an index-driven plan (gather, gather_nd) worked out from the plan: the output is
// rows, and row r copies the run of the input that its index tuple names, read from the index
// tensor in place. An output element's source is then a division and an index read, an input
// element's targets one scan of the index tuples (on the lookup's worker), and nothing is kept
// per output element. Only the input's read order is kept: an input element's read position is
// the number of distinct elements read before its first read, which depends on every index before
// it, so no formula gives it; one pass over the index tuples in output order numbers the input,
// and an output element's position is its source's. Where every run starts on a multiple of its
// length (gather's rows, gather_nd's slices), runs are whole blocks of the input, read whole or
// not at all: the order keeps one position per block (4 bytes per row, not per element), and an
// element's position is its block's plus its place in the block. Otherwise one per element.
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

/// Calls f(elements) with an index tensor's elements as `const T*`, T its C++ type (int16,
/// int32 or int64: the planners take no other), for a pass over them without a switch per
/// element.
template <class F> decltype(auto) visitIndices(const Tensor& indices, F&& f)
{
    switch (indices.dtype()) {
    case DType::Int16: return f(indices.data<std::int16_t>());
    case DType::Int32: return f(indices.data<std::int32_t>());
    default: return f(indices.data<std::int64_t>());
    }
}

/// Index element `k` of an index tensor.
inline std::int64_t indexAt(const Tensor& indices, std::int64_t k)
{
    return visitIndices(indices, [k](const auto* elements) { return std::int64_t(elements[k]); });
}

/// An index plan's provenance: one IndexPiece in gather form (not scatter) that writes the
/// whole of the plan's one output; or one row list of any order (a NumPy or PyTorch integer array
/// index in the Frameworks panel, roll's element list), whose rows' starts it keeps as an index
/// tensor of 4 bytes per row (8 past 2^31 elements) instead of 8-byte sources per element.
class IndexPlanMap : public std::enable_shared_from_this<IndexPlanMap>
{
public:
    /// The map of `plan` over inputs of these element counts (slot order), or null if the plan
    /// is not one gather-form IndexPiece covering its one output. Cheap: the read order is
    /// numbered by numberReads(), which must be called before the map is used.
    /// A row list's starts are copied into the index tensor, checked against `limits` and
    /// charged to it first; null if they do not all read one input slot inside it.
    static std::shared_ptr<IndexPlanMap>
    make(const OpPlan& plan, const std::vector<std::int64_t>& slotSizes, const Limits& limits = {});
    /// The bytes numberReads() will keep: 4 per block of the input.
    std::int64_t orderBytes() const;
    /// The input slot the rows read.
    int readSlot() const { return m_piece.slot; }
    /// The input elements one kept position stands for (1, or the runs' length).
    std::int64_t blockLength() const { return m_blockLength; }
    /// The bytes of a row list's starts that make() kept (0 for an IndexPiece, whose indices
    /// are an input's).
    std::int64_t rowBytes() const { return m_rowBytes; }
    /// Numbers the input slot's elements in the order the rows first read them: one pass over
    /// the rows, which checks `ctx` for cancellation now and then (ctx may be null).
    void numberReads(JobContext* ctx);

    int outputCount() const { return 1; }
    int slotCount() const { return int(m_slotSizes.size()); }
    std::int64_t outputSize() const { return m_outputSize; }
    /// The rows the output has (what a targets() scan reads).
    std::int64_t rows() const { return m_rows; }

    /// packSource(slot, index) of output element `index` (which must exist).
    std::int64_t source(std::int64_t index) const;
    /// Every output element copied from input slot `slot`'s element `index`, in output order
    /// (one output), found by a scan of the rows.
    std::vector<std::vector<std::int64_t>> targets(int slot, std::int64_t index) const;

    ReadOrder inputOrder(int slot) const;
    /// The one output's order and summary (`output` is 0, as for the other plan maps).
    ReadOrder outputOrder(int output = 0) const;
    ReadOrderSummary inputSummary(int slot) const;
    ReadOrderSummary outputSummary(int output = 0) const;
    std::int64_t lastRead() const { return m_lastRead; }

    /// ReadOrderMap::read for the output: each element's source's position.
    void readOutput(std::int64_t first, std::int64_t step, std::int64_t count,
                    ReadPosition* out) const;
    /// The input slot's element `index`'s read position (numberReads() made them).
    ReadPosition position(std::int64_t index) const
    {
        const std::int64_t block = index / m_blockLength;
        const ReadPosition first = order()[block];
        return first < 0 ? -1 : first + (index - block * m_blockLength);
    }
    /// ReadOrderMap::read for the input slot.
    void readInput(std::int64_t first, std::int64_t step, std::int64_t count,
                   ReadPosition* out) const;
    /// ReadOrderMap::blockMinima along a run of step 1 of the output (`output`) or the input
    /// slot: positions rise by one along each kept block, so a block's part of the run lowers
    /// the minima at once. False (nothing done) where one position is kept per element.
    bool blockMinima(bool output, std::int64_t first, const std::int64_t* edges, std::size_t blocks,
                     ReadRank* least) const;

private:
    IndexPlanMap() = default;
    /// make() for a row list of `size` elements.
    static std::shared_ptr<IndexPlanMap> fromRows(const RowsPiece& rows, std::int64_t size,
                                                  const std::vector<std::int64_t>& slotSizes,
                                                  const Limits& limits);
    /// The input offset of row `r`'s run.
    std::int64_t rowStart(std::int64_t r) const;
    /// Keeps one position per run-long block of the input if every run starts on a multiple of
    /// its length, `aligned` says (else one per element).
    void setBlocks(bool aligned);

    IndexPiece m_piece;
    std::vector<std::int64_t> m_slotSizes;
    std::int64_t m_outputSize = 0;
    std::int64_t m_rows = 0;
    /// The elements of the input that one kept position stands for: the runs' length where
    /// they are aligned blocks, else 1.
    std::int64_t m_blockLength = 1;
    /// Per block of the input, the read position of its first element (-1: not read): int32
    /// (StoredPosition), a buffer of the tensors' pool.
    Tensor m_order;
    const StoredPosition* order() const { return m_order.data<StoredPosition>(); }
    ReadOrderSummary m_summary;
    std::int64_t m_lastRead = -1;
    std::int64_t m_rowBytes = 0;
};

} // namespace ss::ui
