// SPDX-License-Identifier: GPL-3.0-or-later
// No work lost: New / Save / Save As and the title, "Save changes?" before work is replaced,
// autosave per launch and recovery after a kill (also when every launch has the same process
// id), Open Recent, the window's geometry, Export Output, and start errors shown in the window.
#include "core/error.h"
#include "protocol/npy.h"
#include "ui/model/lessons.h"
#include "ui/model/workspacefile.h"
#include "ui/workbench/commandline.h"
#include "ui/workbench/lessonnavigator.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/sessionguard.h"
#include "ui/workbench/windowmessages.h"
#include "ui/workbench/workspacedocument.h"
#include "workbench_testing.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QUuid>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ss;
using namespace ss::ui;
using ss::testing::getitemWorkspace;
using ss::testing::newUserEnvironment;
using ss::testing::waitSettled;
using Choice = MainWindow::SaveChoice;

namespace {

/// Answers "Save changes?" with `choice` and counts the questions.
struct Prompt
{
    Choice choice = Choice::Cancel;
    int asked = 0;
    void attach(MainWindow& w)
    {
        w.files()->setSavePrompt([this](const QString&) {
            ++asked;
            return choice;
        });
    }
};

Workspace editedWorkspace()
{
    return getitemWorkspace({7, 3}, QStringLiteral("x[::-2, 1]"));
}

/// Whether some open file holds the lock (as SessionGuard holds its session's).
bool lockIsHeld(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return false;
    const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    ::close(fd);
    return held;
}

/// What a restart does to the settings: a new process reads the file from the disk. In one
/// process QSettings keeps what it wrote and reads the file again only once it changed on the
/// disk, so a newer time stamp stands in for the new process.
bool rereadSettingsFromDisk()
{
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    return file.open(QIODevice::ReadWrite) &&
           file.setFileTime(QDateTime::currentDateTime().addSecs(120),
                            QFileDevice::FileModificationTime);
}

QString lessonWithOp(const std::string& op)
{
    for (const Lesson& lesson : lessons())
        if (lesson.workspace.op == op && lesson.unavailable.isEmpty()) return lesson.name;
    return {};
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

private slots:
    void init() { ss::testing::useCleanTestEnvironment(); }
    void cleanup() { SessionGuard::setDirectoriesForTesting({}); }
    void titleShowsTheFileAndTheModifiedMarker();
    void quitAsksBeforeWorkIsLost();
    void unansweredDialogsDoNotHang();
    void newOpenAndLessonsAsk();
    void saveWritesTheFileOrAsks();
    void autosaveIsPerLaunchAndStaysUntilDecided();
    void recoveryWhenTheProcessIdRepeats();
    void liveSessionsAreNeverTouched();
    void onlyThisUsersLostWorkIsOffered_data();
    void onlyThisUsersLostWorkIsOffered();
    void killedInPidNamespacesAndRecovered();
    void recentFilesArePruned();
    void geometryAndDocksAreRestored();
    void exportWritesEveryOutput();
    void exportRefusesAStaleResult();
    void badStartFileIsShownInTheWindow();
    void screenshotOfABadStartFile_data();
    void screenshotOfABadStartFile();
    void settingsReadBackAfterARestart();
    void autosaveFailuresAreShownAndGoElsewhere();
    void saveRefusesWhatIsNotARegularFile();
};

void TestSession::titleShowsTheFileAndTheModifiedMarker()
{
    MainWindow w;
    w.forgetSession();
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("Untitled[*]")));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.openLesson(QStringLiteral("walkthrough")));
    QVERIFY(w.windowTitle().startsWith(w.workspace().title + QStringLiteral("[*]")));
    QVERIFY(!w.isWindowModified()); // a lesson as it comes has nothing to save
    w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    QVERIFY(w.isWindowModified());
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(QStringLiteral("mine.slicescope.json"));
    QVERIFY2(w.saveFile(path, &error), qPrintable(error));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("mine.slicescope.json[*]")));
    QCOMPARE(w.filePath(), path);
    w.undoStack()->undo(); // back to the lesson: not what the file holds
    QVERIFY(w.isWindowModified());
    w.undoStack()->redo();
    QVERIFY(!w.isWindowModified());
}

