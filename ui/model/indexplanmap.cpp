// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/indexplanmap.h"

#include "core/executor.h"
#include "ui/model/affineplanmap.h"

#include <algorithm>
#include <limits>

namespace ss::ui {

namespace {

// How often the numbering pass looks at the cancel flag (in rows).
constexpr std::int64_t kCancelCheckRows = std::int64_t(1) << 16;

// The read slot's order: the positions the numbering pass kept.
class NumberedOrder final : public ReadOrderMap
{
public:
    NumberedOrder(std::shared_ptr<const IndexPlanMap> map, std::int64_t size, std::int64_t bytes)
        : ReadOrderMap(size), m_map(std::move(map)), m_bytes(bytes)
    {
    }
    ReadPosition at(std::int64_t flat) const override { return m_map->position(flat); }
    void read(std::int64_t first, std::int64_t step, std::int64_t count,
              ReadPosition* out) const override
    {
        m_map->readInput(first, step, count, out);
    }
    void blockMinima(std::int64_t first, std::int64_t step, const std::int64_t* edges,
                     std::size_t blocks, ReadRank* least) const override
    {
        if (step != 1 || !m_map->blockMinima(false, first, edges, blocks, least))
            ReadOrderMap::blockMinima(first, step, edges, blocks, least);
    }
    std::int64_t bytes() const override { return m_bytes; }

private:
    std::shared_ptr<const IndexPlanMap> m_map;
    std::int64_t m_bytes;
};

// The output's order: each element takes its source's position.
class SourcePositionOrder final : public ReadOrderMap
{
public:
    SourcePositionOrder(std::shared_ptr<const IndexPlanMap> map, std::int64_t size)
        : ReadOrderMap(size), m_map(std::move(map))
    {
    }
    ReadPosition at(std::int64_t flat) const override
    {
        return m_map->position(sourceIndex(m_map->source(flat)));
    }
    void read(std::int64_t first, std::int64_t step, std::int64_t count,
              ReadPosition* out) const override
    {
        m_map->readOutput(first, step, count, out);
    }
    void blockMinima(std::int64_t first, std::int64_t step, const std::int64_t* edges,
                     std::size_t blocks, ReadRank* least) const override
    {
        if (step != 1 || !m_map->blockMinima(true, first, edges, blocks, least))
            ReadOrderMap::blockMinima(first, step, edges, blocks, least);
    }
    std::int64_t bytes() const override { return 0; }

private:
    std::shared_ptr<const IndexPlanMap> m_map;
};

} // namespace

std::shared_ptr<IndexPlanMap> IndexPlanMap::fromRows(const RowsPiece& rows, std::int64_t size,
                                                     const std::vector<std::int64_t>& slotSizes,
                                                     const Limits& limits)
{
    const auto count = std::int64_t(rows.rows.size());
    if (size <= 0 || rows.outOffset != 0 || rows.rowLength <= 0 || rows.constantRuns ||
        count * rows.rowLength != size)
        return nullptr;
    const int slot = sourceSlot(rows.rows.front());
    if (slot < 0 || slot >= int(slotSizes.size())) return nullptr;
    const std::int64_t slotSize = slotSizes[std::size_t(slot)];
    // The gather form of the list: tuple r is row r's start, read with index stride 1.
    const DType type =
        slotSize <= std::numeric_limits<std::int32_t>::max() ? DType::Int32 : DType::Int64;
    Tensor indices = Tensor::empty(type, {count}, limits);
    bool aligned = true;
    for (std::int64_t r = 0; r < count; ++r) {
        const std::int64_t s = rows.rows[std::size_t(r)];
        const std::int64_t start = sourceIndex(s);
        if (s < 0 || sourceSlot(s) != slot || start > slotSize - rows.rowLength) return nullptr;
        aligned = aligned && start % rows.rowLength == 0;
        if (type == DType::Int32)
            indices.data<std::int32_t>()[r] = std::int32_t(start);
        else
            indices.data<std::int64_t>()[r] = start;
    }
    checkStoredPositionLimit(size);
    std::shared_ptr<IndexPlanMap> map(new IndexPlanMap);
    map->m_piece.slot = slot;
    map->m_piece.indices = std::move(indices);
    map->m_piece.rowLength = rows.rowLength;
    map->m_piece.count = count;
    map->m_slotSizes = slotSizes;
    map->m_outputSize = size;
    map->m_rows = count;
    map->m_rowBytes = count * std::int64_t(dtypeSize(type));
    map->setBlocks(aligned);
    return map;
}

std::shared_ptr<IndexPlanMap> IndexPlanMap::make(const OpPlan& plan,
                                                 const std::vector<std::int64_t>& slotSizes,
                                                 const Limits& limits)
{
    if (plan.outputs.size() != 1) return nullptr;
    const OutputPlan& output = plan.outputs.front();
    if (output.computed.isValid() || output.pieces.size() != 1) return nullptr;
    if (const auto* rows = std::get_if<RowsPiece>(&output.pieces.front()))
        return fromRows(*rows, numElements(output.shape), slotSizes, limits);
    const auto* piece = std::get_if<IndexPiece>(&output.pieces.front());
    if (!piece || piece->scatter || piece->slot < 0 || piece->slot >= int(slotSizes.size()))
        return nullptr;
    const DType type = piece->indices.dtype();
    if (type != DType::Int16 && type != DType::Int32 && type != DType::Int64) return nullptr;
    const std::int64_t size = numElements(output.shape);
    // The rows fill the output exactly, from its start; an empty output reads nothing.
    if (size <= 0 || piece->outOffset != 0 || piece->rowLength <= 0 || piece->count <= 0 ||
        piece->groups <= 0 || piece->groupsPerBlock <= 0 || piece->indexStrides.empty() ||
        piece->elements() != size)
        return nullptr;
    const std::int64_t blocks = (piece->groups + piece->groupsPerBlock - 1) / piece->groupsPerBlock;
    if (piece->indices.size() < blocks * piece->count * std::int64_t(piece->indexStrides.size()))
        return nullptr;
    checkStoredPositionLimit(size);
    std::shared_ptr<IndexPlanMap> map(new IndexPlanMap);
    map->m_piece = *piece;
    map->m_slotSizes = slotSizes;
    map->m_outputSize = size;
    map->m_rows = piece->groups * piece->count;
    const std::int64_t length = piece->rowLength;
    map->setBlocks(piece->inOffset % length == 0 && piece->groupStride % length == 0 &&
                   std::all_of(piece->indexStrides.begin(), piece->indexStrides.end(),
                               [length](std::int64_t stride) { return stride % length == 0; }));
    return map;
}

void IndexPlanMap::setBlocks(bool aligned)
{
    m_blockLength = aligned ? m_piece.rowLength : 1;
}

std::int64_t IndexPlanMap::orderBytes() const
{
    const std::int64_t n = m_slotSizes[std::size_t(m_piece.slot)];
    return (n + m_blockLength - 1) / m_blockLength * std::int64_t(sizeof(StoredPosition));
}

std::int64_t IndexPlanMap::rowStart(std::int64_t r) const
{
    // As the copy engine reads the piece (IndexPiece's gather form).
    const std::int64_t g = r / m_piece.count;
    const std::int64_t j = r - g * m_piece.count;
    const std::int64_t t = (g / m_piece.groupsPerBlock) * m_piece.count + j;
    const auto width = std::int64_t(m_piece.indexStrides.size());
    std::int64_t at = m_piece.inOffset + g * m_piece.groupStride;
    for (std::int64_t c = 0; c < width; ++c)
        at += indexAt(m_piece.indices, t * width + c) * m_piece.indexStrides[std::size_t(c)];
    return at;
}

void IndexPlanMap::numberReads(JobContext* ctx)
{
    const std::int64_t n = m_slotSizes[std::size_t(m_piece.slot)];
    // From the tensors' pool, as outputs are: the next map reuses the buffer of the last but
    // one (from the heap, the shown map's order held its block and the heap grew).
    m_order = Tensor::empty(DType::Int32, {(n + m_blockLength - 1) / m_blockLength});
    StoredPosition* const positions = m_order.data<StoredPosition>();
    std::fill(positions, positions + m_order.size(), StoredPosition(-1));
    const std::int64_t length = m_piece.rowLength;
    std::int64_t next = 0;
    m_summary = {};
    for (std::int64_t r = 0; r < m_rows; ++r) {
        if (ctx && r % kCancelCheckRows == 0) ctx->throwIfCancelled();
        const std::int64_t start = rowStart(r);
        if (m_blockLength == length) {
            // The run is one whole block: numbered together.
            StoredPosition& block = positions[start / length];
            if (block < 0) {
                block = StoredPosition(next);
                next += length;
            }
            continue;
        }
        StoredPosition* run = positions + start;
        for (std::int64_t k = 0; k < length; ++k)
            if (run[k] < 0) run[k] = StoredPosition(next++);
    }
    m_lastRead = next - 1;
    m_summary.selected = next;
    m_summary.first = next > 0 ? sourceIndex(source(0)) : -1;
    m_summary.last = next - 1;
}

std::int64_t IndexPlanMap::source(std::int64_t index) const
{
    const std::int64_t r = index / m_piece.rowLength;
    return packSource(m_piece.slot, rowStart(r) + (index - r * m_piece.rowLength));
}

void IndexPlanMap::readOutput(std::int64_t first, std::int64_t step, std::int64_t count,
                              ReadPosition* out) const
{
    // A row's source is looked up once for all its elements read together; a row that is one
    // block of the input reads its positions in a row from its block's.
    const std::int64_t length = m_piece.rowLength;
    const bool blocks = m_blockLength == length;
    std::int64_t row = -1, start = 0, base = 0;
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t flat = first + i * step;
        const std::int64_t r = flat / length;
        if (r != row) {
            row = r;
            const std::int64_t in = rowStart(r);
            start = in - r * length;
            if (blocks) base = order()[std::size_t(in / length)] - r * length;
        }
        out[i] = blocks ? base + flat : order()[std::size_t(start + flat)];
    }
}

