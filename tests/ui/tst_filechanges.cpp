// SPDX-License-Identifier: GPL-3.0-or-later
// The window's file changed on disk by another window or program: noticed on focus and before
// saving; followed where the window has nothing unsaved, else answered by reload, overwrite or
// save as (or an error for the automation channel);
// Save with nothing to save writes nothing; the save dialog opens where the last file was.

// protocol/request.h (through automation_testing.h's json) is fine after Qt here: it is not
// included.
#include "automation_testing.h"
#include "ui/model/filestamp.h"
#include "ui/model/workspacefile.h"
#include "ui/workbench/automation.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace ss;
using namespace ss::ui;
using ss::testing::getitemWorkspace;
using ss::testing::waitSettled;

Q_DECLARE_METATYPE(ss::ui::MainWindow::DiskChoice)

namespace {

QString exprOf(const Workspace& ws)
{
    const auto it = ws.attrs.find("expr");
    return it == ws.attrs.end() ? QString() : QString::fromStdString(it->second.toString());
}

QString exprOnDisk(const QString& path)
{
    return exprOf(readWorkspaceFile(path, Workspace{}, Limits{}));
}

/// A workspace file `w.slicescope.json` in `dir`, of a (3, 4) input and x[0].
QString workspaceFileIn(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("w.slicescope.json"));
    writeWorkspaceFile(path, getitemWorkspace({3, 4}, QStringLiteral("x[0]")));
    return path;
}

/// Answers the window's "File changed on disk" questions with `choice`, counting them.
void answerDiskPrompts(MainWindow& w, int& asked, MainWindow::DiskChoice choice)
{
    w.setDiskPrompt([&asked, choice](const QString&) {
        ++asked;
        return choice;
    });
}

} // namespace

class TestFileChanges : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void stampSeesBytesNotTimes();
    void saveAsksWhenAnotherWindowSaved_data();
    void saveAsksWhenAnotherWindowSaved();
    void focusNoticesAChangeOnce();
    void anUnreadableChangeIsAskedAbout();
    void saveWithoutChangesWritesNothing();
    void automationGetsAnErrorNotADialog();
    void saveDialogRemembersItsFolder();
};

void TestFileChanges::stampSeesBytesNotTimes()
{
    QTemporaryDir dir;
    const QString path = workspaceFileIn(dir);
    const FileStamp stamp = FileStamp::of(path);
    QVERIFY(stamp.exists());
    QCOMPARE(stamp.compare(path), FileStamp::Change::None);
    // Touched, same bytes: no change.
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(-3600),
                                 QFileDevice::FileModificationTime));
    }
    QCOMPARE(stamp.compare(path), FileStamp::Change::None);
    // Same size, other bytes, within the same millisecond as far as the clock tells: a change.
    writeWorkspaceFile(path, getitemWorkspace({3, 4}, QStringLiteral("x[1]")));
    QCOMPARE(stamp.compare(path), FileStamp::Change::Modified);
    QVERIFY(QFile::remove(path));
    QCOMPARE(stamp.compare(path), FileStamp::Change::Missing);
}

void TestFileChanges::saveAsksWhenAnotherWindowSaved_data()
{
    QTest::addColumn<MainWindow::DiskChoice>("choice");
    QTest::addColumn<bool>("saved");     // save() says the work is safe
    QTest::addColumn<QString>("onDisk"); // the shared file's expression afterwards
    QTest::addColumn<QString>("inA");    // window A's expression afterwards
    QTest::addColumn<QString>("other");  // what Save As wrote, if anything
    QTest::newRow("cancel") << MainWindow::DiskChoice::Cancel << false << QStringLiteral("x[1]")
                            << QStringLiteral("x[0]") << QString();
    QTest::newRow("overwrite") << MainWindow::DiskChoice::Overwrite << true
                               << QStringLiteral("x[0]") << QStringLiteral("x[0]") << QString();
    QTest::newRow("reload") << MainWindow::DiskChoice::Reload << true << QStringLiteral("x[1]")
                            << QStringLiteral("x[1]") << QString();
    QTest::newRow("save as") << MainWindow::DiskChoice::SaveAs << true << QStringLiteral("x[1]")
                             << QStringLiteral("x[0]") << QStringLiteral("x[0]");
}

