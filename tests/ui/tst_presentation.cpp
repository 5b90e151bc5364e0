// SPDX-License-Identifier: GPL-3.0-or-later
// View > Presentation (F5, --presentation): larger type and cells, docks, toolbar and status bar
// hidden, the expression and the decode step large; leaving restores the layout exactly.
// Screenshots of the mode go to screenshots/ in the build directory, for people to look at.
#include "ui/editors/speceditor.h"
#include "ui/workbench/commandline.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/presentationmode.h"
#include "workbench_testing.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QProcess>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

QString screenshotDir()
{
    return QStringLiteral(QT_TESTCASE_BUILDDIR "/screenshots");
}

/// Everything leaving the mode must put back.
struct Layout
{
    QRect geometry;
    std::map<QString, std::pair<bool, QRect>> docks;
    bool toolbar = false;
    bool statusBar = false;
    std::map<QString, QList<int>> splitters;
    qreal cellFont = 0;
    qreal exprFont = 0;
    bool centralFontSet = false;

    bool operator==(const Layout&) const = default;
};

Layout layoutOf(MainWindow& w)
{
    Layout l;
    l.geometry = w.geometry();
    for (QDockWidget* dock : w.findChildren<QDockWidget*>())
        // A hidden dock's geometry is not on screen (and Qt keeps no fixed one for it).
        l.docks[dock->objectName()] = {dock->isVisible(),
                                       dock->isVisible() ? dock->geometry() : QRect()};
    l.toolbar = w.findChild<QToolBar*>(QStringLiteral("mainToolBar"))->isVisible();
    l.statusBar = w.statusBar()->isVisible();
    for (QSplitter* s : w.findChildren<QSplitter*>())
        l.splitters[s->objectName()] = s->sizes();
    l.cellFont = w.inputView(0)->findChild<QWidget*>(QStringLiteral("canvas"))->font().pointSizeF();
    l.exprFont = w.specEditor()->font().pointSizeF();
    l.centralFontSet = w.centralWidget()->testAttribute(Qt::WA_SetFont);
    return l;
}

QString describe(const Layout& l)
{
    QString s = QStringLiteral("geometry %1,%2 %3x%4; ")
                    .arg(l.geometry.x())
                    .arg(l.geometry.y())
                    .arg(l.geometry.width())
                    .arg(l.geometry.height());
    for (const auto& [name, dock] : l.docks)
        s += QStringLiteral("%1 %2 %3x%4; ")
                 .arg(name)
                 .arg(dock.first)
                 .arg(dock.second.width())
                 .arg(dock.second.height());
    for (const auto& [name, sizes] : l.splitters) {
        s += name + u' ';
        for (int v : sizes)
            s += QString::number(v) + u',';
        s += QStringLiteral("; ");
    }
    return s + QStringLiteral("toolbar %1 status %2 font %3/%5 set %4")
                   .arg(l.toolbar)
                   .arg(l.statusBar)
                   .arg(l.cellFont)
                   .arg(l.centralFontSet)
                   .arg(l.exprFont);
}

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT
private slots:
    void init() { useCleanTestEnvironment(); }
    void entersAndRestoresExactly();
    void bannerFollowsTheExpressionAndTheSteps();
    void startOption();
    void closingRemembersTheLayoutOutsideIt();
    void editorsMadeWhilePresentingComeBackSmall();
    void startOptionGrowsTableHeaders();
    void openExerciseStaysShown();
    void escapeLeaves();
};

