// SPDX-License-Identifier: GPL-3.0-or-later
// A column of tensor views, one under the other in a splitter, that scrolls down when they need
// more height than it has: the inputs of dynamic_stitch and the outputs of dynamic_partition
// never make the window taller than the screen.
#pragma once

#include <QScrollArea>

class QSplitter;

namespace ss::ui {

class ViewColumn : public QScrollArea
{
    Q_OBJECT
public:
    explicit ViewColumn(QWidget* parent = nullptr);

    /// Holds the views (and whatever goes with them); its children do not collapse.
    QSplitter* splitter() const { return m_splitter; }
    /// Sizes the splitter to its views now, not at the layout pass the change posted.
    void fitNow();
    /// fitNow, for a column that will hold `count` views when all have come: until then the
    /// views on show take the heights they will have then, and the views still to come do not
    /// squeeze them.
    void fitNow(int count);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    /// Scrolled: views moved on or off the screen.
    void scrolled();

private:
    /// Each view's height once `count` are there, and whether the column will scroll then.
    QList<int> finalHeights(int count, bool* scrolls) const;

    QSplitter* m_splitter;
    bool m_held = false; ///< the views' heights are held for the views still to come
};

} // namespace ss::ui
