// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/scatterplanmap.h"

#include "core/executor.h"
#include "ui/model/affineplanmap.h"
#include "ui/model/indexplanmap.h"

#include <algorithm>
#include <limits>

namespace ss::ui {

namespace {

// How often the pass over the indices looks at the cancel flag (in rows).
constexpr std::int64_t kCancelCheckRows = std::int64_t(1) << 16;

class ScatterOutputOrder final : public ReadOrderMap
{
public:
    ScatterOutputOrder(std::shared_ptr<const ScatterPlanMap> map, std::int64_t size)
        : ReadOrderMap(size), m_map(std::move(map))
    {
    }
    ReadPosition at(std::int64_t flat) const override { return m_map->outputPosition(flat); }
    std::int64_t bytes() const override { return 0; }

private:
    std::shared_ptr<const ScatterPlanMap> m_map;
};

} // namespace

std::shared_ptr<ScatterPlanMap> ScatterPlanMap::make(const OpPlan& plan,
                                                     const std::vector<std::int64_t>& slotSizes)
{
    if (plan.outputs.size() != 1) return nullptr;
    const OutputPlan& output = plan.outputs.front();
    const std::int64_t size = numElements(output.shape);
    if (output.computed.isValid() || size <= 0 || output.pieces.empty()) return nullptr;
    std::shared_ptr<ScatterPlanMap> map(new ScatterPlanMap);
    map->m_slotSizes = slotSizes;
    std::size_t first = 0;
    if (const auto* fill = std::get_if<AffinePiece>(&output.pieces.front())) {
        // OutputPlan::fillPiece: one constant over the whole output, in row-major order.
        if (fill->slot != kConstantSlot || fill->outOffset != 0 ||
            fill->extents != std::vector<std::int64_t>(output.shape.begin(), output.shape.end()) ||
            fill->outStrides != rowMajorStrides(output.shape))
            return nullptr;
        map->m_filled = true;
        first = 1;
    }
    std::int64_t rows = 0;
    for (std::size_t p = first; p < output.pieces.size(); ++p) {
        const auto* piece = std::get_if<IndexPiece>(&output.pieces[p]);
        if (!piece || !piece->scatter || piece->groups != 1 || piece->slot < 0 ||
            piece->slot >= int(slotSizes.size()) || piece->indexStrides.size() != 1 ||
            piece->rowLength <= 0 || piece->indexStrides.front() != piece->rowLength ||
            piece->outOffset != 0 || piece->count < 0 || piece->inOffset < 0 ||
            piece->indices.size() < piece->count)
            return nullptr;
        const DType type = piece->indices.dtype();
        if (type != DType::Int16 && type != DType::Int32 && type != DType::Int64) return nullptr;
        if (map->m_pieces.empty()) {
            map->m_rowLength = piece->rowLength;
            map->m_targetRows = piece->targetRows;
        }
        if (piece->rowLength != map->m_rowLength || piece->targetRows != map->m_targetRows ||
            piece->inOffset + piece->count * piece->rowLength > slotSizes[std::size_t(piece->slot)])
            return nullptr;
        map->m_pieceBases.push_back(rows);
        rows += piece->count;
        map->m_pieces.push_back(*piece);
    }
    if (map->m_pieces.empty() || map->m_targetRows * map->m_rowLength != size ||
        rows > std::numeric_limits<std::int32_t>::max())
        return nullptr;
    return map;
}

std::int64_t ScatterPlanMap::bytes() const
{
    return m_targetRows * std::int64_t(sizeof(std::int32_t)) +
           (m_filled ? RowBitmap::bytesFor(m_targetRows) : 0);
}

bool ScatterPlanMap::findWinners(JobContext* ctx)
{
    m_winners.assign(std::size_t(m_targetRows), -1);
    // In plan order: a later row overwrites an earlier one, as the copy engine runs the pieces.
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        for (std::int64_t j = 0; j < piece.count; ++j) {
            if (ctx && j % kCancelCheckRows == 0) ctx->throwIfCancelled();
            const std::int64_t t = indexAt(piece.indices, j);
            if (t < 0 || t >= m_targetRows) return false;
            m_winners[std::size_t(t)] = std::int32_t(m_pieceBases[p] + j);
        }
    }
    if (m_filled) m_written = RowBitmap(m_targetRows);
    m_slotSummaries.assign(m_slotSizes.size(), ReadOrderSummary{});
    m_writtenRows = 0;
    for (std::int64_t t = 0; t < m_targetRows; ++t) {
        const std::int32_t w = m_winners[std::size_t(t)];
        if (w < 0) continue;
        if (m_filled) m_written.set(t);
        // Rows are read in output order: the slot's first element read is its first winner's.
        const auto [p, j] = pieceOf(w);
        ReadOrderSummary& summary = m_slotSummaries[std::size_t(m_pieces[p].slot)];
        if (summary.selected == 0) summary.first = m_pieces[p].inOffset + j * m_rowLength;
        summary.selected += m_rowLength;
        summary.last = (m_writtenRows + 1) * m_rowLength - 1;
        ++m_writtenRows;
    }
    if (!m_filled && m_writtenRows != m_targetRows) return false;
    if (m_filled) m_written.finish();
    m_lastRead = m_writtenRows * m_rowLength - 1;
    return true;
}

