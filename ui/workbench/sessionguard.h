// SPDX-License-Identifier: GPL-3.0-or-later
// No work lost: while a session has unsaved work, its workspace is autosaved under a name of its
// own launch (a random id, never the process id, which repeats in PID namespaces such as
// Flatpak's), beside a lock file the session holds with an OS lock for its whole life. A later
// start offers the autosave of a session that holds no lock any more: one that was killed or
// crashed before the user decided what to do with the work. No session touches another live
// session's files. When the per-user data directory cannot take the autosave (read-only, full),
// the next place the platform allows is tried (the runtime directory, then the temporary
// directory), later starts look for lost work in all of them, and while no place takes it the
// window is told that the work is not being protected, and where it was tried.
#pragma once

#include "ui/model/workspace.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace ss {
class Executor;
}

namespace ss::ui {

class SessionGuard : public QObject
{
    Q_OBJECT
public:
    /// A session that ended without deciding about its work.
    struct LostSession
    {
        QString autosavePath;
        QDateTime savedAt;
    };

    /// `pool` writes the autosaves (a big workspace takes a while to write), `unsaved` says
    /// whether there is work to keep, `workspace` is what to keep.
    SessionGuard(std::shared_ptr<Executor> pool, std::function<bool()> unsaved,
                 std::function<Workspace()> workspace, QObject* parent = nullptr);
    /// Removes the lock; the autosave stays unless the work was decided about or there is none.
    ~SessionGuard() override;

    /// Where autosaves and locks go first (a per-user data directory).
    static QString directory();
    /// Every place an autosave may go, best first: directory(), then "slicescope-sessions" in
    /// $XDG_RUNTIME_DIR (when set), then "slicescope-sessions-UID" in the temporary directory.
    static QStringList directories();
    /// Tests: these places instead of the platform's (an empty list restores them).
    static void setDirectoriesForTesting(const QStringList& directories);

    /// This launch's id (a random UUID) and autosave file (where the last autosave went, or
    /// would go).
    QString launchId() const { return m_launchId; }
    QString autosavePath() const { return m_autosavePath; }
    /// Empty while the work is protected; otherwise why it is not, naming every place tried
    /// ("... could not be written to /home/a/.local/share/SliceScope/sessions/session-....json:
    /// No space left on device; ...").
    QString problem() const { return m_problem; }

signals:
    /// problem() changed (an autosave failed everywhere, or worked again).
    void protectionChanged(const QString& problem);

public:
    /// Call after every change: the workspace is saved a little later, or the autosave removed
    /// when nothing is unsaved any more (after Save, or undo back to the saved state).
    void workspaceChanged();
    /// Writes (or removes) the autosave now, waiting for the write (tests, and before quitting).
    void autosaveNow();
    /// The user has decided about the work (saved it, discarded it, or there was none): the
    /// autosave goes.
    void finish();
    /// Neither autosaves nor offers anything (screenshots, benchmarks).
    void disable();
    bool isEnabled() const { return m_enabled; }

    /// The newest autosave of a session that holds no lock (dead), if any: only a file of this
    /// user's, in a folder of this user's that not everyone may write in.
    std::optional<LostSession> findLostSession() const;
    /// Removes a lost session's autosave (after it was recovered or discarded), and only if that
    /// session is still not running. False if it was not removed.
    bool removeLostSession(const QString& autosavePath) const;

private:
    void write(bool wait);
    /// Takes the newest path and problem from the writing jobs (on the GUI thread).
    void publish();

    std::shared_ptr<Executor> m_pool; ///< the workbench's shared pool, kept while the guard lives
    std::function<bool()> m_unsaved;
    std::function<Workspace()> m_workspace;
    QString m_launchId;
    QString m_autosavePath;
    QString m_problem;
    bool m_enabled = true;
    QTimer m_timer;
    /// Shared with the writing jobs (under `mutex`): finish() and a late write never cross.
    struct Shared
    {
        std::mutex mutex;
        bool finished = false;
        QString launchId;
        QStringList directories;      ///< where autosaves may go, best first
        std::vector<int> lockFds;     ///< per directory: this session's lock there, or -1
        QString path;                 ///< where the last autosave went (or the first place to try)
        QString problem;              ///< why the work is not protected; empty while it is
        QPointer<SessionGuard> guard; ///< read and written on the GUI thread only
        /// This session's lock in directory k (made if needed); "" or the reason it cannot be.
        QString lockIn(int k);
        QString autosaveIn(int k) const;
        void removeAutosavesBut(int keep) const;
        void releaseLocks();
        ~Shared();
    };
    std::shared_ptr<Shared> m_shared = std::make_shared<Shared>();
};

} // namespace ss::ui