void IndexPlanMap::readInput(std::int64_t first, std::int64_t step, std::int64_t count,
                             ReadPosition* out) const
{
    if (m_blockLength == 1) {
        for (std::int64_t i = 0; i < count; ++i)
            out[i] = order()[std::size_t(first + i * step)];
        return;
    }
    // Element first + i * step is block b, place k in it: both stepped on, without a division
    // per element (step = stepBlocks blocks and stepPlaces places, 0 <= stepPlaces < length).
    const std::int64_t length = m_blockLength;
    std::int64_t stepBlocks = step / length, stepPlaces = step % length;
    if (stepPlaces < 0) {
        stepPlaces += length;
        --stepBlocks;
    }
    std::int64_t b = first / length, k = first % length;
    for (std::int64_t i = 0; i < count; ++i) {
        const ReadPosition at = order()[std::size_t(b)];
        out[i] = at < 0 ? -1 : at + k;
        b += stepBlocks;
        k += stepPlaces;
        if (k >= length) {
            k -= length;
            ++b;
        }
    }
}

bool IndexPlanMap::blockMinima(bool output, std::int64_t first, const std::int64_t* edges,
                               std::size_t blocks, ReadRank* least) const
{
    const std::int64_t length = m_blockLength;
    if (length == 1) return false;
    // Run element k is flat index first + k: taken a block at a time (an output row is one
    // block of the input), from its block's first position on.
    for (std::int64_t k = edges[0]; k < edges[blocks];) {
        const std::int64_t flat = first + k;
        const std::int64_t q = flat / length;
        const std::int64_t end = std::min(edges[blocks], (q + 1) * length - first);
        const ReadPosition base = order()[std::size_t(output ? rowStart(q) / length : q)];
        if (base >= 0) lowerByRun(k, 1, end - k, base + flat - q * length, 1, edges, blocks, least);
        k = end;
    }
    return true;
}

