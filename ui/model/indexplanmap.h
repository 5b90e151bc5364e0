// SPDX-License-Identifier: GPL-3.0-or-later
// Provenance of an index-driven plan (gather, gather_nd) worked out from the plan: the output is
// rows, and row r copies the run of the input that its index tuple names, read from the index
// tensor in place. An output element's source is then a division and an index read, an input
// element's targets one scan of the index tuples (on the lookup's worker), and nothing is kept
// per output element. Only the input's read order is kept (4 bytes per input element): an input
// element's read position is the number of distinct elements read before its first read, which
// depends on every index before it, so no formula gives it; one pass over the index tuples in
// output order numbers the input, and an output element's position is its source's.
#pragma once

#include "core/op.h"
#include "ui/model/readorder.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ss {
class JobContext;
}

namespace ss::ui {

/// Index element `k` of an index tensor (int16, int32 or int64: the planners take no other).
std::int64_t indexAt(const Tensor& indices, std::int64_t k);

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
    /// The bytes numberReads() will keep.
    std::int64_t orderBytes() const;
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
    ReadPosition position(std::int64_t index) const { return m_order[std::size_t(index)]; }

private:
    IndexPlanMap() = default;
    /// make() for a row list of `size` elements.
    static std::shared_ptr<IndexPlanMap> fromRows(const RowsPiece& rows, std::int64_t size,
                                                  const std::vector<std::int64_t>& slotSizes,
                                                  const Limits& limits);
    /// The input offset of row `r`'s run.
    std::int64_t rowStart(std::int64_t r) const;

    IndexPiece m_piece;
    std::vector<std::int64_t> m_slotSizes;
    std::int64_t m_outputSize = 0;
    std::int64_t m_rows = 0;
    StoredPositions m_order;
    ReadOrderSummary m_summary;
    std::int64_t m_lastRead = -1;
    std::int64_t m_rowBytes = 0;
};

} // namespace ss::ui
