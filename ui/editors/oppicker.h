// SPDX-License-Identifier: GPL-3.0-or-later
// The op picker: every op grouped under its family (OpDef::family), sorted by name within it,
// and filterable by typing. Typing narrows a list of the ops whose names contain the text; Enter
// picks the op named exactly so, else the first left in the list, so "pad" picks pad and not
// paddle_strided_slice.
#pragma once

#include <QComboBox>

class QCompleter;

namespace ss::ui {

class OpPicker : public QComboBox
{
    Q_OBJECT
public:
    explicit OpPicker(QWidget* parent = nullptr);

    /// The op that `text` picks: the op named so (or aliased so, any case), else the first op
    /// in name order whose name starts with it, else the first that contains it; empty if none.
    static QString resolve(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void pickTyped();

    QCompleter* m_completer;
};

} // namespace ss::ui