void TestSession::quitAsksBeforeWorkIsLost()
{
    MainWindow w;
    Prompt prompt;
    prompt.attach(w);
    w.show();
    w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    w.session()->autosaveNow();
    const QString autosave = w.session()->autosavePath();
    QVERIFY(QFile::exists(autosave));
    // Cancel: the window stays, with its work and its autosave.
    prompt.choice = Choice::Cancel;
    w.findChild<QAction*>(QStringLiteral("actionQuit"))->trigger();
    QCOMPARE(prompt.asked, 1);
    QVERIFY(w.isVisible());
    QCOMPARE(w.workspace(), editedWorkspace());
    QVERIFY(QFile::exists(autosave));
    // Discard: the user has decided; the window closes and the autosave goes.
    prompt.choice = Choice::Discard;
    QVERIFY(w.close());
    QCOMPARE(prompt.asked, 2);
    QVERIFY(!w.isVisible());
    QVERIFY(!QFile::exists(autosave));
}

void TestSession::unansweredDialogsDoNotHang()
{
    // The real dialog, answered by the test environment's helper: Cancel, the window stays.
    MainWindow w;
    w.forgetSession();
    w.show();
    w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    QTest::ignoreMessage(QtWarningMsg,
                         "an unexpected \"Save changes?\" dialog was answered Cancel");
    QVERIFY(!w.close());
    QVERIFY(w.isVisible());
    QCOMPARE(w.workspace(), editedWorkspace());
}

void TestSession::newOpenAndLessonsAsk()
{
    QTemporaryDir dir;
    MainWindow w;
    w.forgetSession();
    Prompt prompt;
    prompt.attach(w);
    // Nothing unsaved: no question.
    QVERIFY(w.files()->newWorkspace());
    QCOMPARE(prompt.asked, 0);
    w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    prompt.choice = Choice::Cancel;
    QVERIFY(!w.files()->newWorkspace());
    QVERIFY(!w.lessonNavigator()->switchTo(QStringLiteral("walkthrough")));
    QCOMPARE(prompt.asked, 2);
    QCOMPARE(w.workspace(), editedWorkspace());
    // Open Recent asks too.
    const QString path = dir.filePath(QStringLiteral("other.slicescope.json"));
    writeWorkspaceFile(path, Workspace{});
    MainWindow writer;
    writer.forgetSession();
    QString error;
    QVERIFY(writer.openFile(path, &error));
    auto* menu = w.findChild<QMenu*>(QStringLiteral("recentMenu"));
    emit menu->aboutToShow();
    auto* recent = menu->findChild<QAction*>(QStringLiteral("recentFile0"));
    QVERIFY(recent);
    recent->trigger();
    QCOMPARE(prompt.asked, 3);
    QCOMPARE(w.workspace(), editedWorkspace());
    prompt.choice = Choice::Discard;
    QVERIFY(w.lessonNavigator()->switchTo(QStringLiteral("walkthrough")));
    QCOMPARE(w.currentLesson(), QStringLiteral("walkthrough"));
    QVERIFY(!w.isWindowModified());
    w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    QVERIFY(w.files()->newWorkspace());
    QCOMPARE(w.workspace(), Workspace{});
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("Untitled")));
    QVERIFY(!w.isWindowModified());
}

void TestSession::saveWritesTheFileOrAsks()
{
    QTemporaryDir dir;
    MainWindow w;
    w.forgetSession();
    Prompt prompt;
    prompt.attach(w);
    const QString path = dir.filePath(QStringLiteral("kept.slicescope.json"));
    QString error;
    QVERIFY(w.saveFile(path, &error));
    w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    // "Save" in the question writes the window's file, then goes on.
    prompt.choice = Choice::Save;
    QVERIFY(w.files()->newWorkspace());
    QCOMPARE(readWorkspaceFile(path, Workspace{}, Limits{}).attrs, editedWorkspace().attrs);
    // Ctrl+S saves to the file without a dialog.
    QVERIFY(w.openFile(path, &error));
    w.setWorkspace(getitemWorkspace({2, 2}, QStringLiteral("x[0]")), QStringLiteral("edit"));
    QCOMPARE(w.findChild<QAction*>(QStringLiteral("actionSave"))->shortcut(),
             QKeySequence(QKeySequence::Save));
    w.findChild<QAction*>(QStringLiteral("actionSave"))->trigger();
    QVERIFY(!w.isWindowModified());
    QCOMPARE(readWorkspaceFile(path, Workspace{}, Limits{}).attrs,
             getitemWorkspace({2, 2}, QStringLiteral("x[0]")).attrs);
}

