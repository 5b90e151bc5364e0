// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/commandpalette.h"

#include "core/op.h"
#include "ui/model/exercises.h"
#include "ui/model/lessons.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/lessonnavigator.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/workspacedocument.h"

#include <QAction>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::ui {

namespace {

// "Save &As…" reads "Save As".
QString plainText(const QAction& action)
{
    QString text = action.text().remove(u'&');
    if (text.endsWith(u'…')) text.chop(1);
    if (text.endsWith(QLatin1String("..."))) text.chop(3);
    return text;
}

void addMenuActions(const QMenu& menu, QList<QAction*>& actions)
{
    for (QAction* action : menu.actions()) {
        if (QMenu* sub = action->menu())
            addMenuActions(*sub, actions);
        else if (!action->isSeparator() && !actions.contains(action))
            actions << action;
    }
}

// How well `filter` matches `text` as a subsequence (case ignored): -1 if it does not; else
// higher for characters that follow each other and that start words.
int fuzzyScore(const QString& text, const QString& filter)
{
    int score = 0;
    qsizetype at = 0;
    qsizetype previous = -2;
    for (const QChar c : filter) {
        if (c.isSpace()) continue;
        const qsizetype found = text.indexOf(c, at, Qt::CaseInsensitive);
        if (found < 0) return -1;
        score += found == previous + 1 ? 3 : 0;
        if (found == 0 || !text.at(found - 1).isLetterOrNumber()) score += 2;
        score -= int(std::min<qsizetype>(found - at, 10)) / 5;
        previous = found;
        at = found + 1;
    }
    return score;
}

} // namespace

CommandPalette::CommandPalette(MainWindow& window)
    : QDialog(&window), m_window(window), m_filter(new QLineEdit(this)),
      m_list(new QListWidget(this))
{
    setObjectName(QStringLiteral("commandPalette"));
    setWindowTitle(tr("Command Palette"));
    setAccessibleName(tr("Command palette"));
    m_filter->setObjectName(QStringLiteral("paletteFilter"));
    m_filter->setAccessibleName(tr("Command filter"));
    m_filter->setAccessibleDescription(
        tr("Type part of an action, op, lesson or exercise; Up and Down choose, Enter runs, "
           "Escape closes"));
    m_filter->setPlaceholderText(tr("Run an action, switch op, open a lesson or exercise…"));
    m_list->setObjectName(QStringLiteral("paletteList"));
    m_list->setAccessibleName(tr("Commands"));
    m_list->setFocusPolicy(Qt::NoFocus); // the filter keeps the keyboard
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_list);
    resize(560, 420);
    m_filter->installEventFilter(this);
    connect(m_filter, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    connect(m_list, &QListWidget::itemActivated, this, &CommandPalette::runCurrent);
}

void CommandPalette::collect()
{
    m_entries.clear();
    QList<QAction*> actions;
    for (QAction* top : m_window.menuBar()->actions())
        if (QMenu* menu = top->menu()) addMenuActions(*menu, actions);
    for (QAction* action : actions) {
        if (!action->isEnabled() || plainText(*action).isEmpty()) continue;
        QPointer<QAction> target(action);
        m_entries.push_back({tr("Action"), plainText(*action), [target] {
                                 if (target) target->trigger();
                             }});
    }
    MainWindow* window = &m_window;
    for (const OpDef& def : allOps()) {
        const std::string name = def.name;
        m_entries.push_back({tr("Op"),
                             QStringLiteral("%1 — %2").arg(QString::fromStdString(name),
                                                           QString::fromStdString(def.summary)),
                             [window, name] {
                                 const OpDef* op = findOp(name);
                                 WorkspaceDocument* doc = window->document();
                                 if (!op || name == doc->workspace().op) return;
                                 // As the op picker switches: the op's own example, one undo step.
                                 doc->edit(switchOp(doc->workspace(), *op),
                                           tr("Switch to %1").arg(QString::fromStdString(name)));
                             }});
    }
    for (const Lesson& lesson : lessons()) {
        if (!lesson.unavailable.isEmpty()) continue;
        const QString name = lesson.name;
        m_entries.push_back({tr("Lesson"),
                             lesson.workspace.title.isEmpty() ? name : lesson.workspace.title,
                             [window, name] { window->lessonNavigator()->switchTo(name); }});
    }
    for (const ExerciseSet& set : exerciseSets())
        for (const Exercise& exercise : set.exercises) {
            const QString name = exercise.name;
            m_entries.push_back({tr("Exercise"), exercise.title, [window, name] {
                                     window->docks()->exerciseDock()->show();
                                     window->docks()->exercises()->openExercise(name);
                                 }});
        }
}

