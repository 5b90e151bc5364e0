// SPDX-License-Identifier: GPL-3.0-or-later
// The window's central splitter: the editors above (scrolled in a window shorter than they
// need), the inputs beside the outputs below. The editors get the height they ask for when an
// op or lesson opens, until the user drags the handle; edits never move the views. The window
// holds it in a scroll area that scrolls it sideways on a screen too narrow for it beside the
// docks.
#pragma once

#include <QSplitter>

class QScrollArea;

namespace ss::ui {

class WorkbenchSplitter : public QSplitter
{
    Q_OBJECT
public:
    WorkbenchSplitter(QWidget* editors, QWidget* inputs, QWidget* outputs,
                      QWidget* parent = nullptr);

    /// The splitter in its scroll area, the window's central widget. The area is as wide as the
    /// splitter's least width where the screen has room for that beside the docks at their least
    /// widths, and scrolls past it: at 1024 x 700 and scale 2 (512 x 350) a lesson's input and
    /// output side by side need 554 px, and the window, as wide as its least size, ran off the
    /// screen.
    QScrollArea* scrollArea() const { return m_scroll; }

    /// A new op or lesson: the editors fit their content again, now.
    void followContent();
    /// Fits the editors to their content again unless the handle was dragged since the last
    /// followContent() (the window was resized or shown, or the fonts changed).
    void refit();

private:
    void fit();

    QWidget* m_editors = nullptr;
    QScrollArea* m_scroll = nullptr;
    bool m_follow = true; ///< the editors' height follows their content (until dragged)
};

} // namespace ss::ui
