// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the workbench suites: a clean per-test environment and waiting on the window.
#pragma once

#include "core/op.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/sessionguard.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

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
/// executable): ctest runs suites in parallel, and one suite's clean start must not wipe the
/// settings and autosaves of another that is running.
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

inline void useCleanTestEnvironment()
{
    usePrivateSessionFallbacks();
    answerUnexpectedSaveDialogs();
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("SliceScopeTests"));
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

} // namespace ss::testing