void TestSession::autosaveIsPerLaunchAndStaysUntilDecided()
{
    QString autosave;
    {
        MainWindow w;
        QVERIFY(!QFileInfo(w.session()->autosavePath())
                     .fileName()
                     .contains(QString::number(QCoreApplication::applicationPid())));
        QVERIFY(w.session()->autosavePath().contains(w.session()->launchId()));
        w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
        autosave = w.session()->autosavePath();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave), 30000);
        // Saved: nothing is lost any more, the autosave goes.
        QTemporaryDir dir;
        QString error;
        QVERIFY(w.saveFile(dir.filePath(QStringLiteral("a.json")), &error));
        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(autosave), 30000);
        w.setWorkspace(getitemWorkspace({2, 2}, QStringLiteral("x[1]")), QStringLiteral("edit"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave), 30000);
        // The window goes away without anyone deciding about the edit (the process ends):
        // the autosave stays for the next start.
    }
    QVERIFY(QFile::exists(autosave));
    MainWindow next;
    next.show();
    next.offerRecovery();
    QVERIFY(next.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isVisible());
    QTest::mouseClick(next.findChild<QPushButton*>(QStringLiteral("recoverSession")),
                      Qt::LeftButton);
    QVERIFY(waitSettled(next));
    QCOMPARE(next.workspace().attrs, getitemWorkspace({2, 2}, QStringLiteral("x[1]")).attrs);
    QVERIFY(next.isWindowModified()); // recovered work is unsaved work
    QVERIFY(!QFile::exists(autosave));
    QVERIFY(QFile::exists(next.session()->autosavePath())); // kept by this session now
    // Nothing more to offer.
    MainWindow later;
    later.show();
    later.offerRecovery();
    QVERIFY(!later.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isVisible());
}

void TestSession::recoveryWhenTheProcessIdRepeats()
{
    // In a PID namespace (Flatpak) every launch has the same process id. A session killed
    // there left its autosave and a lock file naming that id, which is ours too: still lost
    // work (nobody holds the lock), still offered, never skipped nor overwritten.
    const QString dir = SessionGuard::directory();
    QDir().mkpath(dir);
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString dead = dir + QStringLiteral("/session-%1.json").arg(id);
    writeWorkspaceFile(dead, editedWorkspace());
    QFile lock(dir + QStringLiteral("/session-%1.lock").arg(id));
    QVERIFY(lock.open(QIODevice::WriteOnly));
    lock.write(QByteArray::number(QCoreApplication::applicationPid()) + "\n" +
               QCoreApplication::applicationName().toUtf8() + "\n" +
               QSysInfo::machineHostName().toUtf8() + "\n");
    lock.close();

    MainWindow w;
    w.show();
    w.offerRecovery();
    QVERIFY(w.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isVisible());
    QVERIFY(w.session()->autosavePath() != dead);
    QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("recoverSession")), Qt::LeftButton);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().attrs, editedWorkspace().attrs);
    QVERIFY(!QFile::exists(dead));
}

void TestSession::onlyThisUsersLostWorkIsOffered_data()
{
    QTest::addColumn<int>("folderMode");
    QTest::addColumn<bool>("anotherUsersFile");
    QTest::addColumn<bool>("offered");
    QTest::newRow("this user's folder and file") << 0700 << false << true;
    QTest::newRow("a folder everyone may write in") << 0777 << false << false;
    QTest::newRow("a file of another user") << 0700 << true << false;
}

