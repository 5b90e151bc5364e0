// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/viewstate.h"

#include <QStringList>

namespace ss::ui {

bool showsSelected(const ReadOrderMap& order, const ReadOrderSummary& summary,
                   const FaceLayout& layout)
{
    if (summary.selected == 0) return false;
    if (layout.pins().empty() || layout.locate(summary.first)) return true;
    bool shown = false;
    layout.forEachShown([&](std::int64_t flat) { shown = shown || order.at(flat) >= 0; });
    return shown;
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
