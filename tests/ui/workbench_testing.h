// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the workbench suites: a clean per-test environment and waiting on the window.
#pragma once

#include "core/op.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/sessionguard.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProcess>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <vector>

namespace ss::testing {

/// A "Save changes?" or "File changed on disk" dialog that a test did not expect (it replaced
/// unsaved work, or changed the window's file on disk, without answering through
/// MainWindow::setSavePrompt or setDiskPrompt) is answered Cancel, with a warning, so that no
/// test hangs in a modal dialog's event loop.
inline void answerUnexpectedSaveDialogs()
{
    static bool installed = false;
    if (installed || !qobject_cast<QApplication*>(QCoreApplication::instance())) return;
    installed = true;
    auto* timer = new QTimer(QCoreApplication::instance());
    timer->setInterval(100);
    QObject::connect(timer, &QTimer::timeout, [] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || (box->objectName() != QLatin1String("saveChangesDialog") &&
                     box->objectName() != QLatin1String("fileChangedDialog")))
            return;
        qWarning("an unexpected \"%s\" dialog was answered Cancel", qPrintable(box->windowTitle()));
        box->button(QMessageBox::Cancel)->click();
    });
    timer->start();
}

/// Settings and autosaves go to the test locations (~/.qttest) and start empty, so a test never
/// sees the user's files or another suite's. Each suite has its own (named after its
/// executable, under its build folder's testOrganization): ctest runs suites in parallel, and one
/// suite's clean start must not wipe the settings and autosaves of another that is running.
/// The autosave fallbacks (the temporary folder and $XDG_RUNTIME_DIR) are shared by every program
/// the user runs: each suite gets its own, so a session another run left there (a killed app, a
/// crashed suite) is never offered for recovery inside a test.
inline void usePrivateSessionFallbacks()
{
    static QTemporaryDir own; // in the real temporary folder, removed when the suite ends
    if (qEnvironmentVariable("TMPDIR") == own.path()) return;
    const QString runtime = own.filePath(QStringLiteral("runtime"));
    QDir().mkpath(runtime);
    QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("XDG_RUNTIME_DIR", runtime.toLocal8Bit());
    qputenv("TMPDIR", own.path().toLocal8Bit());
}

/// The organisation the suites of one build folder keep their settings under:
/// "SliceScopeTests-" and a digest of the folder of the test executables. Two build folders (a
/// worktree's and main's, Release and ASan) run the same suites at once: with one name, one run's
/// dark theme made another's screenshots dark.
inline QString testOrganization(const QString& executableFolder)
{
    const QByteArray digest =
        QCryptographicHash::hash(QDir(executableFolder).absolutePath().toUtf8(),
                                 QCryptographicHash::Sha1)
            .toHex()
            .left(12);
    return QStringLiteral("SliceScopeTests-") + QString::fromLatin1(digest);
}

inline void useCleanTestEnvironment()
{
    usePrivateSessionFallbacks();
    answerUnexpectedSaveDialogs();
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(testOrganization(QCoreApplication::applicationDirPath()));
    QCoreApplication::setApplicationName(
        QStringLiteral("SliceScopeTests-") +
        QFileInfo(QCoreApplication::applicationFilePath()).completeBaseName());
    QSettings().clear();
    QDir(ss::ui::SessionGuard::directory()).removeRecursively();
}

/// Waits, processing events, until the newest evaluation and the views' background work are on
/// screen.
[[nodiscard]] inline bool waitSettled(const ss::ui::MainWindow& window, int timeoutMs = 20000)
{
    return QTest::qWaitFor([&] { return window.isSettled(); }, timeoutMs);
}

/// Shows `window` (at `size`, if one is given) and waits until it is on screen and its newest
/// evaluation settled: how the workbench suites start a window.
[[nodiscard]] inline bool showSettled(ss::ui::MainWindow& window, QSize size = {},
                                      int timeoutMs = 20000)
{
    if (size.isValid()) window.resize(size);
    window.show();
    return QTest::qWaitForWindowExposed(&window) && waitSettled(window, timeoutMs);
}

