// SPDX-License-Identifier: GPL-3.0-or-later
// The offer, above the editors, to recover the work of a session that ended without closing
// (killed, crashed): Recover makes its autosave this window's unsaved work, Discard deletes it.
#pragma once

#include <QWidget>

class QLabel;

namespace ss::ui {

class EngineClient;
class SessionGuard;
class WorkspaceDocument;

class RecoveryStrip : public QWidget
{
    Q_OBJECT
public:
    /// Recovered work goes into `document`, read within `engine`'s limits.
    RecoveryStrip(WorkspaceDocument* document, EngineClient* engine, QWidget* parent = nullptr);

    /// Shows the offer if `session` finds a session that ended without closing.
    void offer(SessionGuard* session);

signals:
    /// The autosave could not be read (`html` says why); it is kept for another try.
    void failed(const QString& html);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void recover();
    void discard();

    WorkspaceDocument* m_document;
    EngineClient* m_engine;
    SessionGuard* m_session = nullptr;
    QLabel* m_text;
    QString m_path; ///< the lost session's autosave
};

} // namespace ss::ui