std::vector<std::vector<std::int64_t>> IndexPlanMap::targets(int slot, std::int64_t index) const
{
    std::vector<std::vector<std::int64_t>> all(1);
    if (slot != m_piece.slot || index < 0 || index >= m_slotSizes[std::size_t(slot)]) return all;
    for (std::int64_t r = 0; r < m_rows; ++r) {
        const std::int64_t start = rowStart(r);
        if (index >= start && index < start + m_piece.rowLength)
            all.front().push_back(r * m_piece.rowLength + (index - start));
    }
    return all;
}

ReadOrder IndexPlanMap::inputOrder(int slot) const
{
    const std::int64_t size = m_slotSizes[std::size_t(slot)];
    // An input slot no element of which is read (gather's indices).
    if (slot != m_piece.slot) return unreadOrder(size);
    return std::make_shared<const NumberedOrder>(shared_from_this(), size, orderBytes());
}

ReadOrder IndexPlanMap::outputOrder(int) const
{
    return std::make_shared<const SourcePositionOrder>(shared_from_this(), m_outputSize);
}

ReadOrderSummary IndexPlanMap::inputSummary(int slot) const
{
    return slot == m_piece.slot ? m_summary : ReadOrderSummary{};
}

ReadOrderSummary IndexPlanMap::outputSummary(int) const
{
    // Every output element is read; the first reads what is numbered 0.
    return {m_outputSize, 0, m_lastRead};
}

} // namespace ss::ui