// Open one workspace in two windows, save in B, then Save in the unmodified A: it reverted the
// file to A's version without a word.
void TestFileChanges::saveAsksWhenAnotherWindowSaved()
{
    QFETCH(MainWindow::DiskChoice, choice);
    QFETCH(bool, saved);
    QFETCH(QString, onDisk);
    QFETCH(QString, inA);
    QFETCH(QString, other);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("shared.slicescope.json"));
    const QString otherPath = dir.filePath(QStringLiteral("mine.slicescope.json"));
    writeWorkspaceFile(path, getitemWorkspace({3, 4}, QStringLiteral("x[0]")));
    MainWindow a;
    MainWindow b;
    a.forgetSession();
    b.forgetSession();
    QString error;
    QVERIFY2(a.openFile(path, &error), qPrintable(error));
    QVERIFY2(b.openFile(path, &error), qPrintable(error));
    b.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1]")), QStringLiteral("t"));
    QVERIFY(b.files()->save());
    QCOMPARE(exprOnDisk(path), QStringLiteral("x[1]"));

    QStringList asked;
    a.setDiskPrompt([&](const QString& text) {
        asked << text;
        return choice;
    });
    if (choice == MainWindow::DiskChoice::SaveAs)
        QTimer::singleShot(0, &a, [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->selectFile(otherPath);
            static_cast<QDialog*>(dialog)->accept();
        });
    QCOMPARE(a.files()->save(), saved);
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.front().contains(QStringLiteral("shared.slicescope.json")) &&
                 asked.front().contains(QStringLiteral("changed on disk")),
             qPrintable(asked.front()));
    QCOMPARE(exprOnDisk(path), onDisk);
    QCOMPARE(exprOf(a.workspace()), inA);
    QCOMPARE(QFile::exists(otherPath), !other.isEmpty());
    if (!other.isEmpty()) {
        QCOMPARE(exprOnDisk(otherPath), other);
        QCOMPARE(a.filePath(), QFileInfo(otherPath).absoluteFilePath());
    }
    if (!saved)
        QVERIFY2(a.message().contains(QStringLiteral("changed on disk")), qPrintable(a.message()));
    // Every Save asks again while the file differs from what A last read or wrote.
    if (choice == MainWindow::DiskChoice::Cancel) {
        QVERIFY(!a.files()->save());
        QCOMPARE(asked.size(), 2);
        QCOMPARE(exprOnDisk(path), QStringLiteral("x[1]"));
    }
}

void TestFileChanges::focusNoticesAChangeOnce()
{
    QTemporaryDir dir;
    const QString path = workspaceFileIn(dir);
    MainWindow w;
    w.forgetSession();
    int asked = 0;
    answerDiskPrompts(w, asked, MainWindow::DiskChoice::Reload);
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(waitSettled(w));
    QCOMPARE(asked, 0); // nothing changed

    // Another program writes the file while the user is elsewhere; coming back notices it. With
    // nothing unsaved the window follows the file without a question (it asked "this window's
    // version is lost?" of a version that was the file's own), and Undo brings back what it showed.
    QWidget elsewhere;
    elsewhere.show();
    elsewhere.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&elsewhere));
    writeWorkspaceFile(path, getitemWorkspace({3, 4}, QStringLiteral("x[2]")));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTRY_COMPARE(exprOf(w.workspace()), QStringLiteral("x[2]"));
    QCOMPARE(asked, 0);
    QVERIFY(w.undoStack()->isClean());
    QVERIFY2(w.message().contains(QStringLiteral("changed on disk")) &&
                 w.message().contains(QStringLiteral("Undo")),
             qPrintable(w.message()));
    w.undoStack()->undo();
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[0]"));
    QVERIFY(!w.undoStack()->isClean()); // not what the file holds
    w.undoStack()->redo();
    QVERIFY(w.undoStack()->isClean());

    // With unsaved changes the window asks, once per change.
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[3]")), QStringLiteral("t"));
    writeWorkspaceFile(path, getitemWorkspace({3, 4}, QStringLiteral("x[1]")));
    w.files()->checkFileOnDisk();
    QCOMPARE(asked, 1);
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[1]")); // reloaded
    QVERIFY(w.undoStack()->isClean());

    // Answered once per change: kept as it is (Cancel), focus asks no more until the next one.
    answerDiskPrompts(w, asked, MainWindow::DiskChoice::Cancel);
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[2]")), QStringLiteral("t"));
    writeWorkspaceFile(path, getitemWorkspace({3, 4}, QStringLiteral("x[0]")));
    w.files()->checkFileOnDisk();
    QCOMPARE(asked, 2);
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[2]"));
    w.files()->checkFileOnDisk();
    QCOMPARE(asked, 2);
    // A file gone is said, not asked about.
    QVERIFY(QFile::remove(path));
    w.files()->checkFileOnDisk();
    QCOMPARE(asked, 2);
    QVERIFY2(w.message().contains(QStringLiteral("deleted or moved")), qPrintable(w.message()));
    // Save writes it again.
    QVERIFY(w.files()->save());
    QCOMPARE(exprOnDisk(path), QStringLiteral("x[2]"));
}

