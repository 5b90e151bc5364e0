// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/viewcolumn.h"

#include <QCoreApplication>
#include <QEvent>
#include <QScrollBar>
#include <QSplitter>

#include <algorithm>
#include <numeric>
#include <utility>

namespace ss::ui {

ViewColumn::ViewColumn(QWidget* parent)
    : QScrollArea(parent), m_splitter(new QSplitter(Qt::Vertical))
{
    m_splitter->setChildrenCollapsible(false);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::NoFocus);
    setWidget(m_splitter);
    m_splitter->installEventFilter(this);
    for (QScrollBar* bar : {horizontalScrollBar(), verticalScrollBar()})
        connect(bar, &QScrollBar::valueChanged, this, &ViewColumn::scrolled);
}

void ViewColumn::fitNow()
{
    QEvent request(QEvent::LayoutRequest);
    QCoreApplication::sendEvent(this, &request);
}

void ViewColumn::fitNow(int count)
{
    // Sharing its height among the views it has, the column shrank the views on show with each
    // pair added below them (dynamic_partition's three outputs on the way to eight in a
    // 1440 x 1000 window), and narrowed them when the scroll bar came: each size replotted.
    // While views are to come, each is given its final height now, the splitter no taller than
    // they, and the scroll bar is on from the start if it will be needed.
    const bool complete = m_splitter->count() >= count;
    if (complete && !std::exchange(m_held, false)) return fitNow(); // all came in one pass
    bool scrolls = false;
    const QList<int> heights = finalHeights(count, &scrolls);
    m_held = !complete;
    setVerticalScrollBarPolicy(m_held && scrolls ? Qt::ScrollBarAlwaysOn : Qt::ScrollBarAsNeeded);
    const int handles = m_splitter->handleWidth() * (m_splitter->count() - 1);
    m_splitter->setMaximumHeight(
        m_held ? std::accumulate(heights.begin(), heights.end(), handles) : QWIDGETSIZE_MAX);
    fitNow();
    m_splitter->setSizes(heights);
}

QList<int> ViewColumn::finalHeights(int count, bool* scrolls) const
{
    // The column scrolls when its views at their least height (the tallest least height of
    // those there) do not fit; then each is at its least, else they share the column's height
    // and the last takes what is left.
    const int views = m_splitter->count();
    QList<int> least;
    for (int k = 0; k < views; ++k)
        least << m_splitter->widget(k)->minimumSizeHint().height();
    const int tallest = least.isEmpty() ? 0 : *std::max_element(least.begin(), least.end());
    const int room = viewport()->height() - m_splitter->handleWidth() * (count - 1);
    *scrolls = tallest * count > room;
    if (*scrolls || count == 0) return least; // none: all went while others were to come
    QList<int> heights(views, room / count);
    if (views == count && views > 0) heights.back() = room - room / count * (count - 1);
    return heights;
}

bool ViewColumn::eventFilter(QObject* watched, QEvent* event)
{
    // A view came, went or changed its least size: so may the least size of the column's panel.
    if (watched == m_splitter && event->type() == QEvent::LayoutRequest) updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

} // namespace ss::ui
