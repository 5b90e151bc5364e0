// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/sessionguard.h"

#include "core/error.h"
#include "core/executor.h"
#include "protocol/atomic_file.h"
#include "ui/model/workspacefile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QSysInfo>
#include <QUuid>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ss::ui {

namespace {

constexpr int kAutosaveDelayMs = 2000;

QString lockPathOf(const QString& autosavePath)
{
    QString base = autosavePath;
    base.chop(int(QStringLiteral(".json").size()));
    return base + QStringLiteral(".lock");
}

/// The lock file opened and locked (flock: held by an open file, whatever the process id, and
/// released by the kernel when the process dies, kill -9 included); -1 if another open file
/// holds it or it cannot be opened.
int lockFile(const QString& path, bool create)
{
    const QByteArray name = QFile::encodeName(path);
    const int fd = ::open(name.constData(), O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
    if (fd < 0) return -1;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/// `directory` exists, is a folder (not a link to one) of this user's, and not everyone may write
/// in it.
bool isOwnFolder(const QString& directory)
{
    struct stat st;
    if (::lstat(QFile::encodeName(directory).constData(), &st) != 0) return false;
    return S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() && (st.st_mode & S_IWOTH) == 0;
}

bool isLive(const QString& lockPath)
{
    if (!QFile::exists(lockPath)) return false; // removed, or never made: nobody holds it
    const int fd = lockFile(lockPath, false);
    if (fd < 0) return QFile::exists(lockPath); // held (or gone between the two looks)
    ::close(fd);
    return false;
}

QStringList& testDirectories()
{
    static QStringList directories;
    return directories;
}

/// Makes `dir` (mode 0700) if needed; "" or the reason it cannot hold autosaves. A directory in
/// a shared place (the temporary directory) must be this user's own and not a link.
QString prepareDirectory(const QString& dir)
{
    const QByteArray name = QFile::encodeName(dir);
    QDir().mkpath(QFileInfo(dir).absolutePath()); // the mkdir below says why if this failed
    if (::mkdir(name.constData(), 0700) != 0 && errno != EEXIST)
        return QString::fromLocal8Bit(std::strerror(errno));
    struct stat st;
    if (::lstat(name.constData(), &st) != 0) return QString::fromLocal8Bit(std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) return QObject::tr("not a directory");
    if (st.st_uid != ::geteuid()) return QObject::tr("owned by another user");
    return {};
}

} // namespace

QString SessionGuard::Shared::lockIn(int k)
{
    if (lockFds[std::size_t(k)] >= 0) return {};
    const QString dir = directories[k];
    if (QString why = prepareDirectory(dir); !why.isEmpty()) return why;
    const QString path = dir + QStringLiteral("/session-") + launchId + QStringLiteral(".lock");
    const int fd = lockFile(path, true);
    if (fd < 0) return QString::fromLocal8Bit(std::strerror(errno));
    // For people looking at the directory (pid and host); the lock itself is what counts.
    const QByteArray who = QByteArray::number(QCoreApplication::applicationPid()) + '\n' +
                           QSysInfo::machineHostName().toUtf8() + '\n';
    // Only informative: the lock holds without it, so a failed write changes nothing.
    [[maybe_unused]] const ssize_t written = ::write(fd, who.constData(), std::size_t(who.size()));
    lockFds[std::size_t(k)] = fd;
    return {};
}

QString SessionGuard::Shared::autosaveIn(int k) const
{
    return directories[k] + QStringLiteral("/session-") + launchId + QStringLiteral(".json");
}

void SessionGuard::Shared::removeAutosavesBut(int keep) const
{
    for (int k = 0; k < directories.size(); ++k)
        if (k != keep) QFile::remove(autosaveIn(k));
}

void SessionGuard::Shared::releaseLocks()
{
    for (std::size_t k = 0; k < lockFds.size(); ++k)
        if (lockFds[k] >= 0) {
            ::unlink(QFile::encodeName(lockPathOf(autosaveIn(int(k)))).constData());
            ::close(lockFds[k]);
            lockFds[k] = -1;
        }
}

SessionGuard::Shared::~Shared()
{
    releaseLocks(); // those a job still waiting when the window closed took again
}

SessionGuard::SessionGuard(std::shared_ptr<Executor> pool, std::function<bool()> unsaved,
                           std::function<Workspace()> workspace, QObject* parent)
    : QObject(parent), m_pool(std::move(pool)), m_unsaved(std::move(unsaved)),
      m_workspace(std::move(workspace)),
      m_launchId(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    Shared& shared = *m_shared;
    shared.launchId = m_launchId;
    shared.directories = directories();
    shared.lockFds.assign(std::size_t(shared.directories.size()), -1);
    shared.guard = this;
    // The lock goes where the first autosave will: the first place that takes it.
    QStringList tried;
    for (int k = 0; k < shared.directories.size(); ++k) {
        const QString why = shared.lockIn(k);
        if (why.isEmpty()) {
            shared.path = shared.autosaveIn(k);
            break;
        }
        tried << QStringLiteral("%1 (%2)").arg(shared.directories[k], why);
    }
    if (shared.path.isEmpty()) {
        shared.path = shared.autosaveIn(0);
        shared.problem = tr("Your work is not being protected: no autosave can be made in %1.")
                             .arg(tried.join(QStringLiteral(", ")));
    }
    m_autosavePath = shared.path;
    m_problem = shared.problem;
    m_timer.setSingleShot(true);
    m_timer.setInterval(kAutosaveDelayMs);
    connect(&m_timer, &QTimer::timeout, this, [this] { write(false); });
}

SessionGuard::~SessionGuard()
{
    m_timer.stop();
    m_shared->guard = nullptr;
    std::lock_guard lock(m_shared->mutex);
    m_shared->releaseLocks();
}

QString SessionGuard::directory()
{
    if (!testDirectories().isEmpty()) return testDirectories().front();
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/sessions");
}

QStringList SessionGuard::directories()
{
    if (!testDirectories().isEmpty()) return testDirectories();
    QStringList dirs{directory()};
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo(runtime).isAbsolute())
        dirs << runtime + QStringLiteral("/slicescope-sessions");
    dirs << QDir::tempPath() + QStringLiteral("/slicescope-sessions-%1").arg(::geteuid());
    return dirs;
}

void SessionGuard::setDirectoriesForTesting(const QStringList& directories)
{
    testDirectories() = directories;
}

void SessionGuard::workspaceChanged()
{
    if (m_enabled) m_timer.start();
}

void SessionGuard::autosaveNow()
{
    m_timer.stop();
    write(true);
    publish();
}

void SessionGuard::publish()
{
    QString path, problem;
    {
        std::lock_guard lock(m_shared->mutex);
        path = m_shared->path;
        problem = m_shared->problem;
    }
    m_autosavePath = path;
    if (problem == m_problem) return;
    m_problem = problem;
    emit protectionChanged(problem);
}

void SessionGuard::write(bool wait)
{
    if (!m_enabled) return;
    const std::shared_ptr<Shared> shared = m_shared;
    if (!m_unsaved()) {
        // Nothing to lose (saved, or undone back to the saved state): no autosave to offer.
        std::lock_guard lock(shared->mutex);
        shared->removeAutosavesBut(-1);
        return;
    }
    const Workspace ws = m_workspace();
    // Writing a workspace with millions of cells takes a while: never on the GUI thread.
    // A newer autosave of this session replaces an older one still waiting (and only this
    // session's: the pool may be shared by several windows).
    const std::string consumer = "autosave-" + m_launchId.toStdString();
    const auto job = m_pool->submit(consumer, [ws, shared](JobContext&) {
        std::string text;
        try {
            text = workspaceFileText(ws);
        } catch (const OpError&) {
            return; // an unfinished literal cannot be written; the previous autosave stays
        }
        std::lock_guard lock(shared->mutex);
        if (shared->finished) return; // the user has decided meanwhile
        // The best place first, every time: a disk that had filled up may have room again.
        QStringList tried;
        bool written = false;
        for (int k = 0; k < shared->directories.size() && !written; ++k) {
            const QString path = shared->autosaveIn(k);
            QString why = shared->lockIn(k);
            if (why.isEmpty()) why = QString::fromStdString(writeFileAtomically(path, text));
            if (!why.isEmpty()) {
                tried << QStringLiteral("%1: %2").arg(path, why);
                continue;
            }
            written = true;
            shared->removeAutosavesBut(k); // an older one elsewhere would be offered later
            shared->path = path;
            shared->problem.clear();
        }
        if (!written)
            shared->problem = QObject::tr("Your work is not being protected: the autosave could "
                                          "not be written to %1.")
                                  .arg(tried.join(QStringLiteral("; ")));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [shared] {
                if (SessionGuard* guard = shared->guard) guard->publish();
            },
            Qt::QueuedConnection);
    });
    if (wait) job->wait();
}