std::vector<int> CommandPalette::match(const std::vector<Entry>& entries, const QString& filter)
{
    std::vector<std::pair<int, int>> scored; // (score, index)
    for (int k = 0; k < int(entries.size()); ++k) {
        const Entry& e = entries[std::size_t(k)];
        const QString text = e.kind + QStringLiteral(": ") + e.text;
        int score = fuzzyScore(text, filter.trimmed());
        if (score < 0) continue;
        // The filter as a whole word ("pad", not the start of "paddle") ranks first.
        const QString word = filter.trimmed();
        for (qsizetype at = text.indexOf(word, 0, Qt::CaseInsensitive); !word.isEmpty() && at >= 0;
             at = text.indexOf(word, at + 1, Qt::CaseInsensitive)) {
            const qsizetype end = at + word.size();
            const auto wordChar = [&](qsizetype i) {
                return text.at(i).isLetterOrNumber() || text.at(i) == u'_';
            };
            if ((at == 0 || !wordChar(at - 1)) && (end == text.size() || !wordChar(end))) {
                score += 4;
                break;
            }
        }
        scored.emplace_back(score, k);
    }
    // Ties go to the shorter text: "pad" before "paddle_strided_slice".
    std::stable_sort(scored.begin(), scored.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return entries[std::size_t(a.second)].text.size() <
               entries[std::size_t(b.second)].text.size();
    });
    std::vector<int> out;
    for (const auto& s : scored)
        out.push_back(s.second);
    return out;
}

void CommandPalette::refilter()
{
    m_list->clear();
    for (const int k : match(m_entries, m_filter->text())) {
        const Entry& e = m_entries[std::size_t(k)];
        auto* item = new QListWidgetItem(e.kind + QStringLiteral(": ") + e.text, m_list);
        item->setData(Qt::UserRole, k);
    }
    if (m_list->count()) m_list->setCurrentRow(0);
}

QStringList CommandPalette::shownTexts() const
{
    QStringList texts;
    for (int r = 0; r < m_list->count(); ++r)
        texts << m_list->item(r)->text();
    return texts;
}

void CommandPalette::open()
{
    collect();
    m_filter->clear();
    refilter();
    show();
    raise();
    activateWindow();
    m_filter->setFocus();
}

void CommandPalette::runCurrent()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item && m_list->count()) item = m_list->item(0);
    if (!item) return;
    const std::function<void()> run = m_entries[std::size_t(item->data(Qt::UserRole).toInt())].run;
    hide();
    // After the palette has closed: an action may open a dialog of its own.
    QTimer::singleShot(0, &m_window, run);
}

void CommandPalette::hideEvent(QHideEvent* event)
{
    // The keyboard goes back to the window the palette was opened from.
    m_window.activateWindow();
    QDialog::hideEvent(event);
}

bool CommandPalette::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const int rows = m_list->count();
        int row = m_list->currentRow();
        switch (key->key()) {
        case Qt::Key_Down: row = rows ? (row + 1) % rows : -1; break;
        case Qt::Key_Up: row = rows ? (row + rows - 1) % rows : -1; break;
        case Qt::Key_PageDown: row = std::min(row + 10, rows - 1); break;
        case Qt::Key_PageUp: row = std::max(row - 10, 0); break;
        case Qt::Key_Return:
        case Qt::Key_Enter: runCurrent(); return true;
        default: return QDialog::eventFilter(watched, event);
        }
        m_list->setCurrentRow(row);
        return true;
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace ss::ui
