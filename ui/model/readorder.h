// SPDX-License-Identifier: GPL-3.0-or-later
// Read orders: for every element of a tensor, the position in which the op reads it. Made on the
// engine client's worker, shown by the views.
#pragma once

#include "core/plan.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ss::ui {

/// A read position: 0-based, -1 for "not read". 32 bits halve the memory traffic of the orders
/// of a 10^7-element op (the workbench refuses to colour more than 2^31 - 1 reads).
using ReadPosition = std::int32_t;
/// One read position per element, made without a fill (the passes that make it write each).
using ReadPositions = std::vector<ReadPosition, UninitializedAllocator<ReadPosition>>;
/// Per input element: the position in which the op first reads it, or -1 if it is not read.
/// Shared between views and threads, never modified after creation.
using ReadOrder = std::shared_ptr<const ReadPositions>;

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
ReadOrderSummary summarizeReadOrder(const ReadPositions& order);

} // namespace ss::ui