void TestSession::onlyThisUsersLostWorkIsOffered()
{
    // The fallbacks live in the temporary folder, which every user writes in: what another user
    // put there under this user's name is not this user's lost work.
    QFETCH(int, folderMode);
    QFETCH(bool, anotherUsersFile);
    QFETCH(bool, offered);
    if (anotherUsersFile && ::geteuid() != 0) QSKIP("giving a file to another user needs root");
    QTemporaryDir fallback;
    QVERIFY(fallback.isValid());
    const QString dir = fallback.filePath(QStringLiteral("slicescope-sessions"));
    QVERIFY(QDir().mkpath(dir));
    SessionGuard::setDirectoriesForTesting({dir});
    const QString dead =
        dir +
        QStringLiteral("/session-%1.json").arg(QUuid::createUuid().toString(QUuid::WithoutBraces));
    writeWorkspaceFile(dead, editedWorkspace());
    QCOMPARE(::chmod(QFile::encodeName(dir).constData(), mode_t(folderMode)), 0);
    if (anotherUsersFile) QCOMPARE(::chown(QFile::encodeName(dead).constData(), 65534, 65534), 0);

    MainWindow w;
    w.show();
    w.offerRecovery();
    QCOMPARE(!w.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isHidden(), offered);
    const auto lost = w.session()->findLostSession();
    QCOMPARE(lost && lost->autosavePath == dead, offered);
    QVERIFY(QFile::exists(dead)); // never touched either way
}

void TestSession::liveSessionsAreNeverTouched()
{
    // Two sessions at once in one process (so with one process id): neither offers, nor
    // discards, the other's work.
    MainWindow first;
    first.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    first.session()->autosaveNow();
    const QString firstAutosave = first.session()->autosavePath();
    QVERIFY(QFile::exists(firstAutosave));
    MainWindow second;
    second.show();
    second.offerRecovery();
    QVERIFY(!second.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isVisible());
    QVERIFY(!second.session()->removeLostSession(firstAutosave));
    QVERIFY(QFile::exists(firstAutosave));
    // However old the first session's lock (QLockFile would call it stale after 30 s).
    QFile lock(QString(firstAutosave).replace(QStringLiteral(".json"), QStringLiteral(".lock")));
    QVERIFY(lock.open(QIODevice::ReadWrite));
    QVERIFY(lock.setFileTime(QDateTime::currentDateTime().addDays(-1),
                             QFileDevice::FileModificationTime));
    lock.close();
    second.offerRecovery();
    QVERIFY(!second.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isVisible());
}

void TestSession::killedInPidNamespacesAndRecovered()
{
    // The report: in `unshare --pid --fork --mount-proc` (every launch is pid 1), edit, kill -9,
    // start again the same way: the work must still be there and offered.
    if (::geteuid() != 0) QSKIP("unshare --pid needs root");
    QTemporaryDir home;
    const QString npy = home.filePath(QStringLiteral("x.npy"));
    writeNpyFile(npy.toStdString(), makeFilled(DType::Int32, {4, 5}, Fill::Arange, 0, Limits{}));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const QDir sessions(home.filePath(QStringLiteral("data/SliceScope/SliceScope/sessions")));
    auto autosaves = [&] {
        return sessions.entryList({QStringLiteral("session-*.json")}, QDir::Files, QDir::Time);
    };
    // The .npy the command line opens is where the history starts; an edit through the
    // automation channel (whose input stays open) is unsaved work, autosaved 2 s later. When
    // unshare is killed (SIGKILL), --kill-child sends SIGKILL to the app, pid 1 of its namespace.
    auto launch = [&](QProcess& p) {
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("unshare"),
                {QStringLiteral("--pid"), QStringLiteral("--fork"), QStringLiteral("--mount-proc"),
                 QStringLiteral("--kill-child=SIGKILL"), QStringLiteral(SLICESCOPE_GUI_EXE),
                 QStringLiteral("--automation"), npy});
        if (!p.waitForStarted(10000)) return false;
        p.write("{\"id\": 1, \"cmd\": \"set_expr\", \"expr\": \"x[1:]\"}\n");
        return true;
    };
    QProcess first;
    if (!launch(first)) QSKIP("unshare cannot start here");
    // unshare exits at once where namespaces are not allowed (a container without the right).
    const bool ended = QTest::qWaitFor(
        [&] { return autosaves().size() == 1 || first.state() == QProcess::NotRunning; }, 30000);
    const QString refusal = QString::fromUtf8(first.readAllStandardError());
    if (ended && autosaves().isEmpty() && refusal.startsWith(QStringLiteral("unshare:")))
        QSKIP(qPrintable(QStringLiteral("no PID namespace here: %1").arg(refusal)));
    QVERIFY2(autosaves().size() == 1, qPrintable(QStringLiteral("no autosave: ") + refusal));
    const QString firstAutosave = sessions.filePath(autosaves().front());
    const QString firstLock =
        QString(firstAutosave).replace(QStringLiteral(".json"), QStringLiteral(".lock"));
    QFile lockText(firstLock);
    QVERIFY(lockText.open(QIODevice::ReadOnly));
    QCOMPARE(lockText.readLine().trimmed(), QByteArray("1")); // pid 1 in its namespace
    lockText.close();
    QVERIFY(lockIsHeld(firstLock));
    first.kill();
    QVERIFY(first.waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(!lockIsHeld(firstLock), 10000);

    // Again the same way: pid 1 again, its own files; the first session's work is untouched.
    QProcess second;
    QVERIFY(launch(second));
    QVERIFY(QTest::qWaitFor([&] { return autosaves().size() == 2; }, 30000));
    QVERIFY(QFile::exists(firstAutosave));
    QVERIFY(!lockIsHeld(firstLock));
    QVERIFY(second.state() == QProcess::Running);
    second.kill();
    QVERIFY(second.waitForFinished(10000));

    // The killed session's work is offered, and recovered.
    const QString here = SessionGuard::directory() + u'/' + QFileInfo(firstAutosave).fileName();
    QDir().mkpath(SessionGuard::directory());
    QVERIFY(QFile::copy(firstAutosave, here));
    MainWindow w;
    w.show();
    w.offerRecovery();
    QVERIFY(w.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isVisible());
    QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("recoverSession")), Qt::LeftButton);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().inputs[0][0].fill, FillKind::Data);
    QCOMPARE(w.workspace().inputs[0][0].data.shape(), (Shape{4, 5}));
}

