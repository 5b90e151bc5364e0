// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/shortcuttable.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QScrollBar>
#include <QShortcut>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace ss::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ShortcutTable", text);
}

// "Save &As…" reads "Save As"; a check item says that it goes on and off.
QString actionText(const QAction& action)
{
    QString text = action.text().remove(u'&');
    if (text.endsWith(u'…')) text.chop(1);
    if (text.endsWith(QLatin1String("..."))) text.chop(3);
    return action.isCheckable() ? tr("%1 (on / off)").arg(text) : text;
}

bool isWindowShortcut(const QAction& action)
{
    return !action.shortcut().isEmpty() && (action.shortcutContext() == Qt::WindowShortcut ||
                                            action.shortcutContext() == Qt::ApplicationShortcut);
}

void addMenu(const QMenu& menu, QList<const QAction*>& actions)
{
    for (const QAction* action : menu.actions()) {
        if (const QMenu* sub = action->menu())
            addMenu(*sub, actions);
        else if (!actions.contains(action))
            actions << action;
    }
}

} // namespace

QList<ShortcutRow> shortcutRows(const QWidget& window)
{
    QList<const QAction*> actions;
    if (const auto* main = qobject_cast<const QMainWindow*>(&window))
        for (const QAction* top : main->menuBar()->actions())
            if (const QMenu* menu = top->menu()) addMenu(*menu, actions);
    for (const QAction* action : window.findChildren<QAction*>())
        if (!actions.contains(action)) actions << action;

    QList<ShortcutRow> rows;
    for (const QAction* action : actions)
        if (isWindowShortcut(*action))
            rows.append(
                {action->shortcut().toString(QKeySequence::PortableText), actionText(*action)});
    for (const QShortcut* shortcut : window.findChildren<QShortcut*>())
        if (!shortcut->key().isEmpty() && !shortcut->whatsThis().isEmpty())
            rows.append(
                {shortcut->key().toString(QKeySequence::PortableText), shortcut->whatsThis()});
    // Keys that widgets handle themselves.
    rows.append({tr("Up, Down in the expression"), tr("earlier expressions")});
    rows.append({tr("Enter or F2 on a cell"), tr("edit an input element")});
    rows.append({tr("Tab, Shift+Tab; Ctrl+Tab in a table"), tr("next, previous control")});
    return rows;
}

QString shortcutTableHtml(const QList<ShortcutRow>& rows)
{
    QString html = QStringLiteral("<table>");
    for (const ShortcutRow& row : rows)
        html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                    .arg(row.keys.toHtmlEscaped(), row.what.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

void showShortcutTable(QWidget& window)
{
    QDialog dialog(&window);
    dialog.setObjectName(QStringLiteral("shortcutsDialog"));
    dialog.setWindowTitle(tr("Keyboard shortcuts"));
    auto* table = new QTextBrowser;
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setAccessibleName(tr("Keyboard shortcuts"));
    // Read from the actions when asked: the table cannot miss a key one of them has.
    const QString html = shortcutTableHtml(shortcutRows(window));
    table->setHtml(html);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    // The whole table, up to what the screen has room for; past that it scrolls (a message
    // box, it was 686 px high, and a 1024 x 700 screen at scale 2 has 350).
    QTextDocument unwrapped; // its size is the table's without wrapping
    unwrapped.setDefaultFont(table->font());
    unwrapped.setDocumentMargin(table->document()->documentMargin());
    unwrapped.setHtml(html);
    const int frame = 2 * table->frameWidth();
    const QSize text = unwrapped.size().toSize() +
                       QSize(frame + table->verticalScrollBar()->sizeHint().width(), frame);
    const QMargins margins = layout->contentsMargins();
    const QSize wanted(text.width() + margins.left() + margins.right(),
                       text.height() + layout->spacing() + buttons->sizeHint().height() +
                           margins.top() + margins.bottom());
    const QRect screen = window.screen()->availableGeometry();
    const QSize frameExtra = window.frameGeometry().size() - window.geometry().size();
    dialog.resize(wanted.boundedTo(screen.size() - frameExtra));
    dialog.exec();
}

} // namespace ss::ui
