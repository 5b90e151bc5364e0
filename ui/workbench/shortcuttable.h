// SPDX-License-Identifier: GPL-3.0-or-later
// The keys the workbench answers to, read from its actions: the Help > Keyboard Shortcuts table
// and the check that ui/README.md's keys table lists the same keys both come from here, so
// neither can miss a shortcut that an action has.
#pragma once

#include <QList>
#include <QString>

class QWidget;

namespace ss::ui {

struct ShortcutRow
{
    QString keys; ///< as typed, in QKeySequence's portable text ("Ctrl+Shift+L")
    QString what; ///< what they do
};

/// Every key of `window`: the shortcuts of its actions (the menus' in menu order, then those of
/// its panels, such as the decode steps), its QShortcuts (their what's-this text says what they
/// do), then the keys that are no action (the expression's history, editing a cell, Tab).
QList<ShortcutRow> shortcutRows(const QWidget& window);

/// The rows as an HTML table, for the Keyboard Shortcuts dialog.
QString shortcutTableHtml(const QList<ShortcutRow>& rows);

/// Help > Keyboard Shortcuts: the table of `window`'s keys in a modal dialog (`shortcutsDialog`,
/// the table `shortcutTable`) as large as the table where the screen has room, scrolling past
/// that.
void showShortcutTable(QWidget& window);

} // namespace ss::ui
