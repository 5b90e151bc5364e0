// SPDX-License-Identifier: GPL-3.0-or-later
// Read orders: for every element of a tensor, the position in which the op reads it. Made on the
// engine client's worker, shown by the views.
#pragma once

#include "core/plan.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ss::ui {

/// The one rule for read positions' types:
/// - ReadPosition, a position as an order answers it (at, read): 0-based, -1 for "not read",
///   64 bits, since an order worked out from a plan has no memory per element and may read more
///   than 2^31 elements (x[...] of a 16 GB file: 4 x 10^9).
/// - ReadRank, a position compared unsigned, where a block's first read is looked for: "not
///   read" (-1) is then the largest and lowers nothing.
/// - StoredPosition, a position kept per element (StoredReadOrder, an index map's order):
///   32 bits, half the memory of an order of 64. Such an order needs memory per element, so it
///   is bounded by memory long before 2^31 elements; checkStoredPositionLimit says so.
using ReadPosition = std::int64_t;
using ReadRank = std::uint64_t;
using StoredPosition = std::int32_t;
/// One stored position per element, made without a fill (the passes that make it write each).
using StoredPositions = std::vector<StoredPosition, UninitializedAllocator<StoredPosition>>;

/// Throws resource_exhausted if an op whose outputs have `outputElements` elements has more
/// read positions than a StoredPosition holds (for the orders that keep one per element).
void checkStoredPositionLimit(std::int64_t outputElements);

/// The read positions of one tensor's elements. Either kept, one per element (StoredReadOrder),
/// or worked out when asked from the op's plan, which costs no memory per element. Immutable
/// once made, and shared between views and threads.
class ReadOrderMap
{
public:
    explicit ReadOrderMap(std::int64_t size) : m_size(size) {}
    virtual ~ReadOrderMap() = default;
    ReadOrderMap(const ReadOrderMap&) = delete;
    ReadOrderMap& operator=(const ReadOrderMap&) = delete;

    /// The tensor's element count.
    std::int64_t size() const { return m_size; }
    /// Element `flat`'s read position, or -1 if the op does not read it.
    virtual ReadPosition at(std::int64_t flat) const = 0;
    /// The positions of the `count` elements first, first + step, first + 2 * step, ... into
    /// `out` (step may be 0 or negative; every element named must exist). Much faster than
    /// at() per element where it matters: a view's row or column.
    virtual void read(std::int64_t first, std::int64_t step, std::int64_t count,
                      ReadPosition* out) const;
    /// Lowers least[i] to the lowest read position of block i of the run first, first + step,
    /// first + 2 * step, ... (step may be negative): block i is the run's elements edges[i] ..
    /// edges[i + 1] - 1, for i < blocks (edges rise from edges[0] >= 0; every element named must
    /// exist). Positions compare unsigned, so "not read" (-1) lowers nothing. What a heat map's
    /// selection shows of a block of a row: its first read. By default the run is read a chunk
    /// at a time; an order that knows where its positions rise finds each block's lowest in a
    /// few steps instead of a read per element.
    virtual void blockMinima(std::int64_t first, std::int64_t step, const std::int64_t* edges,
                             std::size_t blocks, ReadRank* least) const;
    /// The memory the order keeps, in bytes (what an evaluation's size counts).
    virtual std::int64_t bytes() const = 0;
    /// True when every element is read and positions rise with the flat index (an output read
    /// in its own order): then the first read of any block of elements is its lowest index, and
    /// a heat map need not read the rest.
    virtual bool ascending() const { return false; }

private:
    std::int64_t m_size;
};

/// Shared between views and threads, never modified after creation; null for "no order".
using ReadOrder = std::shared_ptr<const ReadOrderMap>;

