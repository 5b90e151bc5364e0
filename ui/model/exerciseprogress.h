// SPDX-License-Identifier: GPL-3.0-or-later
// Which exercises this user has solved: a JSON file in QStandardPaths::AppDataLocation
// ({"solved": ["name", ...]}), written atomically after every change.
#pragma once

#include <QString>

#include <set>

namespace ss::ui {

class ExerciseProgress
{
public:
    /// Reads the file at `path` (default: defaultPath()); a missing file is no progress, one that
    /// does not read is kept aside untouched until the next save replaces it (with a warning).
    explicit ExerciseProgress(QString path = defaultPath());
    static QString defaultPath();

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
    std::set<QString> m_solved;
};

} // namespace ss::ui
