// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/rowsplanmap.h"

#include "core/executor.h"
#include "ui/model/affineplanmap.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <type_traits>

namespace ss::ui {

namespace {

// A rank sample every this many bits (8 words), and a 16-bit one per word within its block.
constexpr int kBlockShift = 9;
constexpr std::int64_t kWordsPerBlock = (std::int64_t(1) << kBlockShift) / 64;
// Debian's x86-64 baseline has no POPCNT instruction, so std::popcount is a library call there
// (__popcountdi2, a call per word counted). The functions that count bits get a clone for CPUs
// that have it, chosen once when the library is loaded. (Not with clang, the sanitizers' build:
// its clones of a member function defined here leave the function undefined in other files.)
#if defined(__x86_64__) && !defined(__clang__)
#define SS_POPCOUNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define SS_POPCOUNT_CLONES
#endif
// How often the marking pass looks at the cancel flag (in rows).
constexpr std::int64_t kCancelCheckRows = std::int64_t(1) << 16;

std::int64_t wordsFor(std::int64_t bits)
{
    return (bits + 63) / 64;
}

std::int64_t blocksFor(std::int64_t bits)
{
    return (wordsFor(bits) + kWordsPerBlock - 1) / kWordsPerBlock;
}

/// The rows of an output's one piece, as make() checks them: a row list, an index piece's
/// gather form with one index per row (boolean_mask's and dynamic_partition's row numbers, a
/// gather's indices), or a rank-1 run of consecutive elements (unique's y when the distinct
/// values come first: rows of one element), covering `size` elements from the output's start.
struct PieceRows
{
    int slot = -1; ///< of the first row (a row list's may be kConstantSlot)
    std::int64_t rowLength = 0;
    bool constantRuns = false;
};

std::optional<PieceRows> pieceRows(const Piece& piece, std::int64_t size)
{
    if (const auto* rows = std::get_if<RowsPiece>(&piece)) {
        if (rows->outOffset != 0 || rows->rowLength <= 0 || rows->rows.empty() ||
            std::int64_t(rows->rows.size()) * rows->rowLength != size)
            return std::nullopt;
        return PieceRows{sourceSlot(rows->rows.front()), rows->rowLength, rows->constantRuns};
    }
    if (const auto* run = std::get_if<AffinePiece>(&piece)) {
        if (run->outOffset != 0 || run->extents != std::vector<std::int64_t>{size} ||
            run->inStrides != std::vector<std::int64_t>{1} ||
            run->outStrides != std::vector<std::int64_t>{1})
            return std::nullopt;
        return PieceRows{run->slot, 1, false};
    }
    const auto* index = std::get_if<IndexPiece>(&piece);
    if (!index) return std::nullopt;
    const IndexPiece& p = *index;
    const DType type = p.indices.dtype();
    if (p.scatter || p.outOffset != 0 || p.rowLength <= 0 || p.indexStrides.size() != 1 ||
        p.count <= 0 || p.groups <= 0 || p.groupsPerBlock <= 0 || p.elements() != size ||
        (type != DType::Int16 && type != DType::Int32 && type != DType::Int64) ||
        p.indices.size() < (p.groups + p.groupsPerBlock - 1) / p.groupsPerBlock * p.count)
        return std::nullopt;
    return PieceRows{p.slot, p.rowLength, false};
}

/// Calls row(packed) with the packed source of each row's first element, in output order, until
/// it returns false; checks `ctx` for cancellation now and then. Returns whether every row was
/// taken. (An index piece's rows as the copy engine reads its gather form.)
template <class Row> bool forEachRow(const Piece& piece, JobContext* ctx, Row&& row)
{
    if (const auto* rows = std::get_if<RowsPiece>(&piece)) {
        for (std::size_t r = 0; r < rows->rows.size(); ++r) {
            if (ctx && std::int64_t(r) % kCancelCheckRows == 0) ctx->throwIfCancelled();
            if (!row(rows->rows[r])) return false;
        }
        return true;
    }
    if (const auto* run = std::get_if<AffinePiece>(&piece)) {
        for (std::int64_t j = 0; j < run->extents.front(); ++j) {
            if (ctx && j % kCancelCheckRows == 0) ctx->throwIfCancelled();
            if (!row(packSource(run->slot, run->inOffset + j))) return false;
        }
        return true;
    }
    const auto& p = std::get<IndexPiece>(piece);
    bool all = true;
    visitDType(p.indices.dtype(), [&](auto tag) {
        using I = typename decltype(tag)::type;
        if constexpr (std::is_same_v<I, std::int16_t> || std::is_same_v<I, std::int32_t> ||
                      std::is_same_v<I, std::int64_t>) {
            const std::int64_t stride = p.indexStrides.front();
            for (std::int64_t g = 0; g < p.groups && all; ++g) {
                const I* tuples = p.indices.data<I>() + (g / p.groupsPerBlock) * p.count;
                const std::int64_t at = p.inOffset + g * p.groupStride;
                for (std::int64_t j = 0; j < p.count && all; ++j) {
                    if (ctx && j % kCancelCheckRows == 0) ctx->throwIfCancelled();
                    all = row(packSource(p.slot, at + std::int64_t(tuples[j]) * stride));
                }
            }
        }
    });
    return all;
}

} // namespace

RowBitmap::RowBitmap(std::int64_t rows) : m_bits(std::size_t(wordsFor(rows)), 0) {}

std::int64_t RowBitmap::bytesFor(std::int64_t rows)
{
    return (wordsFor(rows) + blocksFor(rows)) * std::int64_t(sizeof(std::int64_t)) +
           wordsFor(rows) * std::int64_t(sizeof(std::uint16_t));
}

SS_POPCOUNT_CLONES void RowBitmap::finish()
{
    const auto perBlock = std::size_t(kWordsPerBlock);
    m_ranks.resize((m_bits.size() + perBlock - 1) / perBlock);
    m_wordRanks.resize(m_bits.size());
    std::int64_t count = 0;
    for (std::size_t w = 0; w < m_bits.size(); ++w) {
        if (w % perBlock == 0) m_ranks[w / perBlock] = count;
        m_wordRanks[w] = std::uint16_t(count - m_ranks[w / perBlock]);
        count += std::popcount(m_bits[w]);
    }
}

namespace {

/// RowBitmap::rank: the block's count, the word's within its block, and the bits below the row
/// in its word (one popcount, no branch). Inlined into each popcount clone.
[[gnu::always_inline]] inline std::int64_t rankIn(const std::uint64_t* bits,
                                                  const std::int64_t* blockRanks,
                                                  const std::uint16_t* wordRanks, std::int64_t row)
{
    const std::uint64_t below = (std::uint64_t(1) << (row & 63)) - 1;
    return blockRanks[row >> kBlockShift] + wordRanks[row >> 6] +
           std::popcount(bits[row >> 6] & below);
}

template <class I>
[[gnu::always_inline]] inline void
rankEachIn(const std::uint64_t* bits, const std::int64_t* blockRanks,
           const std::uint16_t* wordRanks, const I* rows, std::int64_t count, std::int32_t* out)
{
    for (std::int64_t i = 0; i < count; ++i) {
        const auto rank = std::int32_t(rankIn(bits, blockRanks, wordRanks, rows[i]));
        out[i] = out[i] < 0 ? out[i] : rank;
    }
}

} // namespace

SS_POPCOUNT_CLONES std::int64_t RowBitmap::rank(std::int64_t row) const
{
    return rankIn(m_bits.data(), m_ranks.data(), m_wordRanks.data(), row);
}

SS_POPCOUNT_CLONES void RowBitmap::rankEach(const std::int16_t* rows, std::int64_t count,
                                            std::int32_t* out) const
{
    rankEachIn(m_bits.data(), m_ranks.data(), m_wordRanks.data(), rows, count, out);
}

SS_POPCOUNT_CLONES void RowBitmap::rankEach(const std::int32_t* rows, std::int64_t count,
                                            std::int32_t* out) const
{
    rankEachIn(m_bits.data(), m_ranks.data(), m_wordRanks.data(), rows, count, out);
}

SS_POPCOUNT_CLONES void RowBitmap::rankEach(const std::int64_t* rows, std::int64_t count,
                                            std::int32_t* out) const
{
    rankEachIn(m_bits.data(), m_ranks.data(), m_wordRanks.data(), rows, count, out);
}

SS_POPCOUNT_CLONES std::int64_t RowBitmap::select(std::int64_t r) const
{
    // The last block with fewer than r + 1 rows set before it holds the row.
    const auto block = std::upper_bound(m_ranks.begin(), m_ranks.end(), r) - m_ranks.begin() - 1;
    r -= m_ranks[std::size_t(block)];
    for (std::int64_t w = block * kWordsPerBlock;; ++w) {
        std::uint64_t bits = m_bits[std::size_t(w)];
        const int count = std::popcount(bits);
        if (r >= count) {
            r -= count;
            continue;
        }
        for (; r > 0; --r)
            bits &= bits - 1; // drops the lowest set bit
        return w * 64 + std::countr_zero(bits);
    }
}

SS_POPCOUNT_CLONES std::int64_t RowBitmap::count(std::int64_t from, std::int64_t to) const
{
    if (from >= to) return 0;
    const std::int64_t last = (to - 1) >> 6;
    const std::uint64_t head = ~std::uint64_t(0) << (from & 63);
    const std::uint64_t tail = ~std::uint64_t(0) >> (63 - ((to - 1) & 63));
    std::int64_t w = from >> 6;
    if (w == last) return std::popcount(m_bits[std::size_t(w)] & head & tail);
    std::int64_t set = std::popcount(m_bits[std::size_t(w)] & head);
    for (++w; w < last; ++w)
        set += std::popcount(m_bits[std::size_t(w)]);
    return set + std::popcount(m_bits[std::size_t(last)] & tail);
}

std::int64_t RowBitmap::next(std::int64_t from, std::int64_t to) const
{
    if (from >= to) return to;
    const std::int64_t last = (to - 1) >> 6;
    std::uint64_t mask = ~std::uint64_t(0) << (from & 63);
    for (std::int64_t w = from >> 6; w <= last; ++w, mask = ~std::uint64_t(0)) {
        std::uint64_t bits = m_bits[std::size_t(w)] & mask;
        if (w == last) bits &= ~std::uint64_t(0) >> (63 - ((to - 1) & 63));
        if (bits) return w * 64 + std::countr_zero(bits);
    }
    return to;
}

void RowBitmap::readRows(std::int64_t base, std::int64_t length, std::int64_t first,
                         std::int64_t step, std::int64_t count, ReadPosition* out) const
{
    if (length == 1 && step == 1) {
        // A run of one-element rows (a mask of the whole tensor): one rank, then a bit test per
        // element, with no division.
        std::int64_t position = base + rank(first);
        for (std::int64_t i = 0; i < count; ++i)
            if (has(first + i)) out[i] = ReadPosition(position++);
        return;
    }
    std::int64_t row = -2, ranked = 0;
    bool set = false;
    for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t flat = first + i * step;
        const std::int64_t r = flat / length;
        if (r != row) {
            if (r == row + 1) {
                ranked += set; // the rows set before r: those before row, and row
                set = has(r);
            } else {
                set = has(r);
                ranked = rank(r);
            }
            row = r;
        }
        if (set) out[i] = ReadPosition(base + ranked * length + (flat - r * length));
    }
}