void TestSession::recentFilesArePruned()
{
    QTemporaryDir dir;
    MainWindow w;
    w.forgetSession();
    QString error;
    const QString a = dir.filePath(QStringLiteral("a.slicescope.json"));
    const QString b = dir.filePath(QStringLiteral("b.slicescope.json"));
    QVERIFY(w.saveFile(a, &error));
    QVERIFY(w.saveFile(b, &error));
    QCOMPARE(WorkspaceDocument::recentFiles(), (QStringList{b, a}));
    QFile::remove(b);
    QCOMPARE(WorkspaceDocument::recentFiles(), QStringList{a});
    auto* menu = w.findChild<QMenu*>(QStringLiteral("recentMenu"));
    emit menu->aboutToShow();
    QCOMPARE(menu->actions().size(), 1);
    QCOMPARE(menu->actions().front()->toolTip(), a);
    // The setting to reopen the last workspace at start.
    QSettings().setValue(QStringLiteral("files/reopenLast"), true);
    MainWindow next;
    next.forgetSession();
    QVERIFY(applyStartOptions(next, StartOptions{}, &error)); // the first start: a lesson
    MainWindow later;
    later.forgetSession();
    QVERIFY(applyStartOptions(later, StartOptions{}, &error));
    QCOMPARE(later.filePath(), a);
}

void TestSession::geometryAndDocksAreRestored()
{
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        w.resize(1000, 700);
        w.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->hide();
        QVERIFY(w.close());
    }
    MainWindow w;
    w.forgetSession();
    w.restoreWindowState();
    w.show();
    QCOMPARE(w.size(), QSize(1000, 700));
    QVERIFY(!w.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isVisible());
    QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("decodeDock"))->isVisible());
}

