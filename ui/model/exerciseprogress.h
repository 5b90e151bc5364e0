// SPDX-License-Identifier: GPL-3.0-or-later
// Which exercises this user has solved: a JSON file in QStandardPaths::AppDataLocation
// ({"solved":["name",...]}, read and written by the protocol's JSON like every other file),
// written atomically after every change. A file that does not read
// is the student's work all the same: it is kept aside, never overwritten.
#pragma once

#include <QString>

#include <set>

namespace ss::ui {

class ExerciseProgress
{
public:
    /// Reads the file at `path` (default: defaultPath()) under the app's file rule (a regular
    /// file, at most maxTextFileBytes()). A missing file is no progress. One that is there but
    /// does not read (corrupt, unreadable, a FIFO or device, too big) is renamed aside to a name
    /// not taken yet (defaultPath() + ".unreadable-1", -2, ...), never overwritten, and
    /// problem() says so; the next save starts a fresh file. If it cannot be moved aside, saves
    /// are refused rather than replace it.
    explicit ExerciseProgress(QString path = defaultPath());
    static QString defaultPath();

    /// Why the file did not read and where it was kept, for the window; "" if it read.
    const QString& problem() const { return m_problem; }

    bool isSolved(const QString& name) const { return m_solved.count(name) != 0; }
    const std::set<QString>& solved() const { return m_solved; }
    /// Marks `name` solved and saves. Returns "" or why the file could not be written.
    QString markSolved(const QString& name);
    /// Forgets everything and saves.
    QString reset();
    const QString& path() const { return m_path; }

private:
    QString save() const;

    QString m_path;
    QString m_problem;
    bool m_blocked = false; ///< an unreadable file could not be moved aside: never save over it
    std::set<QString> m_solved;
};

} // namespace ss::ui
