// SPDX-License-Identifier: GPL-3.0-or-later
// What the message strip and the title say. The strip shows the most current of: an attribute
// field that does not parse, the shown evaluation's error, a start error or an opened file's note
// (WorkspaceDocument::noted) that still holds, and when there is none of these the session's
// notices. Errors show as errors; a file's note, a cancelled evaluation and the notices as notes.
// The title names the file, else the lesson, else "Untitled", and a start file that could not be
// opened.
#pragma once

#include "ui/workbench/messagestrip.h"

#include <QObject>
#include <QStringList>

class QMainWindow;

namespace ss::ui {

struct Evaluation;
class WorkspaceDocument;

class WindowMessages : public QObject
{
    Q_OBJECT
public:
    /// Speaks through `strip` and `window`'s title (with its unsaved-changes marker) about
    /// `document`.
    WindowMessages(QMainWindow& window, WorkspaceDocument* document, MessageStrip* strip);

    /// Shows the error `html` now (until the next state change); empty shows the notices.
    void show(const QString& html);
    /// Shows plain `text` (failed file operations).
    void showError(const QString& text);
    /// A notice that stays for the session, shown whenever no error is.
    void showNotice(const QString& text);
    /// A command-line request that failed; holds until the first edit. For a file (`file` not
    /// empty) the title names it as not opened.
    void showStartError(const QString& text, const QString& file);
    /// The error of a command-line file that did not open (plain text), until the first edit;
    /// empty otherwise. `slicescope --screenshot` asks it once the window has settled (a model
    /// file is read after the window is up).
    QString fileStartError() const { return m_fileStartError; }
    /// The op editor's attribute fields that do not read (HTML, empty when all do).
    void setUnreadable(const QString& html);
    /// A new op editor: nothing unreadable, the strip left as it is until the next state.
    void resetUnreadable() { m_unreadable.clear(); }
    /// The evaluation was cancelled: the views show the last result.
    void showCancelled();
    /// The evaluation on show: its error, if it failed, is the strip's text.
    void setEvaluation(const Evaluation& eval);
    /// The message strip's text, empty when hidden.
    QString message() const;
    void updateTitle();

private:
    /// The strip for the newest state.
    void showCurrent();
    /// Shows `html` of `kind` now; empty shows the notices.
    void showAs(const QString& html, MessageStrip::Kind kind);
    /// Shows `html` until the first edit (a start error, an opened file's note), opening the
    /// strip to show it whole.
    void showUntilEdit(const QString& html, MessageStrip::Kind kind);

    QMainWindow& m_window;
    WorkspaceDocument* m_document;
    MessageStrip* m_strip;
    QStringList m_notices; ///< HTML, shown when no error is
    QString m_untilEdit;   ///< a start error or a file's note, which holds until the first edit
    MessageStrip::Kind m_untilEditKind = MessageStrip::Kind::Error;
    QString m_notOpened;      ///< the start file that did not open, for the title
    QString m_fileStartError; ///< why it did not open
    QString m_unreadable;     ///< the op editor's attribute fields that do not read, why
    QString m_evalMessage;    ///< the shown evaluation's error
};

} // namespace ss::ui
