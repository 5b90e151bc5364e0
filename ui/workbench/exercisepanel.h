// SPDX-License-Identifier: GPL-3.0-or-later
// The exercise dock: the task, the target (the input with the cells to select coloured in read
// order, and the output shape), Check, the result or a hint, previous/next, and the progress
// (every set, done/total, which exercises are solved). The student answers in the workbench's own
// editors; Check compares the window's workspace with the target (ExerciseChecker) and marks the
// cells that differ in the window's first input and output views.
//
// For screen readers every text label is named by what it is and what it says ("Task: Take
// rows 1 and 2"), so a name changes with the text and Qt sends NameChanged. Qt 6.4 has no live
// region or announcement event, so the texts a button press changes are also that button's
// accessible description: a screen reader says a changed description of the focused control
// (Check says the verdict; Previous, Next and Start Over say the exercise now open).
#pragma once

#include "ui/model/exercisechecker.h"
#include "ui/model/exerciseprogress.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace ss::ui {

class MainWindow;
class TensorView;

class ExercisePanel : public QWidget
{
    Q_OBJECT
public:
    /// `progressPath` empty: ExerciseProgress::defaultPath().
    explicit ExercisePanel(MainWindow* window, const QString& progressPath = {},
                           QWidget* parent = nullptr);

    /// Opens the exercise (its starting workspace becomes the window's, as one undo step);
    /// false if there is none of that name.
    bool openExercise(const QString& name);
    QString currentExercise() const;
    /// Checks the window's workspace against the open exercise's target.
    void check();
    /// The last check's result (std::nullopt before the first, and after an edit).
    const std::optional<CheckResult>& lastResult() const { return m_result; }
    const ExerciseProgress& progress() const { return m_progress; }
    TensorView* targetView() const { return m_target; }
    /// What did not read (exercise sets, the progress file), as the panel shows it; "" if all did.
    QString problems() const;

signals:
    /// A check found the answer right (after the progress was saved).
    void solved(const QString& name);

private:
    void step(int delta);
    /// No exercise open: the panel invites a choice and Check is off.
    void showNoExercise();
    void showResult();
    void applyMarks();
    void clearMarks();
    void rebuildProgress();
    /// Sets a label's text and its accessible name ("Task: ..."), as the header says.
    void say(QLabel* label, const QString& text);

    MainWindow* m_window;
    ExerciseProgress m_progress;
    int m_index = -1; ///< into the flat list of all exercises
    Selection m_targetSelection;
    std::optional<CheckResult> m_result;
    Workspace m_checked; ///< the workspace m_result is about
    QLabel* m_heading;
    QLabel* m_title;
    QLabel* m_task;
    TensorView* m_target;
    QLabel* m_targetShape;
    QPushButton* m_check;
    QPushButton* m_previous;
    QPushButton* m_next;
    QPushButton* m_restart;
    QLabel* m_resultText;
    QLabel* m_count;
    QLabel* m_problems; ///< exercise sets or progress that did not read
    QTreeWidget* m_tree;
};

} // namespace ss::ui