void TestSession::exportWritesEveryOutput()
{
    QTemporaryDir dir;
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:, ::-2]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QStringList written;
    QString error;
    // A bare name gets the suffix.
    QVERIFY2(w.document()->exportOutputs(dir.filePath(QStringLiteral("sliced")), &written, &error),
             qPrintable(error));
    QCOMPARE(written, QStringList{dir.filePath(QStringLiteral("sliced.npy"))});
    QVERIFY(readNpyFile(written.front().toStdString(), Limits{})
                .identical(w.lastEvaluation()->outputs.front()));

    // Several outputs: one file each, named after the output.
    const QString unique = lessonWithOp("unique_with_counts");
    QVERIFY(!unique.isEmpty());
    QVERIFY(w.openLesson(unique));
    QVERIFY(waitSettled(w));
    QVERIFY(w.lastEvaluation()->ok);
    QVERIFY(w.document()->exportOutputs(dir.filePath(QStringLiteral("u.npy")), &written, &error));
    QCOMPARE(written, (QStringList{dir.filePath(QStringLiteral("u-y.npy")),
                                   dir.filePath(QStringLiteral("u-idx.npy")),
                                   dir.filePath(QStringLiteral("u-count.npy"))}));
    for (int k = 0; k < 3; ++k)
        QVERIFY(readNpyFile(written[k].toStdString(), Limits{})
                    .identical(w.lastEvaluation()->outputs[std::size_t(k)]));
    const QString split = lessonWithOp("split");
    QVERIFY(!split.isEmpty());
    QVERIFY(w.openLesson(split));
    QVERIFY(waitSettled(w));
    QVERIFY(w.document()->exportOutputs(dir.filePath(QStringLiteral("s")), &written, &error));
    QCOMPARE(written.size(), int(w.lastEvaluation()->outputs.size()));
    QCOMPARE(written.front(), dir.filePath(QStringLiteral("s-output0.npy")));
    for (const QString& file : written)
        QVERIFY(QFile::exists(file));
}

void TestSession::exportRefusesAStaleResult()
{
    QTemporaryDir dir;
    MainWindow w;
    w.forgetSession();
    w.show();
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[1:]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    w.setWorkspace(getitemWorkspace({3, 4}, QStringLiteral("x[::0]")), QStringLiteral("t"));
    QVERIFY(waitSettled(w));
    QVERIFY(w.isStale());
    QStringList written;
    QString error;
    const QString path = dir.filePath(QStringLiteral("stale.npy"));
    QVERIFY(!w.document()->exportOutputs(path, &written, &error));
    QVERIFY2(error.contains(QStringLiteral("error")), qPrintable(error));
    QVERIFY(!QFile::exists(path));
    // The menu action says so in the window, before any file dialog.
    w.findChild<QAction*>(QStringLiteral("actionExportOutput"))->trigger();
    QVERIFY2(w.message().contains(QStringLiteral("Nothing exported")), qPrintable(w.message()));
}

void TestSession::badStartFileIsShownInTheWindow()
{
    // `slicescope garbage.slicescope.json` from a file manager: the window opens and says why.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("garbage.slicescope.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not a workspace");
    file.close();
    MainWindow w;
    w.show();
    StartOptions options;
    options.file = path;
    QString error;
    QVERIFY(prepareWindow(w, options, &error));
    QVERIFY(error.contains(QStringLiteral("garbage.slicescope.json")));
    QVERIFY2(w.message().contains(QStringLiteral("garbage.slicescope.json")),
             qPrintable(w.message()));
    // With --screenshot too: the picture shows the window as a user would see it (it was a
    // failure, and no picture).
    MainWindow shot;
    options.screenshot = dir.filePath(QStringLiteral("x.png"));
    QVERIFY(prepareWindow(shot, options, &error));
    QVERIFY2(shot.message().contains(QStringLiteral("garbage.slicescope.json")),
             qPrintable(shot.message()));
    QVERIFY(shot.messages()->fileStartError().contains(QStringLiteral("garbage.slicescope.json")));
}

// `slicescope --screenshot x.png FILE` with a FILE that does not open (a .npy, a workspace, a
// model, read after the window is up) saves the window saying why, and exits with 1, as the
// CLI does for an input it cannot read. The .npy exited with 2 and no picture; the model file
// with 0, its picture passing for one of the file. A good file exits with 0.
void TestSession::screenshotOfABadStartFile_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("bad .npy") << "bad.npy" << QByteArray("garbage\n") << 1;
    QTest::newRow("bad workspace") << "bad.slicescope.json" << QByteArray("{\"op\": ") << 1;
    QTest::newRow("bad .tflite") << "bad.tflite" << QByteArray("garbage\n") << 1;
    QTest::newRow("good workspace")
        << "good.slicescope.json"
        << QByteArray(R"({"op": "getitem", "inputs": {"input": {"dtype": "int32", )"
                      R"("shape": [3], "fill": "arange"}}, "attrs": {"expr": "x[::-1]"}})")
        << 0;
}

