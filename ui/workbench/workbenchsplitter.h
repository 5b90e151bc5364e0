// SPDX-License-Identifier: GPL-3.0-or-later
// The window's central splitter: the editors above (scrolled in a window shorter than they
// need), the inputs beside the outputs below. The editors get the height they ask for when an
// op or lesson opens, until the user drags the handle; edits never move the views.
#pragma once

#include <QSplitter>

namespace ss::ui {

class WorkbenchSplitter : public QSplitter
{
    Q_OBJECT
public:
    WorkbenchSplitter(QWidget* editors, QWidget* inputs, QWidget* outputs,
                      QWidget* parent = nullptr);

    /// A new op or lesson: the editors fit their content again, now.
    void followContent();
    /// Fits the editors to their content again unless the handle was dragged since the last
    /// followContent() (the window was resized or shown, or the fonts changed).
    void refit();

private:
    void fit();

    QWidget* m_editors = nullptr;
    bool m_follow = true; ///< the editors' height follows their content (until dragged)
};

} // namespace ss::ui
