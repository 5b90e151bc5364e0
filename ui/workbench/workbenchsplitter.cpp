// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/workbenchsplitter.h"

#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QMap>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

#include <algorithm>

namespace ss::ui {

namespace {

/// The least room the views (the splitter's second widget) keep of `total` pixels: their own
/// least height, and at least 45%, so that a tensor shows two rows of cells under its headers
/// (at 1024 x 700 the first lesson's editors left the input view 6 px). Past that the editors
/// scroll.
int viewsLeastRoom(const QSplitter& splitter, int total)
{
    return std::max(splitter.widget(1)->minimumSizeHint().height(), total * 9 / 20);
}

/// The editors' column, scrolled when the window is shorter than they need (presentation mode's
/// large type on a 1024 x 700 screen needs 745 px): without it their least height became the
/// window's, which then grew past the screen. The column is as tall as the room it is given, or
/// its least height if that is more; never its preferred height, which QScrollArea's own
/// resizing would give a column with wrapped text (so adding a row would move everything).
class EditorScroll : public QScrollArea
{
public:
    explicit EditorScroll(QWidget* editors)
    {
        setObjectName(QStringLiteral("editorScroll"));
        setWidget(editors);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setFocusPolicy(Qt::NoFocus);
        editors->installEventFilter(this);
    }

    QSize sizeHint() const override { return widget()->sizeHint(); }
    /// The column's least height, but no more than the screen leaves beside the window's bars
    /// and the views' least room: the window never grows past the screen for the editors.
    QSize minimumSizeHint() const override
    {
        int least = widget()->minimumSizeHint().height();
        auto* splitter = qobject_cast<QSplitter*>(parentWidget());
        if (splitter && splitter->count() == 2 && screen()) {
            const int bars = window()->height() - splitter->height();
            const int total =
                screen()->availableGeometry().height() - bars - splitter->handleWidth();
            const int room = total - viewsLeastRoom(*splitter, total);
            least = std::max(0, std::min(least, room));
        }
        return {QScrollArea::minimumSizeHint().width(), least};
    }

protected:
    bool viewportEvent(QEvent* event) override
    {
        if (event->type() == QEvent::Resize) fitColumn();
        return QScrollArea::viewportEvent(event);
    }
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest) fitColumn();
        return QScrollArea::eventFilter(watched, event);
    }

private:
    void fitColumn()
    {
        const QSize room = viewport()->size();
        widget()->resize(room.width(),
                         std::max(room.height(), widget()->minimumSizeHint().height()));
    }
};

/// The window's central widget around the splitter (see WorkbenchSplitter::scrollArea).
class WorkbenchScroll : public QScrollArea
{
public:
    explicit WorkbenchScroll(QWidget* workbench)
    {
        setObjectName(QStringLiteral("workbenchScroll"));
        setFrameShape(QFrame::NoFrame);
        setFocusPolicy(Qt::NoFocus);
        setWidgetResizable(true);
        setWidget(workbench);
    }

    /// The workbench's least size, no larger than the screen leaves beside the window's other
    /// parts at their least sizes.
    QSize minimumSizeHint() const override
    {
        const QSize least = widget()->minimumSizeHint();
        auto* window = qobject_cast<QMainWindow*>(this->window());
        if (!window || !screen()) return least;
        const QSize room = screen()->availableGeometry().size() - othersLeast(*window);
        return least.boundedTo(room).expandedTo(QScrollArea::minimumSizeHint());
    }

protected:
    /// The workbench's least size changed (a new op, lesson or result): so did this one.
    bool viewportEvent(QEvent* event) override
    {
        if (event->type() == QEvent::LayoutRequest) updateGeometry();
        return QScrollArea::viewportEvent(event);
    }

private:
    /// The least room the rest of `window` takes: its frame; across, the docks open beside the
    /// workbench; down, the menu, tool and status bars and the docks open above or below it.
    static QSize othersLeast(const QMainWindow& window)
    {
        QSize others = window.frameGeometry().size() - window.geometry().size();
        QMap<Qt::DockWidgetArea, int> areas; // the least extent of each area's docks
        for (QDockWidget* dock : window.findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
            if (dock->isHidden() || dock->isFloating()) continue;
            const Qt::DockWidgetArea area = window.dockWidgetArea(dock);
            const bool side = area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
            const QSize least = dock->minimumSizeHint();
            areas[area] = std::max(areas.value(area), side ? least.width() : least.height());
        }
        const int separator = window.style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent);
        for (auto area = areas.cbegin(); area != areas.cend(); ++area) {
            const bool side =
                area.key() == Qt::LeftDockWidgetArea || area.key() == Qt::RightDockWidgetArea;
            (side ? others.rwidth() : others.rheight()) += area.value() + separator;
        }
        QList<QWidget*> bars{window.menuWidget(),
                             window.findChild<QStatusBar*>(QString(), Qt::FindDirectChildrenOnly)};
        for (QToolBar* bar : window.findChildren<QToolBar*>(Qt::FindDirectChildrenOnly))
            if (window.toolBarArea(bar) & (Qt::TopToolBarArea | Qt::BottomToolBarArea)) bars << bar;
        for (const QWidget* bar : bars)
            if (bar && !bar->isHidden()) others.rheight() += bar->sizeHint().height();
        return others;
    }
};

} // namespace

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

    m_editors = editors;
    setObjectName(QStringLiteral("mainSplitter"));
    addWidget(new EditorScroll(editors));
    addWidget(views);
    setStretchFactor(0, 0);
    setStretchFactor(1, 1);
    connect(this, &QSplitter::splitterMoved, this, [this] { m_follow = false; });
    m_scroll = new WorkbenchScroll(this);
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
    // what leaves the views their least room (past that the editors scroll); the views get the
    // rest. Set when an op or lesson opens, not on edits: adding an entry must not move the
    // views. The layouts the new op's editor posted run first, deepest first so that each
    // holds its children's new least sizes: measured before them, the editors' least height was
    // still the last op's (258 px for dynamic_partition's two lines after the first lesson,
    // which left its views 317 px of 624 at 1024 x 700).
    const QList<QLayout*> layouts = m_editors->findChildren<QLayout*>();
    for (auto layout = layouts.rbegin(); layout != layouts.rend(); ++layout)
        (*layout)->activate();
    const int total = std::max(height(), window()->height() - 120);
    const int most = std::max(120, total - viewsLeastRoom(*this, total));
    const int least = std::min(m_editors->minimumSizeHint().height(), most);
    const int wanted = std::max(std::clamp(m_editors->sizeHint().height(), 120, most), least);
    setSizes({wanted, std::max(total - wanted, 200)});
}

} // namespace ss::ui
