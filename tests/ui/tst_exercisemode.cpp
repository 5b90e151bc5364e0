// SPDX-License-Identifier: GPL-3.0-or-later
// The exercise dock as a student uses it: Lessons > Exercises opens the first exercise, a wrong
// answer gets a hint and red marks on the cells that differ, a right one is ticked, and the ticks
// survive a restart. Leaves screenshots of the three screens in exercise-screenshots/.
#include "ui/model/exerciseprogress.h"
#include "ui/views/palette.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/commandline.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QTreeWidget>

using namespace ss;
using namespace ss::ui;
using ss::testing::getitemWorkspace;
using ss::testing::waitSettled;

class TestExerciseMode : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void wrongThenRightAnswer();
    void progressSurvivesARestart();
    void nextAndStartOver();
    void commandLineOpensAnExercise();
    void closingAfterARestartBringsTheLessonsBack();
    void openingALessonLeavesTheExercise();
    void unreadableProgressIsShownInTheWindow();

private:
    void shot(QWidget& w, const QString& name);
};

void TestExerciseMode::initTestCase()
{
    ss::testing::useCleanTestEnvironment();
    applyTheme(*qApp, Theme::Light);
    QFile::remove(ExerciseProgress::defaultPath());
    QDir().mkpath(QStringLiteral("exercise-screenshots"));
}

void TestExerciseMode::shot(QWidget& w, const QString& name)
{
    QVERIFY(w.grab().save(QStringLiteral("exercise-screenshots/%1.png").arg(name)));
}

namespace {

int markedCount(const TensorModel& model)
{
    int n = 0;
    for (std::int64_t i = 0; i < model.tensor().size(); ++i)
        n += model.data(model.indexOfFlat(i), TensorModel::MarkedRole).toBool() ? 1 : 0;
    return n;
}

} // namespace

void TestExerciseMode::wrongThenRightAnswer()
{
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    QVERIFY(waitSettled(w));
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("exerciseDock"));
    QVERIFY(dock && !dock->isVisible());
    w.findChild<QAction*>(QStringLiteral("actionExercises"))->trigger();
    QVERIFY(dock->isVisible());
    ExercisePanel* panel = w.docks()->exercises();
    // The first unsolved exercise opens: row 2 of a 4x5 matrix, as a vector.
    QCOMPARE(panel->currentExercise(), QStringLiteral("row-two"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().op, std::string("getitem"));
    auto* target = panel->findChild<QLabel*>(QStringLiteral("exerciseTargetShape"));
    QVERIFY2(target->text().contains(QStringLiteral("(5,)")), qPrintable(target->text()));
    // The target view lights row 2 of the input, in order.
    QCOMPARE(panel->targetView()->model()->readOrderAt(10), std::int64_t(0));
    QCOMPARE(panel->targetView()->model()->readOrderAt(14), std::int64_t(4));
    QCOMPARE(panel->targetView()->model()->readOrderAt(0), std::int64_t(-1));

    // A wrong answer: x[1:3] (two rows, rank 2). The hint names the rank; the cells differ.
    w.setWorkspace(getitemWorkspace({4, 5}, QStringLiteral("x[1:3]")), QStringLiteral("answer"));
    QVERIFY(waitSettled(w));
    panel->findChild<QPushButton*>(QStringLiteral("exerciseCheck"))->click();
    QVERIFY(panel->lastResult() && !panel->lastResult()->correct);
    auto* result = panel->findChild<QLabel*>(QStringLiteral("exerciseResult"));
    QVERIFY2(result->text().contains(QStringLiteral("an index removes an axis")),
             qPrintable(result->text()));
    QVERIFY(waitSettled(w));
    // Row 1 is read and should not be: five input cells marked; all ten output cells differ.
    QCOMPARE(markedCount(*w.inputView(0)->model()), 5);
    QVERIFY(w.inputView(0)->model()->isMarked(5) && !w.inputView(0)->model()->isMarked(10));
    QCOMPARE(markedCount(*w.outputView(0)->model()), 10);
    QVERIFY(!panel->progress().isSolved(QStringLiteral("row-two")));
    shot(w, QStringLiteral("wrong-answer"));

    // An edit clears the marks and the verdict once its result is shown.
    w.setWorkspace(getitemWorkspace({4, 5}, QStringLiteral("x[2]")), QStringLiteral("answer"));
    QVERIFY(waitSettled(w));
    QVERIFY(!panel->lastResult());
    QCOMPARE(markedCount(*w.inputView(0)->model()), 0);
    panel->findChild<QPushButton*>(QStringLiteral("exerciseCheck"))->click();
    QVERIFY(panel->lastResult() && panel->lastResult()->correct);
    QVERIFY(result->text().contains(QStringLiteral("Right")));
    QCOMPARE(markedCount(*w.outputView(0)->model()), 0);
    QVERIFY(panel->progress().isSolved(QStringLiteral("row-two")));
    QVERIFY(QFile::exists(ExerciseProgress::defaultPath()));
    shot(w, QStringLiteral("right-answer"));

    // The exercises took the lessons' place; closing them gives it back.
    auto* lessons = w.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
    QVERIFY(!lessons->isVisible());
    w.findChild<QAction*>(QStringLiteral("actionExercises"))->trigger();
    QVERIFY(!dock->isVisible() && lessons->isVisible());
}

