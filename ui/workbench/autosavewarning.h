// SPDX-License-Identifier: GPL-3.0-or-later
// The warning above the editors while no autosave can be written anywhere (a read-only or full
// home): the user must know that a crash now would lose the work, and where the autosave was
// tried.
#pragma once

#include <QLabel>

namespace ss::ui {

class SessionGuard;

class AutosaveWarning : public QLabel
{
    Q_OBJECT
public:
    /// Follows `session`'s protection; hidden while it is protected or disabled.
    explicit AutosaveWarning(SessionGuard* session, QWidget* parent = nullptr);

private:
    void showProblem(const QString& problem);

    SessionGuard* m_session;
};

} // namespace ss::ui