void RowBitmap::rowsBlockMinima(std::int64_t base, std::int64_t length, std::int64_t first,
                                const std::int64_t* edges, std::size_t blocks,
                                ReadRank* least) const
{
    if (blocks == 0) return;
    const auto rowOf = [length](std::int64_t flat) {
        return length == 1 ? flat : flat / length; // no division for a mask of the whole
    };
    // The rows set before `row`, carried from block to block.
    std::int64_t row = rowOf(first + edges[0]);
    std::int64_t ranked = rank(row);
    for (std::size_t i = 0; i < blocks; ++i) {
        const std::int64_t a = first + edges[i], b = first + edges[i + 1];
        if (a >= b) continue;
        const std::int64_t from = rowOf(a), to = rowOf(b - 1) + 1; // the rows it meets
        ranked += count(row, from);
        row = from;
        const std::int64_t r = next(from, to);
        if (r == to) continue;
        // The block's first element in a row set: the rows before it are ranked.
        const std::int64_t element = std::max(a, r * length);
        least[i] = std::min(least[i], ReadRank(base + ranked * length + (element - r * length)));
    }
}

std::shared_ptr<RowsPlanMap> RowsPlanMap::make(const OpPlan& plan,
                                               const std::vector<std::int64_t>& slotSizes)
{
    if (plan.outputs.empty()) return nullptr;
    std::shared_ptr<RowsPlanMap> map(new RowsPlanMap);
    map->m_slotSizes = slotSizes;
    map->m_slotOutputs.resize(slotSizes.size());
    std::vector<std::int64_t> slotRowLength(slotSizes.size(), 0);
    std::int64_t elements = 0, base = 0;
    for (std::size_t k = 0; k < plan.outputs.size(); ++k) {
        const OutputPlan& plannedOutput = plan.outputs[k];
        Output& out = map->m_outputs.emplace_back();
        out.size = numElements(plannedOutput.shape);
        out.base = base;
        elements += out.size;
        if (plannedOutput.computed.isValid() || out.size == 0) continue;
        if (plannedOutput.pieces.size() != 1) return nullptr;
        const std::optional<PieceRows> rows = pieceRows(plannedOutput.pieces.front(), out.size);
        if (!rows) return nullptr;
        const int slot = rows->slot;
        if (slot == kConstantSlot) {
            out.constant = true;
            continue;
        }
        if (rows->constantRuns || slot < 0 || slot >= int(slotSizes.size())) return nullptr;
        const std::int64_t slotSize = slotSizes[std::size_t(slot)];
        std::int64_t& length = slotRowLength[std::size_t(slot)];
        if (slotSize % rows->rowLength != 0 || (length != 0 && length != rows->rowLength))
            return nullptr;
        length = rows->rowLength;
        auto& readers = map->m_slotOutputs[std::size_t(slot)];
        if (int(readers.size()) == kMaxOutputsPerSlot) return nullptr;
        readers.push_back(int(k));
        out.reads = true;
        out.slot = slot;
        out.rowLength = rows->rowLength;
        const std::int64_t inRows = slotSize / rows->rowLength;
        map->m_bytes += RowBitmap::bytesFor(inRows);
        base += out.size;
    }
    map->m_lastRead = base - 1;
    return map;
}