void TestExerciseMode::progressSurvivesARestart()
{
    // A new window (as after a restart) reads the progress file: the set shows 1 / 7 and the
    // exercise is ticked; showing the dock opens the first unsolved exercise.
    MainWindow w;
    w.resize(1500, 950);
    w.show();
    ExercisePanel* panel = w.docks()->exercises();
    QVERIFY(panel->progress().isSolved(QStringLiteral("row-two")));
    auto* tree = panel->findChild<QTreeWidget*>(QStringLiteral("exerciseProgress"));
    QVERIFY(tree->topLevelItemCount() >= 7);
    QCOMPARE(tree->topLevelItem(0)->text(1), QStringLiteral("1 / 7"));
    QVERIFY(tree->topLevelItem(0)->child(0)->text(1).contains(QStringLiteral("solved")));
    QVERIFY(tree->topLevelItem(0)->child(1)->text(1).isEmpty());
    w.findChild<QAction*>(QStringLiteral("actionExercises"))->trigger();
    QCOMPARE(panel->currentExercise(), QStringLiteral("column-one"));
    QVERIFY(waitSettled(w));
    auto* count = panel->findChild<QLabel*>(QStringLiteral("exerciseCount"));
    QVERIFY2(count->text().startsWith(QStringLiteral("Solved 1 of")), qPrintable(count->text()));
    // The progress view: every set expanded for the picture.
    tree->expandAll();
    shot(w, QStringLiteral("progress-view"));
}

void TestExerciseMode::nextAndStartOver()
{
    MainWindow w;
    w.show();
    ExercisePanel* panel = w.docks()->exercises();
    QVERIFY(panel->openExercise(QStringLiteral("slice-block")));
    QVERIFY(!panel->openExercise(QStringLiteral("no-such-exercise")));
    QCOMPARE(w.workspace().op, std::string("slice"));
    panel->findChild<QPushButton*>(QStringLiteral("exerciseNext"))->click();
    QCOMPARE(panel->currentExercise(), QStringLiteral("slice-last-row"));
    panel->findChild<QPushButton*>(QStringLiteral("exercisePrevious"))->click();
    QCOMPARE(panel->currentExercise(), QStringLiteral("slice-block"));
    // From the keyboard: Enter presses the focused button, like Space (a student tabs to Next).
    auto* next = panel->findChild<QPushButton*>(QStringLiteral("exerciseNext"));
    next->setFocus(Qt::TabFocusReason);
    QTest::keyClick(next, Qt::Key_Return);
    QCOMPARE(panel->currentExercise(), QStringLiteral("slice-last-row"));
    QTest::keyClick(panel->findChild<QPushButton*>(QStringLiteral("exercisePrevious")),
                    Qt::Key_Enter);
    QCOMPARE(panel->currentExercise(), QStringLiteral("slice-block"));
    // A wrong op is refused with a hint that names the exercise's op.
    w.setWorkspace(getitemWorkspace({4, 5}, QStringLiteral("x[1:3, 2:5]")), QStringLiteral("op"));
    panel->check();
    QVERIFY(panel->lastResult() && !panel->lastResult()->correct);
    QVERIFY(panel->lastResult()->hint.contains(QStringLiteral("slice")));
    // Start Over brings back the exercise's own workspace.
    panel->findChild<QPushButton*>(QStringLiteral("exerciseRestart"))->click();
    QCOMPARE(w.workspace(), findExercise(QStringLiteral("slice-block"))->start);
    QVERIFY(waitSettled(w));
}

void TestExerciseMode::commandLineOpensAnExercise()
{
    MainWindow w;
    StartOptions options;
    options.exercise = QStringLiteral("paddle-reverse-columns");
    QString error;
    QVERIFY2(applyStartOptions(w, options, &error), qPrintable(error));
    QCOMPARE(w.docks()->exercises()->currentExercise(), QStringLiteral("paddle-reverse-columns"));
    QCOMPARE(w.workspace().op, std::string("paddle_strided_slice"));
    QVERIFY(w.findChild<QAction*>(QStringLiteral("actionExercises"))->isChecked());
    // The dock itself is shown, not only its menu item checked.
    QVERIFY(!w.findChild<QDockWidget*>(QStringLiteral("exerciseDock"))->isHidden());
    QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isHidden());
    MainWindow other;
    options.exercise = QStringLiteral("nope");
    QVERIFY(!applyStartOptions(other, options, &error));
    QVERIFY2(error.contains(QStringLiteral("no exercise \"nope\"")) &&
                 error.contains(QStringLiteral("row-two")),
             qPrintable(error));
}

