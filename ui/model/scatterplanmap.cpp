// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/scatterplanmap.h"

#include "core/executor.h"
#include "ui/model/affineplanmap.h"
#include "ui/model/indexplanmap.h"
#include "ui/model/workerpool.h"

#include <algorithm>
#include <limits>
#include <utility>

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
    const std::int64_t ranks = m_indicesAreRanks ? 0 : m_inputRows;
    return (m_targetRows + ranks) * std::int64_t(sizeof(std::int32_t)) +
           RowBitmap::bytesFor(m_targetRows);
}

bool ScatterPlanMap::findWinners(JobContext* ctx)
{
    if (!markWinners(ctx)) return false;
    if (!m_filled && m_writtenRows != m_targetRows) return false;
    summarizeSlots(rankWinners(ctx));
    return true;
}

bool ScatterPlanMap::markWinners(JobContext* ctx)
{
    m_written = RowBitmap(m_targetRows);
    // No fill and no row named twice: a permutation of the rows, whose indices are its ranks.
    m_indicesAreRanks = !m_filled && m_inputRows == m_targetRows &&
                        std::all_of(m_pieces.begin(), m_pieces.end(), [](const IndexPiece& piece) {
                            return piece.distinctTargets && piece.indices.dtype() == DType::Int32;
                        });
    // From the tensors' pool, not the heap: freed with the evaluation before the last, it is
    // the next one's (the heap grew by it, 10^4 fresh pages at 10^7 rows, whenever the shown
    // evaluation's ranks held the block a new map would have reused).
    if (!m_indicesAreRanks) m_ranks = Tensor::empty(DType::Int32, {m_inputRows});
    std::int64_t written = 0;
    // From the last row to the first: the copy engine runs the pieces in plan order, so a row's
    // last writer is the first met here of those that name it.
    for (std::size_t p = m_pieces.size(); p-- > 0;) {
        const IndexPiece& piece = m_pieces[p];
        std::int32_t* wins = m_indicesAreRanks ? nullptr : ranksOf(p);
        const bool named = visitIndices(piece.indices, [&](const auto* indices) {
            for (std::int64_t to = piece.count; to > 0; to -= kCancelCheckRows) {
                if (ctx) ctx->throwIfCancelled();
                const std::int64_t from = std::max<std::int64_t>(0, to - kCancelCheckRows);
                for (std::int64_t j = to - 1; j >= from; --j) {
                    const std::int64_t t = indices[j];
                    if (t < 0 || t >= m_targetRows) return false;
                    const bool won = m_written.set(t);
                    if (wins) wins[j] = std::int32_t(won) - 1; // 0 or -1, ranked by rankWinners()
                    written += won;
                }
            }
            return true;
        });
        if (!named) return false;
    }
    // A plan that called its rows distinct when they were not keeps its stored sources.
    if (m_indicesAreRanks && written != m_inputRows) return false;
    m_written.finish();
    m_writtenRows = written;
    m_lastRead = m_writtenRows * m_rowLength - 1;
    return true;
}

std::vector<ScatterPlanMap::PieceReads> ScatterPlanMap::rankWinners(JobContext* ctx)
{
    // Rows are read in output order: a winner's rank is the written rows before its row (the
    // row itself when every row is written). The bitmap stays in the caches. Each piece's
    // rows read, lowest rank (whose first element is its slot's first read, if no other
    // piece's is lower) and highest (whose last element is its last) are taken on the way, a
    // block of ranks at a time while it is in the caches.
    std::vector<PieceReads> pieceReads(m_pieces.size());
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        // Written here, unless the indices are the ranks.
        std::int32_t* ranked = m_indicesAreRanks ? nullptr : ranksOf(p);
        const std::int32_t* ranks = std::as_const(*this).ranksOf(p);
        PieceReads& reads = pieceReads[p];
        reads.lowest = m_writtenRows;
        visitIndices(piece.indices, [&](const auto* indices) {
            for (std::int64_t from = 0; from < piece.count; from += kCancelCheckRows) {
                if (ctx) ctx->throwIfCancelled();
                const std::int64_t to = std::min(piece.count, from + kCancelCheckRows);
                if (ranked && m_filled)
                    m_written.rankEach(indices + from, to - from, ranked + from);
                else if (ranked)
                    for (std::int64_t j = from; j < to; ++j)
                        ranked[j] = ranked[j] < 0 ? ranked[j] : std::int32_t(indices[j]);
                for (std::int64_t j = from; j < to; ++j) {
                    const std::int32_t r = ranks[j];
                    reads.rows += r >= 0;
                    reads.highest = std::max<std::int64_t>(reads.highest, r);
                    // A row that wins none (-1) is no lower, as an unsigned number.
                    if (std::uint32_t(r) < std::uint64_t(reads.lowest)) {
                        reads.lowest = r;
                        reads.lowestRow = j;
                    }
                }
            }
            return true;
        });
    }
    return pieceReads;
}