// A window with nothing unsaved whose file now cannot be read keeps what it shows and asks, as
// one with changes does: Reload would fail, Overwrite or Save As keep its version.
void TestFileChanges::anUnreadableChangeIsAskedAbout()
{
    QTemporaryDir dir;
    const QString path = workspaceFileIn(dir);
    MainWindow w;
    w.forgetSession();
    int asked = 0;
    answerDiskPrompts(w, asked, MainWindow::DiskChoice::Overwrite);
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(file.write("{\"not a workspace") > 0);
    }
    w.files()->checkFileOnDisk();
    QCOMPARE(asked, 1);
    QCOMPARE(exprOf(w.workspace()), QStringLiteral("x[0]"));
    QCOMPARE(exprOnDisk(path), QStringLiteral("x[0]")); // overwritten with the window's version
}

void TestFileChanges::saveWithoutChangesWritesNothing()
{
    QTemporaryDir dir;
    const QString path = workspaceFileIn(dir);
    const QDateTime old = QDateTime::currentDateTime().addDays(-30);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(old, QFileDevice::FileModificationTime));
    }
    MainWindow w;
    w.forgetSession();
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QVERIFY(w.undoStack()->isClean());
    QVERIFY(w.files()->save());
    QCOMPARE(QFileInfo(path).lastModified(), old);
    // With a change it writes.
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1]")), QStringLiteral("t"));
    QVERIFY(w.files()->save());
    QVERIFY(QFileInfo(path).lastModified() > old);
    QCOMPARE(exprOnDisk(path), QStringLiteral("x[1]"));
}

void TestFileChanges::automationGetsAnErrorNotADialog()
{
    QTemporaryDir dir;
    const QString path = workspaceFileIn(dir);
    MainWindow w;
    w.forgetSession();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    const QByteArray quoted = QByteArray("\"") + path.toUtf8() + '"';
    Json answer = client.ask(R"({"id": 1, "cmd": "open_file", "path": )" + quoted + "}");
    QVERIFY2(answer.find("ok")->toBool(), client.lastLine().constData());
    client.ask(R"({"id": 2, "cmd": "set_expr", "expr": "x[1]"})");
    writeWorkspaceFile(path, getitemWorkspace({3, 4}, QStringLiteral("x[2]")));
    // No dialog: the focus check only leaves a message.
    w.files()->checkFileOnDisk();
    QVERIFY2(w.message().contains(QStringLiteral("changed on disk")), qPrintable(w.message()));
    answer = client.ask(R"({"id": 3, "cmd": "save", "path": )" + quoted + "}");
    QVERIFY2(!answer.find("ok")->toBool(), client.lastLine().constData());
    QVERIFY2(client.lastLine().contains("changed on disk"), client.lastLine().constData());
    QCOMPARE(exprOnDisk(path), QStringLiteral("x[2]"));
    answer = client.ask(R"({"id": 4, "cmd": "save", "overwrite": true, "path": )" + quoted + "}");
    QVERIFY2(answer.find("ok")->toBool(), client.lastLine().constData());
    QCOMPARE(exprOnDisk(path), QStringLiteral("x[1]"));
}

// The save dialog opened wherever the program was started, however often the user had gone
// to their project folder.
void TestFileChanges::saveDialogRemembersItsFolder()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("project"));
    QVERIFY(QDir().mkpath(folder));
    MainWindow w;
    w.forgetSession();
    QString error;
    QVERIFY2(w.saveFile(folder + QStringLiteral("/first.slicescope.json"), &error),
             qPrintable(error));
    QVERIFY(w.openLesson(QStringLiteral("walkthrough"))); // untitled again
    w.files()->setSavePrompt([](const QString&) { return MainWindow::SaveChoice::Discard; });
    QString suggested;
    QString shownFolder;
    QTimer::singleShot(0, &w, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        suggested = dialog->selectedFiles().value(0);
        shownFolder = dialog->directory().absolutePath();
        dialog->reject();
    });
    QVERIFY(!w.files()->saveAs());
    QCOMPARE(shownFolder, QFileInfo(folder).absoluteFilePath());
    QCOMPARE(suggested,
             QFileInfo(folder).absoluteFilePath() + QStringLiteral("/walkthrough.slicescope.json"));
}

QTEST_MAIN(TestFileChanges)
#include "tst_filechanges.moc"