/// A read order that keeps one position per element.
class StoredReadOrder final : public ReadOrderMap
{
public:
    explicit StoredReadOrder(StoredPositions positions);
    ReadPosition at(std::int64_t flat) const override { return m_positions[std::size_t(flat)]; }
    void read(std::int64_t first, std::int64_t step, std::int64_t count,
              ReadPosition* out) const override;
    std::int64_t bytes() const override
    {
        return std::int64_t(m_positions.size() * sizeof(StoredPosition));
    }
    const StoredPositions& positions() const { return m_positions; }

private:
    StoredPositions m_positions;
};

/// For blockMinima: lowers least[i] (blocks and edges as there) by the run of elements index,
/// index + stride, ..., index + (count - 1) * stride (stride > 0), read at positions position,
/// position + positionStep, ...: in each block, the lowest of the run's part is at one of its
/// ends. Elements outside the blocks are left out.
void lowerByRun(std::int64_t index, std::int64_t stride, std::int64_t count, std::int64_t position,
                std::int64_t positionStep, const std::int64_t* edges, std::size_t blocks,
                ReadRank* least);

/// A stored order of `positions`.
ReadOrder storedReadOrder(StoredPositions positions);

/// The order of a tensor of `size` elements the op does not read (-1 everywhere), no memory.
ReadOrder unreadOrder(std::int64_t size);
/// The order of a tensor of `size` elements read in its own order from position `base` on
/// (element i at base + i), no memory: an output that reads a new input element every element.
ReadOrder sequentialOrder(std::int64_t base, std::int64_t size);

/// The read order of input `slot` of an op, worked out when asked from the op's plan map `Map`
/// (AffinePlanMap, RowsPlanMap, ScatterPlanMap): its `inputPosition(slot, flat)`, and its
/// `readInput(slot, first, step, count, out)` and `inputBlockMinima(slot, first, edges, blocks,
/// least)` (along a run of step 1; false where it declines) where it has them. Keeps nothing of
/// its own: the map's memory is counted once, as the sources' (SourceMap::bytes).
template <class Map>
class PlanInputOrder final : public ReadOrderMap
{
public:
    PlanInputOrder(std::shared_ptr<const Map> map, int slot, std::int64_t size)
        : ReadOrderMap(size), m_map(std::move(map)), m_slot(slot)
    {
    }
    ReadPosition at(std::int64_t flat) const override { return m_map->inputPosition(m_slot, flat); }
    void read(std::int64_t first, std::int64_t step, std::int64_t count,
              ReadPosition* out) const override
    {
        if constexpr (requires { m_map->readInput(m_slot, first, step, count, out); })
            m_map->readInput(m_slot, first, step, count, out);
        else
            ReadOrderMap::read(first, step, count, out);
    }
    void blockMinima(std::int64_t first, std::int64_t step, const std::int64_t* edges,
                     std::size_t blocks, ReadRank* least) const override
    {
        if constexpr (requires { m_map->inputBlockMinima(m_slot, first, edges, blocks, least); })
            if (step == 1 && m_map->inputBlockMinima(m_slot, first, edges, blocks, least)) return;
        ReadOrderMap::blockMinima(first, step, edges, blocks, least);
    }
    std::int64_t bytes() const override { return 0; }

private:
    std::shared_ptr<const Map> m_map;
    int m_slot;
};

/// What a view needs to know about a read order besides the order itself. Whoever makes an order
/// can say it on the way (the workbench does, on its worker), so that a view never scans
/// millions of elements on the GUI thread.
struct ReadOrderSummary
{
    std::int64_t selected = 0; ///< elements read at least once
    std::int64_t first = -1;   ///< the element with the lowest read position (-1: none)
    std::int64_t last = -1;    ///< the highest read position (-1: none)
};

/// One pass over an order.
ReadOrderSummary summarizeReadOrder(const ReadOrderMap& order);

/// The read elements as (position, element) pairs, sorted by position: at most `limit` of them
/// (the first read), from one pass over the order.
std::vector<std::pair<ReadPosition, std::int64_t>> readElements(const ReadOrderMap& order,
                                                                std::int64_t limit);

} // namespace ss::ui
