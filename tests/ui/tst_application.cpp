// SPDX-License-Identifier: GPL-3.0-or-later
// The last-resort guard: an exception that escapes an event handler or a slot (issue 25: an
// OpError out of a view ended the GUI with SIGABRT) is shown in the window, which stays up and
// goes on working.
#include "core/error.h"
#include "ui/workbench/application.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QSettings>
#include <QTest>
#include <QTimer>

using namespace ss;
using namespace ss::ui;

class TestApplication : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void settingsAreTheBuildFoldersOwn();
    void anEscapedExceptionIsShownInTheWindow_data();
    void anEscapedExceptionIsShownInTheWindow();
};

// The same suite built in two folders, run at once, keeps its settings apart (~/.qttest was
// shared: one run's dark theme made another's lesson screenshots dark).
void TestApplication::settingsAreTheBuildFoldersOwn()
{
    const QString file = QSettings().fileName();
    const QString here = QCoreApplication::applicationDirPath();
    QVERIFY2(file.contains(ss::testing::testOrganization(here)), qPrintable(file));
    QVERIFY(ss::testing::testOrganization(QStringLiteral("/w/a/build/tests/ui")) !=
            ss::testing::testOrganization(QStringLiteral("/w/b/build/tests/ui")));
    QVERIFY2(file.contains(QStringLiteral("/.qttest/")), qPrintable(file));
}

void TestApplication::anEscapedExceptionIsShownInTheWindow_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("shown");
    QTest::newRow("OpError") << 0 << "the element count of shape [4294967296,4294967296,0]";
    QTest::newRow("bad_alloc") << 1 << "out of memory";
    QTest::newRow("not an exception class") << 2 << "an unknown exception";
}

void TestApplication::anEscapedExceptionIsShownInTheWindow()
{
    QFETCH(int, kind);
    QFETCH(QString, shown);
    MainWindow w;
    w.show();
    QVERIFY(ss::testing::waitSettled(w));
    QTimer::singleShot(0, &w, [kind] {
        if (kind == 0)
            throw OpError(ErrorCode::ResourceExhausted,
                          "the element count of shape [4294967296,4294967296,0] does not fit");
        if (kind == 1) throw std::bad_alloc();
        throw 42;
    });
    QTRY_VERIFY2(w.message().contains(shown), qPrintable(w.message()));
    QVERIFY(w.message().contains(QStringLiteral("Internal error")));
    QVERIFY(w.isVisible());
    // The window goes on: an edit is evaluated and shown.
    w.setWorkspace(ss::testing::getitemWorkspace({3, 4}, QStringLiteral("x[1]")),
                   QStringLiteral("edit"));
    QVERIFY(ss::testing::waitSettled(w));
    QVERIFY(w.lastEvaluation() && w.lastEvaluation()->ok);
}

// The guard is the application object itself, as the slicescope executable makes it.
int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    Application app(argc, argv);
    TestApplication test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_application.moc"
