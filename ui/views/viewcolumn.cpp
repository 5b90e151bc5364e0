// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/viewcolumn.h"

#include <QCoreApplication>
#include <QEvent>
#include <QScrollBar>
#include <QSplitter>

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

bool ViewColumn::eventFilter(QObject* watched, QEvent* event)
{
    // A view came, went or changed its least size: so may the least size of the column's panel.
    if (watched == m_splitter && event->type() == QEvent::LayoutRequest) updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

} // namespace ss::ui
