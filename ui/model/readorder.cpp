// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/readorder.h"

#include <algorithm>

namespace ss::ui {

ReadOrderSummary summarizeReadOrder(const ReadPositions& order)
{
    ReadOrderSummary summary;
    std::int64_t lowest = -1;
    const std::int64_t n = std::int64_t(order.size());
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t o = order[std::size_t(i)];
        if (o < 0) continue;
        if (summary.selected++ == 0 || o < lowest) {
            summary.first = i;
            lowest = o;
        }
        summary.last = std::max(summary.last, o);
    }
    return summary;
}

} // namespace ss::ui
