// SPDX-License-Identifier: GPL-3.0-or-later
// What a tensor view's two drawings (the cell canvas and the heat map) share: the model they
// draw, the face layout, the selection's statistics, the hover and the focused dimensions.
#pragma once

#include "ui/views/facelayout.h"
#include "ui/views/tensorview.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ss::ui {

/// Whether the faces the pins leave show an element the order selects: at once when nothing is
/// pinned or the first element read is shown, else one pass over the shown elements.
bool showsSelected(const ReadOrderMap& order, const ReadOrderSummary& summary,
                   const FaceLayout& layout);

/// Where read position `order` falls on a ramp from `first` (0) to `last` (1), clamped.
inline double rampFraction(std::int64_t order, std::int64_t first, std::int64_t last)
{
    return last > first ? std::clamp(double(order - first) / double(last - first), 0.0, 1.0) : 0.0;
}

struct ViewState
{
    TensorModel* model = nullptr;
    QString name = QStringLiteral("x"); ///< labels faces: "x[0, :, :]"
    FaceLayout layout;
    ReadOrderSummary selection;
    /// The read position coloured as "read last": the caller's, or this order's own last.
    std::int64_t scaleLast = -1;
    /// When the colours fit what is on screen: the read positions the ramp runs between
    /// (fitLast -1: the ramp runs from 0 to lastOrder()).
    std::int64_t fitFirst = 0, fitLast = -1;
    std::vector<int> focusDims;
    std::int64_t hovered = -1;
    /// The tooltip for an element (the workbench's provider, or coordinates and value).
    std::function<QString(std::int64_t)> toolTip;

    bool hasSelection() const { return selection.selected > 0; }
    std::int64_t lastOrder() const { return scaleLast >= 0 ? scaleLast : selection.last; }
    /// The read positions at the two ends of the colour ramp.
    std::pair<std::int64_t, std::int64_t> rampEnds() const
    {
        return fitLast >= 0 ? std::pair(fitFirst, fitLast)
                            : std::pair(std::int64_t(0), lastOrder());
    }
    /// Where an order falls on the read-order ramp, 0 (first) to 1 (last).
    double orderFraction(std::int64_t order) const
    {
        const auto [first, last] = rampEnds();
        return rampFraction(order, first, last);
    }
    bool isFocused(int dim) const
    {
        return std::find(focusDims.begin(), focusDims.end(), dim) != focusDims.end();
    }
    /// "x[1, :, 2]" for a face: the face's own dimensions are ":".
    QString faceLabel(std::int64_t face) const;
    /// "x[1, 0, 2]"
    QString elementLabel(std::int64_t flat) const;
};

} // namespace ss::ui
