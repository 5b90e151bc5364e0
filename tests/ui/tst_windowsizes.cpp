// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's layout on small and large screens (issue 22, item 6): 1024 x 700, 1440 x 900,
// and 2880 x 1800 at QT_SCALE_FACTOR=2 (1440 x 900 logical). Each screen runs in a process of its
// own (the scale factor and the screen are fixed when the application starts) on an offscreen
// screen of that size, and checks geometry, not pixels: the first lesson's text shown whole,
// combo boxes as wide as their text with the Lessons and Frameworks docks open together, the
// lessons coming back at their own width when the exercises close. With SLICESCOPE_SHOTS set,
// each child saves screenshots there (light and dark: the lesson, the exercises, presentation).
#include "ui/workbench/docksetup.h"
#include "ui/workbench/mainactions.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/presentationmode.h"
#include "workbench_testing.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QProcess>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

namespace {

const char* const kScreenVariable = "SLICESCOPE_TEST_SCREEN";
const char* const kShotsVariable = "SLICESCOPE_SHOTS";

struct Problems
{
    QString screen;
    int count = 0;
    void operator()(const QString& what)
    {
        std::fprintf(stderr, "%s: %s\n", qPrintable(screen), qPrintable(what));
        ++count;
    }
};

void settle(MainWindow& w, Problems& fail, const QString& what)
{
    if (!waitSettled(w)) fail(what + QStringLiteral(": never settled"));
    // The layouts that follow a new result, a shown dock or a new size.
    for (int k = 0; k < 3; ++k)
        QCoreApplication::processEvents();
}

/// The lesson's explanation is shown whole: no scrolling, and room for every line.
void checkLessonText(MainWindow& w, Problems& fail, const QString& what)
{
    auto* scroll = w.findChild<QScrollArea*>(QStringLiteral("lessonTextScroll"));
    auto* text = w.findChild<QLabel*>(QStringLiteral("lessonText"));
    if (!scroll || !text || !scroll->isVisibleTo(&w)) {
        fail(what + QStringLiteral(": no lesson text shown"));
        return;
    }
    const int needed = text->heightForWidth(scroll->viewport()->width());
    if (scroll->verticalScrollBar()->maximum() > 0 || scroll->viewport()->height() < needed)
        fail(what + QStringLiteral(": the lesson text is cut (%1 of %2 px shown)")
                        .arg(scroll->viewport()->height())
                        .arg(needed));
}

/// No combo box of the editors or views shows its text cut ("ar" for "arange"); the window fits
/// the screen's width, and the editors and views keep at least 45% of it beside the docks.
void checkCombos(MainWindow& w, Problems& fail, const QString& what)
{
    if (w.centralWidget()->width() * 100 < w.width() * 45)
        fail(what + QStringLiteral(": the centre is %1 px of %2")
                        .arg(w.centralWidget()->width())
                        .arg(w.width()));
    if (w.width() > w.screen()->availableGeometry().width())
        fail(what + QStringLiteral(": the window grew to %1 px wide").arg(w.width()));
    for (QComboBox* box : w.centralWidget()->findChildren<QComboBox*>()) {
        if (!box->isVisibleTo(&w) || box->currentText().isEmpty()) continue;
        QStyleOptionComboBox option;
        option.initFrom(box);
        option.editable = box->isEditable();
        option.currentText = box->currentText();
        const QRect field = box->style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                         QStyle::SC_ComboBoxEditField, box);
        const int needed = box->fontMetrics().horizontalAdvance(box->currentText());
        if (field.width() < needed)
            fail(what + QStringLiteral(": combo box %1 shows \"%2\" in %3 px, it needs %4")
                            .arg(box->objectName(), box->currentText())
                            .arg(field.width())
                            .arg(needed));
    }
}

void shoot(MainWindow& w, Problems& fail, const QString& what)
{
    const QString dir = qEnvironmentVariable(kShotsVariable);
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    const QString file = QStringLiteral("%1/%2-%3.png").arg(dir, fail.screen, what);
    if (!w.grab().save(file)) fail(QStringLiteral("cannot write ") + file);
}

