// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/readordermap.h"

#include "core/error.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

namespace ss::ui {

void ReadOrderMap::read(std::int64_t first, std::int64_t step, std::int64_t count,
                        ReadPosition* out) const
{
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = at(first + i * step);
}

void ReadOrderMap::blockMinima(std::int64_t first, std::int64_t step, const std::int64_t* edges,
                               std::size_t blocks, ReadRank* least) const
{
    if (blocks == 0) return;
    // A chunk at a time (a row of a [2, 50000000] face is 200 MB), each block's minimum kept in
    // a register: a loop the compiler vectorises (per element through least[] in memory, a heat
    // map's selection took 3x its values' pass).
    constexpr std::int64_t kChunk = 4096;
    std::array<ReadPosition, kChunk> chunk;
    std::size_t i = 0;
    for (std::int64_t a = edges[0]; a < edges[blocks]; a += kChunk) {
        const std::int64_t b = std::min(edges[blocks], a + kChunk);
        read(first + a * step, step, b - a, chunk.data());
        for (; i < blocks; ++i) {
            const std::int64_t lo = std::max(edges[i], a);
            const std::int64_t hi = std::min(edges[i + 1], b);
            ReadRank lowest = least[i];
            for (std::int64_t t = lo; t < hi; ++t)
                lowest = std::min(lowest, ReadRank(chunk[std::size_t(t - a)]));
            least[i] = lowest;
            if (edges[i + 1] > b) break; // the block goes on in the next chunk
        }
    }
}

void lowerByRun(std::int64_t index, std::int64_t stride, std::int64_t count, std::int64_t position,
                std::int64_t positionStep, const std::int64_t* edges, std::size_t blocks,
                ReadRank* least)
{
    if (blocks == 0 || count <= 0) return;
    // The part of the run inside the blocks.
    if (index < edges[0]) {
        const std::int64_t skip = (edges[0] - index + stride - 1) / stride;
        index += skip * stride;
        position += skip * positionStep;
        count -= skip;
    }
    if (count > 0 && index + (count - 1) * stride >= edges[blocks])
        count = (edges[blocks] - 1 - index) / stride + 1;
    if (count <= 0) return;
    // The block that holds the run's first element, then block by block.
    auto i = std::size_t(std::upper_bound(edges, edges + blocks + 1, index) - edges) - 1;
    for (std::int64_t k = 0; k < count;) {
        const std::int64_t at = index + k * stride;
        while (edges[i + 1] <= at)
            ++i;
        // The run's elements k .. end - 1 fall in block i.
        const std::int64_t end =
            std::min(count, stride == 1 ? edges[i + 1] - index
                                        : (edges[i + 1] - index + stride - 1) / stride);
        const std::int64_t lowest = position + (positionStep >= 0 ? k : end - 1) * positionStep;
        least[i] = std::min(least[i], ReadRank(lowest));
        k = end;
    }
}

void checkStoredPositionLimit(std::int64_t outputElements)
{
    // Every output element reads at most one input element: that many positions at most.
    if (outputElements > std::numeric_limits<StoredPosition>::max())
        throw OpError(ErrorCode::ResourceExhausted,
                      "the workbench keeps at most 2^31 - 1 read positions for an op whose "
                      "sources are not worked out from its plan, and this op's outputs have " +
                          std::to_string(outputElements) +
                          " elements (slicescope-cli has no such limit)");
}

StoredReadOrder::StoredReadOrder(StoredPositions positions)
    : ReadOrderMap(std::int64_t(positions.size())), m_positions(std::move(positions))
{
}

void StoredReadOrder::read(std::int64_t first, std::int64_t step, std::int64_t count,
                           ReadPosition* out) const
{
    const StoredPosition* p = m_positions.data() + first;
    if (step == 1) {
        std::copy(p, p + count, out);
        return;
    }
    for (std::int64_t i = 0; i < count; ++i)
        out[i] = p[i * step];
}

ReadOrder storedReadOrder(StoredPositions positions)
{
    return std::make_shared<const StoredReadOrder>(std::move(positions));
}

namespace {

class UnreadOrder final : public ReadOrderMap
{
public:
    explicit UnreadOrder(std::int64_t size) : ReadOrderMap(size) {}
    ReadPosition at(std::int64_t) const override { return -1; }
    void read(std::int64_t, std::int64_t, std::int64_t count, ReadPosition* out) const override
    {
        std::fill(out, out + count, ReadPosition(-1));
    }
    std::int64_t bytes() const override { return 0; }
};

class SequentialOrder final : public ReadOrderMap
{
public:
    SequentialOrder(std::int64_t base, std::int64_t size) : ReadOrderMap(size), m_base(base) {}
    ReadPosition at(std::int64_t flat) const override { return ReadPosition(m_base + flat); }
    void read(std::int64_t first, std::int64_t step, std::int64_t count,
              ReadPosition* out) const override
    {
        std::int64_t position = m_base + first;
        for (std::int64_t i = 0; i < count; ++i, position += step)
            out[i] = ReadPosition(position);
    }
    void blockMinima(std::int64_t first, std::int64_t step, const std::int64_t* edges,
                     std::size_t blocks, ReadRank* least) const override
    {
        // Run element k is flat index first + k * step, read at m_base plus that.
        lowerByRun(edges[0], 1, edges[blocks] - edges[0], m_base + first + edges[0] * step, step,
                   edges, blocks, least);
    }
    std::int64_t bytes() const override { return 0; }
    bool ascending() const override { return true; }

private:
    std::int64_t m_base;
};

} // namespace

ReadOrder unreadOrder(std::int64_t size)
{
    return std::make_shared<const UnreadOrder>(size);
}

ReadOrder sequentialOrder(std::int64_t base, std::int64_t size)
{
    return std::make_shared<const SequentialOrder>(base, size);
}

namespace {

// Whole-order passes read the order in blocks, so an order that works its positions out does
// it a row at a time rather than an element at a time.
constexpr std::int64_t kBlock = 4096;

template <class F> void forEachPosition(const ReadOrderMap& order, F&& f)
{
    std::array<ReadPosition, kBlock> block;
    const std::int64_t n = order.size();
    for (std::int64_t a = 0; a < n; a += kBlock) {
        const std::int64_t count = std::min(kBlock, n - a);
        order.read(a, 1, count, block.data());
        for (std::int64_t i = 0; i < count; ++i)
            f(a + i, block[std::size_t(i)]);
    }
}

} // namespace

ReadOrderSummary summarizeReadOrder(const ReadOrderMap& order)
{
    ReadOrderSummary summary;
    std::int64_t lowest = -1;
    forEachPosition(order, [&](std::int64_t i, std::int64_t o) {
        if (o < 0) return;
        if (summary.selected++ == 0 || o < lowest) {
            summary.first = i;
            lowest = o;
        }
        summary.last = std::max(summary.last, o);
    });
    return summary;
}

std::vector<std::pair<ReadPosition, std::int64_t>> readElements(const ReadOrderMap& order,
                                                                std::int64_t limit)
{
    std::vector<std::pair<ReadPosition, std::int64_t>> lit;
    if (limit < 0) {
        forEachPosition(order, [&](std::int64_t i, ReadPosition o) {
            if (o >= 0) lit.emplace_back(o, i);
        });
        std::sort(lit.begin(), lit.end());
        return lit;
    }
    // The first `limit` only, kept in a max-heap as the pass goes: the memory is the limit's,
    // not 16 bytes for every element read (400 MB for 25 million).
    if (limit == 0) return lit;
    lit.reserve(std::size_t(std::min(limit, order.size())));
    forEachPosition(order, [&](std::int64_t i, ReadPosition o) {
        if (o < 0) return;
        const std::pair<ReadPosition, std::int64_t> element(o, i);
        if (std::int64_t(lit.size()) < limit) {
            lit.push_back(element);
            std::push_heap(lit.begin(), lit.end());
        } else if (element < lit.front()) {
            std::pop_heap(lit.begin(), lit.end());
            lit.back() = element;
            std::push_heap(lit.begin(), lit.end());
        }
    });
    std::sort_heap(lit.begin(), lit.end());
    return lit;
}

} // namespace ss::ui
