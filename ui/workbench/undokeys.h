// SPDX-License-Identifier: GPL-3.0-or-later
// Undo and redo keys belong to the window's undo stack in every field of the window: a line
// edit, the op picker's text or a spin box would otherwise take Ctrl+Z for its own text history
// (after picking an op, Ctrl+Z undid the picker's text, not the switch; in an argument field it
// took back keystrokes the workspace never saw, leaving text that does not parse). Dialogs,
// floating windows and fields whose text is not the workspace's (leaveToField) keep their own
// keys.
#pragma once

#include <QObject>

class QWidget;

namespace ss::ui {

class UndoKeys : public QObject
{
    Q_OBJECT
public:
    /// Watches the application's key events for the widgets of `window`.
    explicit UndoKeys(QWidget& window);
    /// Leaves the undo keys to `field`, whose text is not the workspace's (the Model dock's
    /// filter): there Ctrl+Z takes back the field's own typing.
    static void leaveToField(QWidget& field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget& m_window;
};

} // namespace ss::ui
