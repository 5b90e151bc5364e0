// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/undokeys.h"

#include <QApplication>
#include <QKeyEvent>
#include <QWidget>

namespace ss::ui {

namespace {
constexpr char kOwnUndoKeys[] = "ownUndoKeys";
}

UndoKeys::UndoKeys(QWidget& window) : QObject(&window), m_window(window)
{
    // The application's filter: the op's editors are replaced with every op, and a new field
    // needs nothing done for it.
    qApp->installEventFilter(this);
}

void UndoKeys::leaveToField(QWidget& field)
{
    field.setProperty(kOwnUndoKeys, true);
}

bool UndoKeys::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress) return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo)) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    // isAncestorOf stops at a window's edge: a dialog's fields are not the workspace.
    if (!widget || !m_window.isAncestorOf(widget) || widget->property(kOwnUndoKeys).toBool())
        return false;
    // Not taken as the field's override: the window's Undo and Redo shortcuts fire. A key press
    // reaches here only when they are disabled (nothing to undo): then nothing happens, rather
    // than the field undoing text of its own.
    return true;
}

} // namespace ss::ui
