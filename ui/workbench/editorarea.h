// SPDX-License-Identifier: GPL-3.0-or-later
// The top of the window, above the views: the lesson banner, the offer to recover a session,
// the autosave warning, the message strip and the op's editor, in that order.
#pragma once

#include <QWidget>

#include <functional>

namespace ss::ui {

class AutosaveWarning;
class EngineClient;
class LessonBanner;
class MessageStrip;
class OpEditorHost;
class RecoveryStrip;
class SessionGuard;
class WorkspaceDocument;

class EditorArea : public QWidget
{
    Q_OBJECT
public:
    /// The strips speak for `session` and recover into `document` within `engine`'s limits;
    /// the op editor's edits go to `document` (`resultIsGood` as OpEditorHost takes it).
    EditorArea(WorkspaceDocument* document, EngineClient* engine, SessionGuard* session,
               std::function<bool()> resultIsGood, QWidget* parent = nullptr);

    LessonBanner* banner() const { return m_banner; }
    RecoveryStrip* recovery() const { return m_recovery; }
    AutosaveWarning* autosaveWarning() const { return m_autosave; }
    MessageStrip* messageStrip() const { return m_message; }
    OpEditorHost* editorHost() const { return m_host; }

private:
    LessonBanner* m_banner;
    RecoveryStrip* m_recovery;
    AutosaveWarning* m_autosave;
    MessageStrip* m_message;
    OpEditorHost* m_host;
};

} // namespace ss::ui