void TestSession::screenshotOfABadStartFile()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(int, exitCode);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    QProcess slicescope;
    slicescope.setProcessEnvironment(newUserEnvironment(dir.path()));
    slicescope.start(QStringLiteral(SLICESCOPE_GUI_EXE),
                     {QStringLiteral("--screenshot"), png, path});
    QVERIFY(slicescope.waitForFinished(120000));
    const QString err = QString::fromUtf8(slicescope.readAllStandardError());
    QCOMPARE(slicescope.exitStatus(), QProcess::NormalExit);
    QVERIFY2(slicescope.exitCode() == exitCode,
             qPrintable(QStringLiteral("exit %1: %2").arg(slicescope.exitCode()).arg(err)));
    QCOMPARE(QImage(png).size(), QSize(1440, 900));
    if (exitCode != 0) QVERIFY2(err.contains(name), qPrintable(err));
}

// Every setting the menus offer, set in one lifetime of the window, takes effect in the next one
// (the settings read from the disk as a new process reads them). "general/started" did not:
// QSettings reads an INI [general] section as keys without a group, so every start was the first
// and "Reopen the Last Workspace at Start" never happened.
void TestSession::settingsReadBackAfterARestart()
{
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("kept.slicescope.json"));
    QString error;
    {
        MainWindow w;
        w.forgetSession();
        w.restoreWindowState();
        QVERIFY2(applyStartOptions(w, StartOptions{}, &error), qPrintable(error));
        QVERIFY(!w.currentLesson().isEmpty()); // the very first start opens a lesson
        w.show();
        w.resize(1010, 720);
        w.findChild<QAction*>(QStringLiteral("actionReopenLast"))->setChecked(true);
        w.findChild<QAction*>(QStringLiteral("actionDarkTheme"))->setChecked(true);
        w.findChild<QAction*>(QStringLiteral("actionFitColours"))->setChecked(false);
        w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
        QVERIFY2(w.saveFile(saved, &error), qPrintable(error));
        QVERIFY(w.close());
    }
    QVERIFY(rereadSettingsFromDisk());
    {
        MainWindow w;
        w.forgetSession();
        w.restoreWindowState();
        QVERIFY2(applyStartOptions(w, StartOptions{}, &error), qPrintable(error));
        QCOMPARE(w.currentLesson(), QString()); // not the first start any more
        QCOMPARE(w.filePath(), saved);          // the last workspace, reopened
        QCOMPARE(w.workspace(), editedWorkspace());
        QCOMPARE(WorkspaceDocument::recentFiles(), QStringList{saved});
        QVERIFY(w.findChild<QAction*>(QStringLiteral("actionReopenLast"))->isChecked());
        QVERIFY(w.findChild<QAction*>(QStringLiteral("actionDarkTheme"))->isChecked());
        QVERIFY(!w.findChild<QAction*>(QStringLiteral("actionFitColours"))->isChecked());
        QCOMPARE(w.size(), QSize(1010, 720));
        w.findChild<QAction*>(QStringLiteral("actionDarkTheme"))->setChecked(false);
    }
    // A settings file written before the fix (its [general] section) counts as started too.
    QSettings().clear();
    QSettings().setValue(QStringLiteral("started"), true);
    QVERIFY(rereadSettingsFromDisk());
    MainWindow old;
    old.forgetSession();
    QVERIFY2(applyStartOptions(old, StartOptions{}, &error), qPrintable(error));
    QCOMPARE(old.currentLesson(), QString());
}

