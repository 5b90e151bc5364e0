// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/tensorstate.h"

#include <QStringList>

namespace ss::ui {

ReadOrderStats computeReadOrderStats(const std::vector<std::int64_t>& order,
                                     const FaceLayout& layout)
{
    ReadOrderStats stats;
    std::int64_t minOrder = -1;
    const std::int64_t n = std::int64_t(order.size());
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t o = order[std::size_t(i)];
        if (o < 0)
            continue;
        ++stats.selected;
        stats.maxOrder = std::max(stats.maxOrder, o);
        if (minOrder < 0 || o < minOrder) {
            minOrder = o;
            stats.first = i;
        }
    }
    if (stats.selected == 0)
        return stats;
    if (layout.pins().empty()) {
        stats.shownHasSelected = true;
        return stats;
    }
    layout.forEachShown([&](std::int64_t flat) {
        stats.shownHasSelected = stats.shownHasSelected || order[std::size_t(flat)] >= 0;
    });
    return stats;
}

QString ViewState::faceLabel(std::int64_t face) const
{
    const auto coords = layout.faceCoords(face);
    QStringList parts;
    for (int d = 0; d < layout.rank(); ++d)
        parts << (d == layout.rowDim() || d == layout.colDim() ? QStringLiteral(":")
                                                                : QString::number(coords[d]));
    return name + QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString ViewState::elementLabel(std::int64_t flat) const
{
    QStringList parts;
    for (std::int64_t c : unravelIndex(flat, layout.shape()))
        parts << QString::number(c);
    return name + QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace ss::ui