std::int32_t ScatterPlanMap::winnerOf(std::int64_t row) const
{
    if (m_winnersFound.load(std::memory_order_acquire)) return m_winners[std::size_t(row)];
    // The first call has every winner found on the pool (a random write per row: 0.1 s at 10^7
    // would stall a hover); until then each call looks for the one input row that names `row`
    // and wins it (a pass over the indices, 4 bytes a row). A job that calls this (compare
    // mode's) is tracked by a holder of the pool, so this never lets go of the pool last.
    std::call_once(m_winnersAsked, [this] {
        WorkerPool::shared()->submit(
            {}, [self = shared_from_this()](JobContext&) { self->findEveryWinner(); });
    });
    std::int32_t winner = -1;
    for (std::size_t p = 0; p < m_pieces.size() && winner < 0; ++p) {
        const IndexPiece& piece = m_pieces[p];
        const std::int32_t* ranks = ranksOf(p);
        visitIndices(piece.indices, [&](const auto* indices) {
            for (std::int64_t j = 0; j < piece.count; ++j)
                if (indices[j] == row && ranks[j] >= 0) {
                    winner = std::int32_t(m_pieceBases[p] + j);
                    return true;
                }
            return true;
        });
    }
    return winner;
}

void ScatterPlanMap::findEveryWinner() const
{
    m_winners.resize(std::size_t(m_targetRows));
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const IndexPiece& piece = m_pieces[p];
        const std::int32_t* ranks = ranksOf(p);
        const auto base = std::int32_t(m_pieceBases[p]);
        visitIndices(piece.indices, [&](const auto* indices) {
            for (std::int64_t j = 0; j < piece.count; ++j)
                if (ranks[j] >= 0) m_winners[std::size_t(indices[j])] = base + std::int32_t(j);
            return true;
        });
    }
    m_winnersFound.store(true, std::memory_order_release);
}

void ScatterPlanMap::summarizeSlots(const std::vector<PieceReads>& pieceReads)
{
    // Per slot, from its pieces' rows read: the first element read is that of the row of lowest
    // rank, the last that of the row of highest.
    m_slotSummaries.assign(m_slotSizes.size(), ReadOrderSummary{});
    std::vector<std::int64_t> lowest(m_slotSizes.size(), m_writtenRows);
    for (std::size_t p = 0; p < m_pieces.size(); ++p) {
        const PieceReads& reads = pieceReads[p];
        if (reads.rows == 0) continue;
        const IndexPiece& piece = m_pieces[p];
        ReadOrderSummary& summary = m_slotSummaries[std::size_t(piece.slot)];
        summary.selected += reads.rows * m_rowLength;
        summary.last = std::max(summary.last, (reads.highest + 1) * m_rowLength - 1);
        if (reads.lowest < lowest[std::size_t(piece.slot)]) {
            lowest[std::size_t(piece.slot)] = reads.lowest;
            summary.first = piece.inOffset + reads.lowestRow * m_rowLength;
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
    if (!m_written.has(t)) return kNoSource;
    const auto [p, j] = pieceOf(winnerOf(t));
    return packSource(m_pieces[p].slot,
                      m_pieces[p].inOffset + j * m_rowLength + (index - t * m_rowLength));
}

ReadPosition ScatterPlanMap::outputPosition(std::int64_t index) const
{
    const std::int64_t t = index / m_rowLength;
    if (!m_written.has(t)) return -1;
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
        // Only the row's last writer is copied.
        if (ranksOf(p)[j] < 0) continue;
        const std::int64_t t = indexAt(piece.indices, j);
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
        const std::int32_t* ranks = ranksOf(p);
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
