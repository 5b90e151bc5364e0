// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/windowmessages.h"

#include "core/error.h"
#include "ui/model/engineclient.h"
#include "ui/workbench/messagestrip.h"
#include "ui/workbench/workspacedocument.h"

#include <QFileInfo>
#include <QMainWindow>
#include <QUndoStack>

namespace ss::ui {

WindowMessages::WindowMessages(QMainWindow& window, WorkspaceDocument* document,
                               MessageStrip* strip)
    : QObject(&window), m_window(window), m_document(document), m_strip(strip)
{
    connect(m_document, &WorkspaceDocument::aboutToChange, this, [this] {
        // The user works on what is on show now: a start error or a note has been read.
        m_untilEdit.clear();
        m_notOpened.clear();
        m_fileStartError.clear();
    });
    connect(m_document, &WorkspaceDocument::fileChanged, this, &WindowMessages::updateTitle);
    connect(m_document, &WorkspaceDocument::noted, this, [this](const QString& text) {
        showUntilEdit(text.toHtmlEscaped(), MessageStrip::Kind::Note);
    });
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this,
            [this](bool clean) { m_window.setWindowModified(!clean); });
}

void WindowMessages::show(const QString& html)
{
    showAs(html, MessageStrip::Kind::Error);
}

void WindowMessages::showAs(const QString& html, MessageStrip::Kind kind)
{
    if (html.isEmpty())
        m_strip->setMessage(m_notices.join(QStringLiteral("<br>")), MessageStrip::Kind::Note);
    else
        m_strip->setMessage(html, kind);
}

void WindowMessages::showError(const QString& text)
{
    show(text.toHtmlEscaped());
}

void WindowMessages::showNotice(const QString& text)
{
    // An error on show stays; the notices show when it goes.
    const QString shown = m_notices.join(QStringLiteral("<br>"));
    m_notices << text.toHtmlEscaped();
    if (m_strip->message() == shown) show(QString());
}

void WindowMessages::showStartError(const QString& text, const QString& file)
{
    QString html = text.toHtmlEscaped();
    if (!file.isEmpty()) {
        if (!text.trimmed().endsWith(u'.')) html += u'.';
        html += tr(" Nothing was opened: the window shows a new, untitled workspace.");
        m_notOpened = file;
        m_fileStartError = text;
    }
    updateTitle();
    showUntilEdit(html, MessageStrip::Kind::Error);
}

void WindowMessages::showUntilEdit(const QString& html, MessageStrip::Kind kind)
{
    m_untilEdit = html;
    m_untilEditKind = kind;
    showCurrent();
    // The first thing the user reads, and nothing on screen says it otherwise: whole, not cut
    // to the strip's two lines (at 1024 x 700 it read "...a new, untitle…").
    if (m_strip->message() == m_untilEdit) m_strip->setExpanded(true);
}

void WindowMessages::showCancelled()
{
    showAs(tr("Evaluation cancelled. The views show the last result; any edit evaluates again."),
           MessageStrip::Kind::Note);
}

void WindowMessages::setUnreadable(const QString& html)
{
    m_unreadable = html;
    showCurrent();
}

void WindowMessages::setEvaluation(const Evaluation& eval)
{
    // The views say themselves that they show an older result (and which).
    m_evalMessage = eval.ok ? QString()
                            : QStringLiteral("<b>%1</b>: %2")
                                  .arg(QString::fromLatin1(errorCodeName(eval.code).data()),
                                       eval.message.toHtmlEscaped());
    showCurrent();
}

QString WindowMessages::message() const
{
    return m_strip->message();
}

void WindowMessages::showCurrent()
{
    // What the editors show now comes first: a field that does not parse makes an error about
    // the value it held before out of date.
    if (!m_unreadable.isEmpty())
        show(m_unreadable + tr(" (the views show the last good result)"));
    else if (!m_evalMessage.isEmpty())
        show(m_evalMessage);
    else
        showAs(m_untilEdit, m_untilEditKind);
}

void WindowMessages::updateTitle()
{
    // The file, else the lesson, else "Untitled"; "[*]" shows the unsaved-changes marker.
    QString name = m_document->displayName();
    if (m_document->filePath().isEmpty() && !m_notOpened.isEmpty())
        name = tr("%1 (%2 could not be opened)").arg(name, QFileInfo(m_notOpened).fileName());
    m_window.setWindowTitle(tr("%1[*] — SliceScope").arg(name));
}

} // namespace ss::ui