bool RowsPlanMap::markRows(const OpPlan& plan, JobContext* ctx)
{
    // Per slot read by several outputs, the rows any of them picked so far: no row twice.
    std::vector<RowBitmap> taken(m_slotSizes.size());
    for (std::size_t k = 0; k < m_outputs.size(); ++k) {
        Output& out = m_outputs[k];
        if (!out.reads && !out.constant) continue;
        const Piece& piece = plan.outputs[k].pieces.front();
        if (out.constant) {
            // A row list may mix constants with input rows, row by row; an index piece reads one
            // slot, the constants (one_hot's window starts: 10^7 rows took 20 ms to walk).
            if (std::holds_alternative<RowsPiece>(piece) &&
                !forEachRow(piece, ctx,
                            [](std::int64_t s) { return sourceSlot(s) == kConstantSlot; }))
                return false;
            continue;
        }
        const std::int64_t inRows = m_slotSizes[std::size_t(out.slot)] / out.rowLength;
        const auto& readers = m_slotOutputs[std::size_t(out.slot)];
        const bool several = readers.size() > 1;
        RowBitmap& shared = taken[std::size_t(out.slot)];
        if (several && int(k) == readers.front()) shared = RowBitmap(inRows);
        out.picked = RowBitmap(inRows);
        std::int64_t previous = -1;
        const std::int64_t length = out.rowLength;
        const bool picked = forEachRow(piece, ctx, [&](std::int64_t s) {
            if (s < 0 || sourceSlot(s) != out.slot) return false;
            const std::int64_t start = sourceIndex(s);
            // No division for one-element rows (a mask of the whole tensor): it was most of
            // this pass.
            const std::int64_t row = length == 1 ? start : start / length;
            if (row * length != start || row <= previous || row >= inRows) return false;
            previous = row;
            out.picked.set(row);
            return !several || shared.set(row);
        });
        if (!picked) return false;
        out.picked.finish();
    }
    // A slot's first element read is its first reader's first source; its last position the
    // last reader's last.
    m_slotSummaries.assign(m_slotSizes.size(), ReadOrderSummary{});
    for (std::size_t s = 0; s < m_slotSizes.size(); ++s) {
        ReadOrderSummary& summary = m_slotSummaries[s];
        for (int k : m_slotOutputs[s]) {
            const Output& out = m_outputs[std::size_t(k)];
            if (summary.selected == 0) summary.first = sourceIndex(source(k, 0));
            summary.selected += out.size;
            summary.last = out.base + out.size - 1;
        }
    }
    return true;
}

