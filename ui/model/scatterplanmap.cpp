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
    void read(std::int64_t first, std::int64_t step, std::int64_t count,
              ReadPosition* out) const override
    {
        m_map->readOutput(first, step, count, out);
    }
    void blockMinima(std::int64_t first, std::int64_t step, const std::int64_t* edges,
                     std::size_t blocks, ReadRank* least) const override
    {
        if (step == 1)
            m_map->outputBlockMinima(first, edges, blocks, least);
        else
            ReadOrderMap::blockMinima(first, step, edges, blocks, least);
    }
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
    map->m_inputRows = rows;
    return map;
}

std::int64_t ScatterPlanMap::bytes() const
{
    return (m_targetRows + m_inputRows) * std::int64_t(sizeof(std::int32_t)) +
           (m_filled ? RowBitmap::bytesFor(m_targetRows) : 0);
}

bool ScatterPlanMap::findWinners(JobContext* ctx)
{
    if (!scatterWinners(ctx)) return false;
    rankWinners();
    if (!m_filled && m_writtenRows != m_targetRows) return false;
    summarizeSlots();
    return true;
}

bool ScatterPlanMap::scatterWinners(JobContext* ctx)
{
    m_winners.assign(std::size_t(m_targetRows), -1);
    std::int32_t* winners = m_winners.data();
    // In plan order: a later row overwrites an earlier one, as the copy engine runs the pieces.
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        const auto base = std::int32_t(m_pieceBases[p]);
        const bool named = visitIndices(piece.indices, [&](const auto* indices) {
            for (std::int64_t from = 0; from < piece.count; from += kCancelCheckRows) {
                if (ctx) ctx->throwIfCancelled();
                const std::int64_t to = std::min(piece.count, from + kCancelCheckRows);
                for (std::int64_t j = from; j < to; ++j) {
                    const std::int64_t t = indices[j];
                    if (t < 0 || t >= m_targetRows) return false;
                    winners[t] = base + std::int32_t(j);
                }
            }
            return true;
        });
        if (!named) return false;
    }
    return true;
}

void ScatterPlanMap::rankWinners()
{
    if (m_filled) m_written = RowBitmap(m_targetRows);
    m_ranks.assign(std::size_t(m_inputRows), -1);
    // Rows are read in output order: a winner's rank is the written rows before its row.
    std::int32_t rank = 0;
    for (std::int64_t t = 0; t < m_targetRows; ++t) {
        const std::int32_t w = m_winners[std::size_t(t)];
        if (w < 0) continue;
        if (m_filled) m_written.set(t);
        m_ranks[std::size_t(w)] = rank++;
    }
    if (m_filled) m_written.finish();
    m_writtenRows = rank;
    m_lastRead = m_writtenRows * m_rowLength - 1;
}

void ScatterPlanMap::summarizeSlots()
{
    // Per slot, its rows' lowest rank (whose first element is the slot's first read) and
    // highest (whose last element is its last).
    m_slotSummaries.assign(m_slotSizes.size(), ReadOrderSummary{});
    std::vector<std::int64_t> lowest(m_slotSizes.size(), m_writtenRows);
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        const std::int32_t* ranks = m_ranks.data() + m_pieceBases[p];
        std::int64_t read = 0, low = m_writtenRows, lowRow = -1, high = -1;
        for (std::int64_t j = 0; j < piece.count; ++j) {
            const std::int64_t r = ranks[j];
            if (r < 0) continue;
            ++read;
            if (r < low) {
                low = r;
                lowRow = j;
            }
            high = std::max(high, r);
        }
        if (read == 0) continue;
        ReadOrderSummary& summary = m_slotSummaries[std::size_t(piece.slot)];
        summary.selected += read * m_rowLength;
        summary.last = std::max(summary.last, (high + 1) * m_rowLength - 1);
        if (low < lowest[std::size_t(piece.slot)]) {
            lowest[std::size_t(piece.slot)] = low;
            summary.first = piece.inOffset + lowRow * m_rowLength;
        }
    }
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
    ReadPosition position = -1;
    readInput(slot, index, 1, 1, &position);
    return position;
}

void ScatterPlanMap::readInput(int slot, std::int64_t first, std::int64_t step, std::int64_t count,
                               ReadPosition* out) const
{
    std::fill(out, out + count, ReadPosition(-1));
    if (step != 1) {
        for (std::int64_t i = 0; i < count; ++i)
            readInput(slot, first + i * step, 1, 1, out + i);
        return;
    }
    // Each piece's rows inside the run, in order; an element that two pieces read takes its
    // position from the first piece whose row wins.
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        if (piece.slot != slot) continue;
        const std::int64_t from = std::max(first, piece.inOffset);
        const std::int64_t to = std::min(first + count, piece.inOffset + piece.count * m_rowLength);
        if (from >= to) continue;
        const std::int32_t* ranks = m_ranks.data() + m_pieceBases[p];
        std::int64_t row = (from - piece.inOffset) / m_rowLength;
        std::int64_t offset = from - piece.inOffset - row * m_rowLength;
        std::int64_t rank = ranks[row];
        for (std::int64_t v = from; v < to; ++v) {
            ReadPosition& o = out[v - first];
            if (rank >= 0 && o < 0) o = ReadPosition(rank * m_rowLength + offset);
            if (++offset == m_rowLength && v + 1 < to) {
                offset = 0;
                rank = ranks[++row];
            }
        }
    }
}

void ScatterPlanMap::readOutput(std::int64_t first, std::int64_t step, std::int64_t count,
                                ReadPosition* out) const
{
    std::fill(out, out + count, ReadPosition(-1));
    m_written.readRows(0, m_rowLength, first, step, count, out);
}

void ScatterPlanMap::outputBlockMinima(std::int64_t first, const std::int64_t* edges,
                                       std::size_t blocks, ReadRank* least) const
{
    m_written.rowsBlockMinima(0, m_rowLength, first, edges, blocks, least);
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