std::pair<std::size_t, std::int64_t> ScatterPlanMap::pieceOf(std::int32_t winner) const
{
    const auto p = std::size_t(
        std::upper_bound(m_pieceBases.begin(), m_pieceBases.end(), std::int64_t(winner)) -
        m_pieceBases.begin() - 1);
    return {p, winner - m_pieceBases[p]};
}

std::int64_t ScatterPlanMap::source(int, std::int64_t index) const
{
    const std::int64_t t = index / m_rowLength;
    const std::int32_t w = m_winners[std::size_t(t)];
    if (w < 0) return kNoSource;
    const auto [p, j] = pieceOf(w);
    return packSource(m_pieces[p].slot,
                      m_pieces[p].inOffset + j * m_rowLength + (index - t * m_rowLength));
}

ReadPosition ScatterPlanMap::outputPosition(std::int64_t index) const
{
    const std::int64_t t = index / m_rowLength;
    if (m_winners[std::size_t(t)] < 0) return -1;
    // Without a fill every row is written: a row's rank is the row itself.
    const std::int64_t rank = m_filled ? m_written.rank(t) : t;
    return ReadPosition(rank * m_rowLength + (index - t * m_rowLength));
}

std::vector<std::vector<std::int64_t>> ScatterPlanMap::targets(int slot, std::int64_t index) const
{
    std::vector<std::vector<std::int64_t>> all(1);
    if (slot < 0 || slot >= slotCount() || index < 0 || index >= m_slotSizes[std::size_t(slot)])
        return all;
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        if (piece.slot != slot || index < piece.inOffset) continue;
        const std::int64_t j = (index - piece.inOffset) / m_rowLength;
        if (j >= piece.count) continue;
        const std::int64_t t = indexAt(piece.indices, j);
        // Only the row's last writer is copied.
        if (m_winners[std::size_t(t)] == m_pieceBases[p] + j)
            all.front().push_back(t * m_rowLength + (index - piece.inOffset - j * m_rowLength));
    }
    return all;
}

ReadPosition ScatterPlanMap::inputPosition(int slot, std::int64_t index) const
{
    // As targets() finds the one target, without a list per element.
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        if (piece.slot != slot || index < piece.inOffset) continue;
        const std::int64_t j = (index - piece.inOffset) / m_rowLength;
        if (j >= piece.count) continue;
        const std::int64_t t = indexAt(piece.indices, j);
        if (m_winners[std::size_t(t)] == m_pieceBases[p] + j)
            return outputPosition(t * m_rowLength + (index - piece.inOffset - j * m_rowLength));
    }
    return -1;
}

ReadOrder ScatterPlanMap::inputOrder(int slot) const
{
    const std::int64_t size = m_slotSizes[std::size_t(slot)];
    if (m_slotSummaries[std::size_t(slot)].selected == 0) return unreadOrder(size);
    return std::make_shared<const PlanInputOrder<ScatterPlanMap>>(shared_from_this(), slot, size);
}

ReadOrder ScatterPlanMap::outputOrder(int) const
{
    const std::int64_t size = outputSize(0);
    // Every row written, no fill: the output is read in its own order.
    if (!m_filled) return sequentialOrder(0, size);
    return std::make_shared<const ScatterOutputOrder>(shared_from_this(), size);
}

ReadOrderSummary ScatterPlanMap::outputSummary(int) const
{
    if (m_writtenRows == 0) return {};
    const std::int64_t firstRow = m_filled ? m_written.select(0) : 0;
    return {m_writtenRows * m_rowLength, firstRow * m_rowLength, m_lastRead};
}

} // namespace ss::ui