std::int64_t RowsPlanMap::source(int output, std::int64_t index) const
{
    const Output& out = m_outputs[std::size_t(output)];
    if (!out.reads) return kNoSource;
    const std::int64_t r = index / out.rowLength;
    return packSource(out.slot, out.picked.select(r) * out.rowLength + (index - r * out.rowLength));
}

std::vector<std::vector<std::int64_t>> RowsPlanMap::targets(int slot, std::int64_t index) const
{
    std::vector<std::vector<std::int64_t>> all(m_outputs.size());
    if (slot < 0 || slot >= slotCount() || index < 0 || index >= m_slotSizes[std::size_t(slot)])
        return all;
    for (int k : m_slotOutputs[std::size_t(slot)]) {
        const Output& out = m_outputs[std::size_t(k)];
        const std::int64_t row = index / out.rowLength;
        if (out.picked.has(row))
            all[std::size_t(k)].push_back(out.picked.rank(row) * out.rowLength +
                                          (index - row * out.rowLength));
    }
    return all;
}

ReadPosition RowsPlanMap::inputPosition(int slot, std::int64_t index) const
{
    for (int k : m_slotOutputs[std::size_t(slot)]) {
        const Output& out = m_outputs[std::size_t(k)];
        const std::int64_t row = index / out.rowLength;
        if (out.picked.has(row))
            return ReadPosition(out.base + out.picked.rank(row) * out.rowLength +
                                (index - row * out.rowLength));
    }
    return -1;
}

