// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/exercisepanel.h"

#include "ui/views/palette.h"
#include "ui/views/plaintext.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/windowmessages.h"
#include "ui/workbench/workspacedocument.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::ui {

namespace {

std::vector<const Exercise*> allExercises()
{
    std::vector<const Exercise*> list;
    for (const ExerciseSet& set : exerciseSets())
        for (const Exercise& exercise : set.exercises)
            list.push_back(&exercise);
    return list;
}

const ExerciseSet* setOf(const Exercise* exercise)
{
    for (const ExerciseSet& set : exerciseSets())
        for (const Exercise& e : set.exercises)
            if (&e == exercise) return &set;
    return nullptr;
}

QLabel* wrappedLabel(const QString& name, const QString& accessible)
{
    auto* label = new QLabel;
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setAccessibleName(accessible);
    // What the label is; ExercisePanel::say() names it by this and its text.
    label->setProperty("spokenAs", accessible);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QPushButton* button(const QString& name, const QString& text, const QString& accessible)
{
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    b->setAccessibleName(accessible);
    // Enter as well as Space presses a focused button: outside a dialog QPushButton answers
    // Enter only when it is an auto-default button, and students tab to Check and press Enter.
    b->setAutoDefault(true);
    return b;
}

} // namespace

ExercisePanel::ExercisePanel(MainWindow* window, const QString& progressPath, QWidget* parent)
    : QWidget(parent), m_window(window),
      m_progress(progressPath.isEmpty() ? ExerciseProgress::defaultPath() : progressPath),
      m_heading(wrappedLabel(QStringLiteral("exerciseHeading"), tr("Exercise set"))),
      m_title(wrappedLabel(QStringLiteral("exerciseTitle"), tr("Exercise title"))),
      m_task(wrappedLabel(QStringLiteral("exerciseTask"), tr("Task"))), m_target(new TensorView),
      m_targetShape(wrappedLabel(QStringLiteral("exerciseTargetShape"), tr("Target shape"))),
      m_check(button(QStringLiteral("exerciseCheck"), tr("&Check"), tr("Check the answer"))),
      m_previous(
          button(QStringLiteral("exercisePrevious"), tr("Previous"), tr("Previous exercise"))),
      m_next(button(QStringLiteral("exerciseNext"), tr("Next"), tr("Next exercise"))),
      m_restart(button(QStringLiteral("exerciseRestart"), tr("Start Over"),
                       tr("Start the exercise over"))),
      m_resultText(wrappedLabel(QStringLiteral("exerciseResult"), tr("Result"))),
      m_count(wrappedLabel(QStringLiteral("exerciseCount"), tr("Progress"))),
      m_problems(wrappedLabel(QStringLiteral("exerciseProblems"), tr("Files that did not read"))),
      m_tree(new QTreeWidget)
{
    setObjectName(QStringLiteral("exercisePanel"));
    setAccessibleName(tr("Exercises"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_target->setObjectName(QStringLiteral("exerciseTarget"));
    m_target->setAccessibleName(tr("Target"));
    m_target->setMinimumHeight(150);
    m_resultText->setTextFormat(Qt::RichText);
    // Room for a hint and the marks' summary, so that a verdict never shows cut short.
    m_resultText->setMinimumHeight(m_resultText->fontMetrics().lineSpacing() * 5);
    m_resultText->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_task->setMinimumHeight(m_task->fontMetrics().lineSpacing() * 2);
    m_targetShape->setMinimumHeight(m_targetShape->fontMetrics().lineSpacing() * 3);
    m_tree->setObjectName(QStringLiteral("exerciseProgress"));
    m_tree->setAccessibleName(tr("Exercise progress"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Exercise"), tr("Solved")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);

    // Two rows of two: in one row the four buttons made the dock 440 px at least, more than a
    // 1024 px window can give beside the decode steps.
    auto* buttons = new QGridLayout;
    buttons->addWidget(m_check, 0, 0);
    buttons->addWidget(m_restart, 0, 1);
    buttons->addWidget(m_previous, 1, 0);
    buttons->addWidget(m_next, 1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_title);
    layout->addWidget(m_task);
    layout->addWidget(m_target, 2);
    layout->addWidget(m_targetShape);
    layout->addLayout(buttons);
    layout->addWidget(m_resultText);
    layout->addWidget(m_count);
    layout->addWidget(m_problems);
    layout->addWidget(m_tree, 3);

    connect(m_check, &QPushButton::clicked, this, &ExercisePanel::check);
    connect(m_previous, &QPushButton::clicked, this, [this] { step(-1); });
    connect(m_next, &QPushButton::clicked, this, [this] { step(1); });
    connect(m_restart, &QPushButton::clicked, this, [this] {
        if (const Exercise* e = findExercise(currentExercise()))
            m_window->document()->edit(e->start, tr("Start exercise over"));
    });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QString name = item->data(0, Qt::UserRole).toString();
        if (!name.isEmpty()) openExercise(name);
    });
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        const QString name = item->data(0, Qt::UserRole).toString();
        if (!name.isEmpty() && name != currentExercise()) openExercise(name);
    });
    // An edit makes the last check's marks and verdict stale: they go when its result shows.
    connect(m_window, &MainWindow::evaluationShown, this, [this] {
        if (m_result && m_window->document()->workspace() != m_checked) {
            m_result.reset();
            clearMarks();
            showResult();
        }
    });
    // A check made while an evaluation was still running marks the views once they show it.
    connect(m_window, &MainWindow::settled, this, [this] {
        if (m_result && m_window->document()->workspace() == m_checked) applyMarks();
    });
    // Opening a lesson or a file leaves the exercise: Check would compare that workspace with
    // a target it was never meant for.
    connect(m_window->document(), &WorkspaceDocument::opened, this, &ExercisePanel::showNoExercise);
    showNoExercise();
    // Files that did not read are said in the window, not only on stderr: here, and in the
    // message strip for the session (a notice, which results do not clear).
    const QString problems = this->problems();
    say(m_problems, problems);
    m_problems->setVisible(!problems.isEmpty());
    if (!problems.isEmpty()) m_window->messages()->showNotice(problems);
}

QString ExercisePanel::problems() const
{
    QStringList lines;
    exerciseSets(&lines);
    for (QString& line : lines)
        line = tr("An exercise set did not read: %1").arg(line);
    if (!m_progress.problem().isEmpty()) lines << m_progress.problem();
    return lines.join(u'\n');
}

void ExercisePanel::showNoExercise()
{
    if (m_index >= 0) clearMarks(); // only an open exercise marks the views
    m_index = -1;
    m_result.reset();
    m_targetSelection = {};
    for (QLabel* label : {m_heading, m_title, m_task, m_targetShape})
        say(label, QString());
    // An empty target, which also names the view's parts for screen readers.
    m_target->setTensor(Tensor::zeros(DType::Int32, {0}), tr("target"));
    m_target->setReadOrder(nullptr);
    m_check->setEnabled(false);
    m_restart->setEnabled(false);
    m_previous->setEnabled(false);
    m_next->setEnabled(true); // the first exercise
    showResult();
    rebuildProgress();
}

QString ExercisePanel::currentExercise() const
{
    const auto list = allExercises();
    return m_index >= 0 && m_index < int(list.size()) ? list[std::size_t(m_index)]->name
                                                      : QString();
}

bool ExercisePanel::openExercise(const QString& name)
{
    const auto list = allExercises();
    const auto it =
        std::find_if(list.begin(), list.end(), [&](const Exercise* e) { return e->name == name; });
    if (it == list.end()) return false;
    const Exercise& exercise = **it;
    m_index = int(it - list.begin());
    m_result.reset();
    clearMarks();
    const ExerciseSet* set = setOf(&exercise);
    say(m_heading,
        tr("%1 · exercise %2 of %3")
            .arg(set ? set->title : QString())
            .arg(set ? int(std::find_if(set->exercises.begin(), set->exercises.end(),
                                        [&](const Exercise& e) { return e.name == name; }) -
                           set->exercises.begin()) +
                           1
                     : 0)
            .arg(set ? int(set->exercises.size()) : 0));
    say(m_title, exercise.title);
    say(m_task, exercise.task);
    m_targetSelection = ExerciseChecker::target(exercise);
    if (m_targetSelection.ok) {
        const auto positions = ExerciseChecker::readPositions(m_targetSelection);
        const ReadOrder order = storedReadOrder(StoredPositions(positions.begin(), positions.end()));
        m_target->setTensor(m_targetSelection.input, tr("target"));
        m_target->setReadOrder(order, std::int64_t(m_targetSelection.sources.size()) - 1);
        say(m_targetShape,
            tr("Target: output shape %1, %2 cells, read in the order of the colours (dark "
               "first). Answer in the workbench's %3 editor, then Check.")
                .arg(shapeText(m_targetSelection.shape))
                .arg(m_targetSelection.sources.size())
                .arg(QString::fromStdString(exercise.start.op)));
    } else {
        say(m_targetShape, tr("This exercise's solution fails: %1").arg(m_targetSelection.error));
    }
    m_window->document()->edit(exercise.start, tr("Open exercise %1").arg(exercise.title));
    m_check->setEnabled(m_targetSelection.ok);
    m_restart->setEnabled(true);
    m_previous->setEnabled(m_index > 0);
    m_next->setEnabled(m_index + 1 < int(list.size()));
    showResult();
    rebuildProgress();
    // The focus stays on the button that opened it: its description says what is open now.
    const QString opened = plainText(
        QStringList{m_heading->text(), exercise.title, exercise.task, m_targetShape->text()}.join(
            u'\n'));
    for (QPushButton* b : {m_previous, m_next, m_restart})
        b->setAccessibleDescription(opened);
    return true;
}

void ExercisePanel::step(int delta)
{
    const auto list = allExercises();
    const int next = m_index + delta;
    if (next >= 0 && next < int(list.size())) openExercise(list[std::size_t(next)]->name);
}

void ExercisePanel::check()
{
    const Exercise* exercise = findExercise(currentExercise());
    if (!exercise) return;
    m_checked = m_window->document()->workspace();
    m_result = ExerciseChecker::check(m_targetSelection, exercise->start.op, m_checked);
    if (m_result->correct) {
        const QString error = m_progress.markSolved(exercise->name);
        if (!error.isEmpty()) m_window->showError(tr("Exercise progress not saved: %1").arg(error));
        rebuildProgress();
        emit solved(exercise->name);
    }
    showResult();
    if (m_window->isSettled()) applyMarks();
}

void ExercisePanel::say(QLabel* label, const QString& text)
{
    label->setText(text);
    const QString what = label->property("spokenAs").toString();
    const QString words = plainText(text);
    label->setAccessibleName(words.isEmpty() ? what : tr("%1: %2").arg(what, words));
    // The verdict is also Check's description, which a screen reader says while Check has the
    // focus (Qt 6.4 has no announcement event for a label that is not focused).
    if (label == m_resultText) m_check->setAccessibleDescription(words);
}

void ExercisePanel::showResult()
{
    if (!m_result) {
        say(m_resultText, m_index < 0 ? tr("Choose an exercise below.") : QString());
        m_resultText->setStyleSheet(QString());
        return;
    }
    if (m_result->correct) {
        say(m_resultText, tr("<b>Right.</b> Same shape, same cells, same order."));
        m_resultText->setStyleSheet(
            QStringLiteral("QLabel { color: %1; }").arg(styleColor(ColorRole::Success)));
        return;
    }
    QString text = tr("<b>Not yet.</b> %1").arg(m_result->hint.toHtmlEscaped());
    const std::size_t differ = m_result->differingOutputs.size();
    if (differ > 0 || !m_result->missingInputs.empty() || !m_result->extraInputs.empty())
        text += QStringLiteral("<br>") +
                tr("Marked in red: %1 output cells that differ, %2 input cells the target reads "
                   "and you do not, %3 you read and it does not.")
                    .arg(differ)
                    .arg(m_result->missingInputs.size())
                    .arg(m_result->extraInputs.size());
    say(m_resultText, text);
    m_resultText->setStyleSheet(
        QStringLiteral("QLabel { color: %1; }").arg(styleColor(ColorRole::Error)));
}

void ExercisePanel::applyMarks()
{
    if (!m_result || m_result->correct) {
        clearMarks();
        return;
    }
    if (TensorView* input = m_window->inputView(0)) {
        std::vector<std::int64_t> cells = m_result->missingInputs;
        cells.insert(cells.end(), m_result->extraInputs.begin(), m_result->extraInputs.end());
        input->setMarked(std::move(cells));
    }
    if (m_window->outputViewCount() > 0)
        m_window->outputView(0)->setMarked(m_result->differingOutputs);
    m_target->setMarked(m_result->missingInputs);
}

void ExercisePanel::clearMarks()
{
    if (TensorView* input = m_window->inputView(0)) input->setMarked({});
    for (int k = 0; k < m_window->outputViewCount(); ++k)
        m_window->outputView(k)->setMarked({});
    m_target->setMarked({});
}

void ExercisePanel::rebuildProgress()
{
    m_tree->clear();
    std::size_t done = 0, total = 0;
    const QString current = currentExercise();
    for (const ExerciseSet& set : exerciseSets()) {
        auto* top = new QTreeWidgetItem(m_tree);
        std::size_t solved = 0;
        for (const Exercise& exercise : set.exercises) {
            auto* item = new QTreeWidgetItem(top);
            item->setText(0, exercise.title);
            item->setData(0, Qt::UserRole, exercise.name);
            item->setToolTip(0, exercise.task);
            const bool ok = m_progress.isSolved(exercise.name);
            item->setText(1, ok ? tr("✓ solved") : QString());
            if (exercise.name == current) {
                QFont f = item->font(0);
                f.setBold(true);
                item->setFont(0, f);
                m_tree->setCurrentItem(item);
                top->setExpanded(true);
            }
            solved += ok ? 1 : 0;
        }
        top->setText(0, set.title);
        top->setText(1, tr("%1 / %2").arg(solved).arg(set.exercises.size()));
        done += solved;
        total += set.exercises.size();
    }
    say(m_count, tr("Solved %1 of %2 exercises.").arg(done).arg(total));
}

} // namespace ss::ui