// Runs in the child process: the window on this screen. Returns the number of problems.
int checkScreen(const QString& name)
{
    Problems fail{name};
    useCleanTestEnvironment();
    MainWindow w;
    w.forgetSession();
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) fail(QStringLiteral("the window is never shown"));
    w.setGeometry(w.screen()->availableGeometry());
    DockSetup* docks = w.docks();
    QAction* dark = w.findChild<QAction*>(QStringLiteral("actionDarkTheme"));
    for (const bool darkTheme : {false, true}) {
        const QString theme = darkTheme ? QStringLiteral("dark") : QStringLiteral("light");
        if (dark && dark->isChecked() != darkTheme) dark->trigger();
        if (!w.openLesson(QStringLiteral("walkthrough"))) fail(QStringLiteral("no walkthrough"));
        settle(w, fail, QStringLiteral("walkthrough"));
        checkLessonText(w, fail, QStringLiteral("walkthrough"));
        checkCombos(w, fail, QStringLiteral("walkthrough"));
        shoot(w, fail, QStringLiteral("lesson-") + theme);

        // Lessons and Frameworks together: the centre keeps room for its controls.
        docks->frameworksDock()->toggleViewAction()->trigger();
        settle(w, fail, QStringLiteral("frameworks"));
        checkCombos(w, fail, QStringLiteral("lessons and frameworks"));
        checkLessonText(w, fail, QStringLiteral("lessons and frameworks"));
        shoot(w, fail, QStringLiteral("frameworks-") + theme);
        docks->frameworksDock()->toggleViewAction()->trigger();
        settle(w, fail, QStringLiteral("frameworks closed"));

        // The exercises take the lessons' place; closed, the lessons come back as they were.
        const int lessonsWidth = docks->lessonDock()->width();
        docks->exerciseDock()->toggleViewAction()->trigger();
        settle(w, fail, QStringLiteral("exercises"));
        checkCombos(w, fail, QStringLiteral("exercises"));
        shoot(w, fail, QStringLiteral("exercises-") + theme);
        docks->exerciseDock()->toggleViewAction()->trigger();
        settle(w, fail, QStringLiteral("exercises closed"));
        if (std::abs(docks->lessonDock()->width() - lessonsWidth) > 8)
            fail(QStringLiteral("the lessons came back %1 px wide, not %2")
                     .arg(docks->lessonDock()->width())
                     .arg(lessonsWidth));

        // Presentation: large type, the lesson's text still whole.
        if (!w.openLesson(QStringLiteral("walkthrough"))) fail(QStringLiteral("no walkthrough"));
        w.presentation()->setOn(true);
        settle(w, fail, QStringLiteral("presentation"));
        checkLessonText(w, fail, QStringLiteral("presentation"));
        shoot(w, fail, QStringLiteral("presentation-") + theme);
        w.presentation()->setOn(false);
        settle(w, fail, QStringLiteral("presentation left"));
    }
    return fail.count;
}

} // namespace

class TestWindowSizes : public QObject
{
    Q_OBJECT
private slots:
    void layoutFits_data();
    void layoutFits();
};

void TestWindowSizes::layoutFits_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QString>("scale");
    QTest::newRow("1024x700") << QSize(1024, 700) << QStringLiteral("1");
    QTest::newRow("1440x900") << QSize(1440, 900) << QStringLiteral("1");
    QTest::newRow("2880x1800 at scale 2") << QSize(2880, 1800) << QStringLiteral("2");
}

void TestWindowSizes::layoutFits()
{
    QFETCH(QSize, screen);
    QFETCH(QString, scale);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": %1,
        "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                   .arg(screen.width())
                   .arg(screen.height())
                   .toUtf8());
    file.close();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=") + config);
    env.insert(QStringLiteral("QT_SCALE_FACTOR"), scale);
    env.insert(QLatin1String(kScreenVariable),
               QStringLiteral("%1x%2-scale%3").arg(screen.width()).arg(screen.height()).arg(scale));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForFinished(120000));
    const QByteArray out = child.readAllStandardOutput() + child.readAllStandardError();
    qInfo("%s", out.constData());
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, out.constData());
}

int main(int argc, char** argv)
{
    const QString name = qEnvironmentVariable(kScreenVariable);
    QApplication app(argc, argv);
    if (!name.isEmpty()) return checkScreen(name) == 0 ? 0 : 1;
    TestWindowSizes test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_windowsizes.moc"