void TestPresentation::entersAndRestoresExactly()
{
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("t"));
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitSettled(w));
    QCoreApplication::processEvents();
    const Layout before = layoutOf(w);
    QVERIFY(before.toolbar && before.statusBar);

    auto* action = w.findChild<QAction*>(QStringLiteral("actionPresentation"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::Key_F5));
    QTest::keyClick(&w, Qt::Key_F5);
    QVERIFY(w.presentation()->isOn());
    QVERIFY(action->isChecked());
    QVERIFY(waitSettled(w));
    // The editors' fit is queued: wait until the type has grown.
    QTRY_VERIFY(layoutOf(w).cellFont >= before.cellFont * 1.4 &&
                layoutOf(w).exprFont >= before.exprFont * 1.4);
    const Layout shown = layoutOf(w);
    for (const auto& [name, dock] : shown.docks)
        QVERIFY2(!dock.first, qPrintable(name));
    QVERIFY(!shown.toolbar && !shown.statusBar);
    QVERIFY(w.presentation()->banner()->isVisible());
    QCOMPARE(w.presentation()->expressionText(), QStringLiteral("x[1:, ::-2]"));
    QVERIFY2(shown.cellFont >= before.cellFont * 1.4, qPrintable(describe(shown)));
    // The expression has a monospace font of its own: it grows too.
    QVERIFY(shown.exprFont >= before.exprFont * 1.4);
    // Larger type makes larger cells.
    TensorView* input = w.inputView(0);
    const int cellHeight = input->pictureRect(0).height();
    QDir().mkpath(screenshotDir());
    QVERIFY(w.grab().save(screenshotDir() + QStringLiteral("/presentation-getitem.png")));

    // The decode steps go on from the banner (their dock is hidden) and show large.
    w.stepper()->setCurrentStep(-1);
    auto* next =
        w.presentation()->banner()->findChild<QWidget*>(QStringLiteral("stepNextPresentation"));
    QVERIFY(next && next->isVisible());
    QTest::keyClick(&w, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(w.stepper()->currentStep(), 0);
    QVERIFY2(w.presentation()->stepText().startsWith(QStringLiteral("Step 1 of")),
             qPrintable(w.presentation()->stepText()));
    QVERIFY(w.grab().save(screenshotDir() + QStringLiteral("/presentation-step.png")));

    QTest::keyClick(&w, Qt::Key_F5);
    QVERIFY(!w.presentation()->isOn());
    QVERIFY(!w.presentation()->banner()->isVisible());
    QVERIFY(waitSettled(w));
    // The queued fit of the editors puts every size back.
    QTRY_VERIFY(layoutOf(w) == before);
    const Layout after = layoutOf(w);
    QVERIFY2(after == before,
             qPrintable(describe(before) + QStringLiteral("\n") + describe(after)));
    QVERIFY(input->pictureRect(0).height() < cellHeight);
}

