// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/workbenchsplitter.h"

#include <algorithm>

namespace ss::ui {

WorkbenchSplitter::WorkbenchSplitter(QWidget* editors, QWidget* inputs, QWidget* outputs,
                                     QWidget* parent)
    : QSplitter(Qt::Vertical, parent)
{
    auto* views = new QSplitter(Qt::Horizontal);
    views->setObjectName(QStringLiteral("viewSplitter"));
    views->addWidget(inputs);
    views->addWidget(outputs);
    views->setChildrenCollapsible(false);
    views->setStretchFactor(0, 1);
    views->setStretchFactor(1, 1);
    views->setSizes({10000, 10000}); // half each (scaled down to fit), whatever the contents ask

    setObjectName(QStringLiteral("mainSplitter"));
    addWidget(editors);
    addWidget(views);
    setStretchFactor(0, 0);
    setStretchFactor(1, 1);
    connect(this, &QSplitter::splitterMoved, this, [this] { m_follow = false; });
}

void WorkbenchSplitter::followContent()
{
    m_follow = true;
    fit();
}

void WorkbenchSplitter::refit()
{
    if (m_follow) fit();
}

void WorkbenchSplitter::fit()
{
    // The editors get the height they ask for (every entry of the raw table in view), up to
    // three fifths of the window, but never less than they need; the views get the rest. Set
    // when an op or lesson opens, not on edits: adding an entry must not move the views.
    QWidget* top = widget(0);
    const int total = std::max(height(), window()->height() - 120);
    const int wanted = std::max(std::clamp(top->sizeHint().height(), 120, total * 3 / 5),
                                top->minimumSizeHint().height());
    setSizes({wanted, std::max(total - wanted, 200)});
}

} // namespace ss::ui