void RowsPlanMap::readInput(int slot, std::int64_t first, std::int64_t step, std::int64_t count,
                            ReadPosition* out) const
{
    std::fill(out, out + count, ReadPosition(-1));
    // An element is picked by one output at most: each writes the elements it picks.
    for (int k : m_slotOutputs[std::size_t(slot)]) {
        const Output& o = m_outputs[std::size_t(k)];
        o.picked.readRows(o.base, o.rowLength, first, step, count, out);
    }
}

bool RowsPlanMap::inputBlockMinima(int slot, std::int64_t first, const std::int64_t* edges,
                                   std::size_t blocks, ReadRank* least) const
{
    for (int k : m_slotOutputs[std::size_t(slot)]) {
        const Output& o = m_outputs[std::size_t(k)];
        o.picked.rowsBlockMinima(o.base, o.rowLength, first, edges, blocks, least);
    }
    return true;
}

ReadOrder RowsPlanMap::inputOrder(int slot) const
{
    const std::int64_t size = m_slotSizes[std::size_t(slot)];
    if (m_slotOutputs[std::size_t(slot)].empty()) return unreadOrder(size);
    return std::make_shared<const PlanInputOrder<RowsPlanMap>>(shared_from_this(), slot, size);
}

ReadOrder RowsPlanMap::outputOrder(int output) const
{
    const Output& out = m_outputs[std::size_t(output)];
    // Every element of a reading output is a first read, in output order.
    return out.reads ? sequentialOrder(out.base, out.size) : unreadOrder(out.size);
}

ReadOrderSummary RowsPlanMap::outputSummary(int output) const
{
    const Output& out = m_outputs[std::size_t(output)];
    if (!out.reads) return {};
    return {out.size, 0, out.base + out.size - 1};
}

} // namespace ss::ui