void TestPresentation::bannerFollowsTheExpressionAndTheSteps()
{
    MainWindow w;
    w.forgetSession();
    w.resize(1440, 900);
    w.show();
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    QVERIFY(waitSettled(w));
    w.presentation()->setOn(true);
    const QString expr = w.presentation()->expressionText();
    QVERIFY2(expr.startsWith(QStringLiteral("x[")), qPrintable(expr));
    QVERIFY2(w.presentation()->stepText().contains(QStringLiteral("decode step")),
             qPrintable(w.presentation()->stepText()));
    w.setWorkspace(getitemWorkspace({5}, QStringLiteral("x[::-1]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.presentation()->expressionText(), QStringLiteral("x[::-1]"));
    w.stepper()->last();
    QVERIFY(w.presentation()->stepText().startsWith(
        QStringLiteral("Step %1 of %1").arg(w.stepper()->stepCount())));
    // Another op shows its call.
    w.setWorkspace(switchOp(w.workspace(), *findOp("tile")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QVERIFY2(w.presentation()->expressionText().startsWith(QStringLiteral("tile(")),
             qPrintable(w.presentation()->expressionText()));
    QDir().mkpath(screenshotDir());
    QVERIFY(w.grab().save(screenshotDir() + QStringLiteral("/presentation-tile.png")));
}

void TestPresentation::startOption()
{
    // In process: prepareWindow turns it on.
    {
        MainWindow w;
        StartOptions options;
        options.lesson = QStringLiteral("walkthrough");
        options.screenshot = QStringLiteral("unused.png"); // no session of its own
        options.presentation = true;
        QString error;
        QVERIFY2(prepareWindow(w, options, &error), qPrintable(error));
        QVERIFY(w.presentation()->isOn());
    }
    // And from the command line, with a screenshot of it for people to look at.
    QTemporaryDir home;
    QProcess slicescope;
    slicescope.setProcessEnvironment(newUserEnvironment(home.path()));
    const QString shot = screenshotDir() + QStringLiteral("/presentation-cli.png");
    QDir().mkpath(screenshotDir());
    QFile::remove(shot);
    slicescope.start(QStringLiteral(SLICESCOPE_GUI_EXE),
                     {QStringLiteral("--presentation"), QStringLiteral("--lesson"),
                      QStringLiteral("rows-and-steps"), QStringLiteral("--screenshot"), shot});
    QVERIFY(slicescope.waitForFinished(60000));
    QVERIFY2(slicescope.exitCode() == 0, slicescope.readAllStandardError().constData());
    QCOMPARE(QImage(shot).size(), QSize(1440, 900));
}

void TestPresentation::closingRemembersTheLayoutOutsideIt()
{
    {
        MainWindow w;
        w.forgetSession();
        w.files()->setSavePrompt([](const QString&) { return MainWindow::SaveChoice::Discard; });
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.presentation()->setOn(true);
        QVERIFY(w.close());
    }
    MainWindow next;
    next.forgetSession();
    next.restoreWindowState();
    next.show();
    QVERIFY(QTest::qWaitForWindowExposed(&next));
    for (const char* name : {"lessonDock", "decodeDock"})
        QVERIFY2(next.findChild<QDockWidget*>(QLatin1String(name))->isVisible(), name);
    QVERIFY(next.findChild<QToolBar*>(QStringLiteral("mainToolBar"))->isVisible());
    QVERIFY(!next.presentation()->isOn());
}

void TestPresentation::editorsMadeWhilePresentingComeBackSmall()
{
    // Switching the op while presenting (or opening a lesson or exercise of another op) makes
    // new editors, whose own fonts (the expression's monospace) start from the larger type;
    // leaving must shrink them too, not leave a presentation-size expression behind.
    MainWindow w;
    w.forgetSession();
    const Workspace getitem = getitemWorkspace({4, 6}, QStringLiteral("x[1:, ::-2]"));
    w.setWorkspace(getitem, QStringLiteral("t"));
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitSettled(w));
    const qreal exprFont = w.specEditor()->font().pointSizeF();
    w.presentation()->setOn(true);
    w.setWorkspace(exampleWorkspace(*findOp("gather")), QStringLiteral("another op"));
    QVERIFY(waitSettled(w));
    w.setWorkspace(getitem, QStringLiteral("back"));
    QVERIFY(waitSettled(w));
    QVERIFY(w.specEditor()->font().pointSizeF() >= exprFont * 1.4);
    w.presentation()->setOn(false);
    QCOMPARE(w.specEditor()->font().pointSizeF(), exprFont);
}

void TestPresentation::startOptionGrowsTableHeaders()
{
    // --presentation turns the mode on before the window is first shown: the raw table's
    // headers must be presentation size like its cells, not the normal size.
    MainWindow w;
    StartOptions options;
    options.expr = QStringLiteral("x[1:, ::-2]");
    options.screenshot = QStringLiteral("unused.png"); // no session of its own
    options.presentation = true;
    QString error;
    QVERIFY2(prepareWindow(w, options, &error), qPrintable(error));
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitSettled(w));
    auto* table = w.findChild<QTableView*>(QStringLiteral("rawArgsTable"));
    QVERIFY(table && table->isVisible());
    const qreal cells = table->font().pointSizeF();
    QVERIFY(cells >= QApplication::font().pointSizeF() * 1.4);
    QCOMPARE(table->horizontalHeader()->font().pointSizeF(), cells);
    QCOMPARE(table->verticalHeader()->font().pointSizeF(), cells);
    // So must a table made while presenting (another op's editor).
    w.setWorkspace(exampleWorkspace(*findOp("strided_slice")), QStringLiteral("another op"));
    QVERIFY(waitSettled(w));
    QCoreApplication::processEvents(); // the old editor goes
    table = w.findChild<QTableView*>(QStringLiteral("rawArgsTable"));
    QVERIFY(table && table->isVisible());
    QCOMPARE(table->horizontalHeader()->font().pointSizeF(), cells);
}

void TestPresentation::escapeLeaves()
{
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({4, 6}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("t"));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitSettled(w));
    // From the expression field (where a presenter types) and from a view (where one points).
    for (QWidget* focus : {static_cast<QWidget*>(w.specEditor()), w.inputView(0)->viewport()}) {
        w.activateWindow();
        focus->setFocus();
        QTest::keyClick(&w, Qt::Key_F5);
        QVERIFY(w.presentation()->isOn());
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : focus,
                        Qt::Key_Escape);
        QVERIFY2(!w.presentation()->isOn(), qPrintable(focus->metaObject()->className()));
        QVERIFY(!w.findChild<QAction*>(QStringLiteral("actionPresentation"))->isChecked());
    }
    // Not presenting, Escape does nothing to it (and the expression keeps its text).
    w.specEditor()->setFocus();
    QTest::keyClick(w.specEditor(), Qt::Key_Escape);
    QVERIFY(!w.presentation()->isOn());
    QCOMPARE(w.specEditor()->text(), QStringLiteral("x[1:, ::-2]"));
}

void TestPresentation::openExerciseStaysShown()
{
    // --presentation --exercise NAME: the exercise is the task, its target must be on screen.
    MainWindow w;
    StartOptions options;
    options.exercise = QStringLiteral("row-two");
    options.screenshot = QStringLiteral("unused.png"); // no session of its own
    options.presentation = true;
    QString error;
    QVERIFY2(prepareWindow(w, options, &error), qPrintable(error));
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(waitSettled(w));
    QVERIFY(w.presentation()->isOn());
    QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("exerciseDock"))->isVisible());
    QVERIFY(w.docks()->exercises()->targetView()->isVisible());
    for (const char* name : {"lessonDock", "decodeDock"})
        QVERIFY2(!w.findChild<QDockWidget*>(QLatin1String(name))->isVisible(), name);
    QDir().mkpath(screenshotDir());
    QVERIFY(w.grab().save(screenshotDir() + QStringLiteral("/presentation-exercise.png")));
}

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