/// Picks `op` in the window's op picker, as choosing it from the list does (activated).
inline void pickOp(ss::ui::MainWindow& window, const QString& op)
{
    auto* picker = window.findChild<QComboBox*>(QStringLiteral("opPicker"));
    picker->setCurrentIndex(picker->findData(op));
    emit picker->activated(picker->currentIndex());
}

inline ss::ui::Workspace getitemWorkspace(const Shape& shape, const QString& expr,
                                          DType dtype = DType::Int32)
{
    ss::ui::Workspace ws;
    ws.inputs.front().front().shape = shape;
    ws.inputs.front().front().dtype = dtype;
    ws.attrs = {{"expr", Attr(expr.toStdString())}};
    return ws;
}

/// The input elements a view lights, ordered by the read order the model reports.
inline std::vector<std::int64_t> litInReadOrder(const ss::ui::TensorModel& model)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> lit;
    for (std::int64_t i = 0; i < model.tensor().size(); ++i) {
        const qint64 order =
            model.data(model.indexOfFlat(i), ss::ui::TensorModel::ReadOrderRole).toLongLong();
        if (order >= 0) lit.emplace_back(order, i);
    }
    std::sort(lit.begin(), lit.end());
    std::vector<std::int64_t> flats;
    for (const auto& entry : lit)
        flats.push_back(entry.second);
    return flats;
}

/// The elements a view outlines.
inline std::vector<std::int64_t> outlined(const ss::ui::TensorModel& model)
{
    std::vector<std::int64_t> flats;
    for (std::int64_t i = 0; i < model.tensor().size(); ++i)
        if (model.data(model.indexOfFlat(i), ss::ui::TensorModel::OutlinedRole).toBool())
            flats.push_back(i);
    return flats;
}

/// The suites that check the window on a screen of a given size (tst_screensizes,
/// tst_windowsizes) run each screen in a child process of their own executable, since the
/// screen and QT_SCALE_FACTOR are fixed when the application starts. The child finds the screen's
/// name in this variable.
inline const char* const kScreenVariable = "SLICESCOPE_TEST_SCREEN";

/// The name a child process runs under, "WIDTHxHEIGHT-scaleS" (empty in the parent).
inline QString screenUnderTest()
{
    return qEnvironmentVariable(kScreenVariable);
}

/// The environment of a `slicescope` started as a new user would: offscreen, with `home` as its
/// home and its settings and autosaves there, none of the test's own.
inline QProcessEnvironment newUserEnvironment(const QString& home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    return env;
}

/// Runs this executable again on an offscreen screen of `size` pixels at `scale`, with `extra`
/// variables set; the child's exit code says how many problems it found (0: none). Returns
/// whether it exited cleanly with 0; `output` gets what it printed.
inline bool runOnScreen(const QSize& size, const QString& scale, QByteArray* output,
                        const QProcessEnvironment& extra = {})
{
    QTemporaryDir dir;
    if (!dir.isValid()) return false;
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly)) return false;
    file.write(QStringLiteral(R"({"screens": [{"name": "test", "x": 0, "y": 0, "width": %1,
        "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                   .arg(size.width())
                   .arg(size.height())
                   .toUtf8());
    file.close();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=") + config);
    env.insert(QStringLiteral("QT_SCALE_FACTOR"), scale);
    env.insert(QLatin1String(kScreenVariable),
               QStringLiteral("%1x%2-scale%3").arg(size.width()).arg(size.height()).arg(scale));
    env.insert(extra);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    const bool finished = child.waitForFinished(120000);
    *output = child.readAllStandardOutput() + child.readAllStandardError();
    return finished && child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0;
}

/// In a child: counts the problems found on this screen, printing each.
struct ScreenProblems
{
    QString screen = screenUnderTest();
    int count = 0;
    void operator()(const QString& what)
    {
        std::fprintf(stderr, "%s: %s\n", qPrintable(screen), qPrintable(what));
        ++count;
    }
};

/// In a child: a clean environment and the window shown on the screen at the size it chooses,
/// without autosaves or recovery offers.
inline void showOnScreen(ss::ui::MainWindow& w, ScreenProblems& fail)
{
    w.forgetSession();
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) fail(QStringLiteral("the window is never shown"));
}

} // namespace ss::testing