void TestExerciseMode::closingAfterARestartBringsTheLessonsBack()
{
    // The exercises took the lessons' place and the window closed with them open; in the next
    // session, closing the exercises must give the lessons their place back all the same.
    {
        MainWindow w;
        w.forgetSession();
        w.files()->setSavePrompt([](const QString&) { return MainWindow::SaveChoice::Discard; });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isVisible());
        w.findChild<QAction*>(QStringLiteral("actionExercises"))->trigger();
        QVERIFY(!w.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isVisible());
        QVERIFY(w.close());
    }
    MainWindow next;
    next.forgetSession();
    next.restoreWindowState();
    next.show();
    QVERIFY(QTest::qWaitForWindowExposed(&next));
    auto* exercises = next.findChild<QDockWidget*>(QStringLiteral("exerciseDock"));
    auto* lessons = next.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
    QVERIFY(exercises->isVisible() && !lessons->isVisible());
    next.findChild<QAction*>(QStringLiteral("actionExercises"))->trigger();
    QVERIFY(!exercises->isVisible());
    QVERIFY(lessons->isVisible());
    // Lessons closed by hand before the exercises opened stay closed when they close.
    lessons->close();
    next.findChild<QAction*>(QStringLiteral("actionExercises"))->trigger();
    QVERIFY(exercises->isVisible());
    next.findChild<QAction*>(QStringLiteral("actionExercises"))->trigger();
    QVERIFY(!lessons->isVisible());
}

void TestExerciseMode::openingALessonLeavesTheExercise()
{
    // A lesson (or a file) opened while an exercise is open is not an answer to it: the panel
    // no longer shows the exercise, and Check has nothing to compare the lesson with.
    MainWindow w;
    w.show();
    ExercisePanel* panel = w.docks()->exercises();
    auto* check = panel->findChild<QPushButton*>(QStringLiteral("exerciseCheck"));
    QVERIFY(panel->openExercise(QStringLiteral("row-two")));
    QVERIFY(waitSettled(w));
    // An edit is an answer: the exercise stays.
    w.setWorkspace(getitemWorkspace({4, 5}, QStringLiteral("x[1]")), QStringLiteral("answer"));
    panel->check();
    QVERIFY(panel->lastResult() && !panel->lastResult()->correct);
    QCOMPARE(panel->currentExercise(), QStringLiteral("row-two"));
    QVERIFY(waitSettled(w));
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    QVERIFY(waitSettled(w));
    QVERIFY(panel->currentExercise().isEmpty());
    QVERIFY(!panel->lastResult());
    QVERIFY(!check->isEnabled());
    QVERIFY(panel->findChild<QLabel*>(QStringLiteral("exerciseTitle"))->text().isEmpty());
    QCOMPARE(panel->findChild<QLabel*>(QStringLiteral("exerciseResult"))->text(),
             QStringLiteral("Choose an exercise below."));
    QCOMPARE(panel->targetView()->model()->tensor().size(), 0);
    QCOMPARE(markedCount(*w.outputView(0)->model()), 0);
    panel->check(); // nothing open: nothing to check
    QVERIFY(!panel->lastResult());
    // Next starts from the first exercise again.
    panel->findChild<QPushButton*>(QStringLiteral("exerciseNext"))->click();
    QCOMPARE(panel->currentExercise(), QStringLiteral("row-two"));
}

// Issue 26: a corrupt progress file was reported on stderr only, then replaced. The window says
// it did not read and where it was kept; solving starts a new file and the old one stays.
void TestExerciseMode::unreadableProgressIsShownInTheWindow()
{
    const QString path = ExerciseProgress::defaultPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    for (const QString& old : QDir(QFileInfo(path).absolutePath())
                                  .entryList({QStringLiteral("exercise-progress.json*")}))
        QFile::remove(QFileInfo(path).absolutePath() + u'/' + old);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"solved\": [\"row-tw");
    file.close();
    MainWindow w;
    w.show();
    const QString aside = path + QStringLiteral(".unreadable-1");
    QVERIFY2(w.message().contains(QStringLiteral("does not read")) && w.message().contains(aside),
             qPrintable(w.message()));
    auto* label = w.docks()->exercises()->findChild<QLabel*>(QStringLiteral("exerciseProblems"));
    QVERIFY(label);
    QVERIFY2(label->text().contains(aside), qPrintable(label->text()));
    QVERIFY(QFileInfo::exists(aside));
    QFile kept(aside);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("{\"solved\": [\"row-tw"));
    QVERIFY(!QFileInfo::exists(path));
    QFile::remove(aside);
}

QTEST_MAIN(TestExerciseMode)
#include "tst_exercisemode.moc"