// A home that cannot take the autosave (here: its directory cannot be made, a file is in the
// way; a read-only or full home is the same to the writer): the autosave goes to the next place
// allowed, a later start recovers it from there, and while no place takes it the window says
// that the work is not being protected, naming each place tried. It used to fail silently.
void TestSession::autosaveFailuresAreShownAndGoElsewhere()
{
    QTemporaryDir dir;
    const QString inTheWay = dir.filePath(QStringLiteral("home-file"));
    QVERIFY(QFile(inTheWay).open(QIODevice::WriteOnly));
    const QString blocked = inTheWay + QStringLiteral("/sessions");
    const QString fallback = dir.filePath(QStringLiteral("runtime/sessions"));
    SessionGuard::setDirectoriesForTesting({blocked, fallback});
    QString firstAutosave;
    {
        MainWindow w;
        auto* warning = w.findChild<QLabel*>(QStringLiteral("autosaveWarning"));
        QVERIFY(warning);
        w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
        w.session()->autosaveNow();
        firstAutosave = w.session()->autosavePath();
        QVERIFY2(firstAutosave.startsWith(fallback + u'/'), qPrintable(firstAutosave));
        QVERIFY(QFile::exists(firstAutosave));
        QVERIFY(warning->isHidden()); // protected, elsewhere
        QCOMPARE(w.session()->problem(), QString());
    } // not closed: as if killed, the autosave stays
    // Nowhere to write: the window says so from the start, and after a failed autosave.
    const QString blockedToo = inTheWay + QStringLiteral("/tmp");
    SessionGuard::setDirectoriesForTesting({blocked, blockedToo});
    {
        MainWindow w;
        w.show();
        auto* warning = w.findChild<QLabel*>(QStringLiteral("autosaveWarning"));
        QVERIFY(warning->isVisible());
        QVERIFY2(warning->text().startsWith(QStringLiteral("Your work is not being protected")),
                 qPrintable(warning->text()));
        QVERIFY2(warning->text().contains(blocked) && warning->text().contains(blockedToo) &&
                     warning->text().contains(QStringLiteral("Not a directory")),
                 qPrintable(warning->text()));
        w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
        w.session()->autosaveNow();
        QVERIFY(warning->isVisible());
        QVERIFY2(warning->text().contains(
                     QStringLiteral("could not be written to %1/session-").arg(blocked)),
                 qPrintable(warning->text()));
        w.session()->finish();
    }
    // The next start finds the lost work where it went, and offers it.
    SessionGuard::setDirectoriesForTesting({blocked, fallback});
    {
        MainWindow w;
        w.offerRecovery();
        QVERIFY(!w.findChild<QWidget*>(QStringLiteral("recoveryStrip"))->isHidden());
        const auto lost = w.session()->findLostSession();
        QVERIFY(lost);
        QCOMPARE(lost->autosavePath, firstAutosave);
        w.findChild<QPushButton*>(QStringLiteral("recoverSession"))->click();
        QCOMPARE(w.workspace(), editedWorkspace());
        QVERIFY(!QFile::exists(firstAutosave));
        // Room at home again: the autosave goes back there, and none is left elsewhere.
        QVERIFY(QFile::remove(inTheWay));
        w.setWorkspace(getitemWorkspace({3, 3}, QStringLiteral("x[1]")), QStringLiteral("edit"));
        w.session()->autosaveNow();
        QVERIFY2(w.session()->autosavePath().startsWith(blocked + u'/'),
                 qPrintable(w.session()->autosavePath()));
        QVERIFY(QFile::exists(w.session()->autosavePath()));
        QCOMPARE(QDir(fallback).entryList({QStringLiteral("*.json")}, QDir::Files), QStringList());
        w.session()->finish();
    }
}

// Issue 25: a save to a FIFO (or a device) answered ok although nothing was kept, and a rename
// over it replaced the special file. Refused with the reason, in the window; the FIFO stays.
void TestSession::saveRefusesWhatIsNotARegularFile()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("pipe.slicescope.json"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    MainWindow w;
    w.forgetSession();
    w.setWorkspace(editedWorkspace(), QStringLiteral("edit"));
    QString error;
    QVERIFY(!w.saveFile(fifo, &error));
    QCOMPARE(error, QStringLiteral("cannot write pipe.slicescope.json: not a regular file (it is "
                                   "a FIFO)"));
    QVERIFY(w.isWindowModified());
    QVERIFY(w.filePath().isEmpty());
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(fifo).constData(), &st), 0);
    QVERIFY(S_ISFIFO(st.st_mode));
}

QTEST_MAIN(TestSession)
#include "tst_session.moc"