void SessionGuard::finish()
{
    m_timer.stop();
    std::lock_guard lock(m_shared->mutex);
    m_shared->finished = true;
    m_shared->removeAutosavesBut(-1);
}

void SessionGuard::disable()
{
    m_enabled = false;
    m_timer.stop();
}

std::optional<SessionGuard::LostSession> SessionGuard::findLostSession() const
{
    std::optional<LostSession> newest;
    // Every place an autosave may have gone: a session whose home was full saved elsewhere.
    for (const QString& directory : directories()) {
        const QDir dir(directory);
        // The temporary folder is everyone's: a folder or file another user made there under
        // this user's name is never offered as this user's lost work.
        if (!isOwnFolder(directory)) continue;
        for (const QFileInfo& info :
             dir.entryInfoList({QStringLiteral("session-*.json")}, QDir::Files)) {
            const QString path = info.absoluteFilePath();
            if (info.ownerId() != ::geteuid()) continue;
            if (info.fileName() == QStringLiteral("session-%1.json").arg(m_launchId)) continue;
            if (isLive(lockPathOf(path))) continue; // its session is running: its work, not lost
            if (!newest || info.lastModified() > newest->savedAt)
                newest = LostSession{path, info.lastModified()};
        }
    }
    return newest;
}

bool SessionGuard::removeLostSession(const QString& autosavePath) const
{
    const QString lockPath = lockPathOf(autosavePath);
    // Hold the dead session's lock while removing, so that it cannot be taken for another's.
    const int fd = lockFile(lockPath, true);
    if (fd < 0) return false;
    const bool removed = QFile::remove(autosavePath) || !QFile::exists(autosavePath);
    ::unlink(QFile::encodeName(lockPath).constData());
    ::close(fd);
    return removed;
}

} // namespace ss::ui
