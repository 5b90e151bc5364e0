// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/recoverystrip.h"

#include "core/error.h"
#include "ui/model/engineclient.h"
#include "ui/model/workspacefile.h"
#include "ui/views/palette.h"
#include "ui/workbench/sessionguard.h"
#include "ui/workbench/workspacedocument.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace ss::ui {

RecoveryStrip::RecoveryStrip(WorkspaceDocument* document, EngineClient* engine, QWidget* parent)
    : QWidget(parent), m_document(document), m_engine(engine)
{
    setObjectName(QStringLiteral("recoveryStrip"));
    // A plain QWidget paints no style-sheet background unless asked to.
    setAttribute(Qt::WA_StyledBackground);
    followTheme(this, [this] {
        setStyleSheet(QStringLiteral("#recoveryStrip { background-color: %1; border: 1px solid "
                                     "%2; border-radius: 4px; } #recoveryStrip QLabel { color: "
                                     "%3; }")
                          .arg(styleColor(ColorRole::NoticeTint),
                               styleColor(ColorRole::NoticeBorder),
                               QGuiApplication::palette().color(QPalette::Text).name()));
    });
    m_text = new QLabel;
    m_text->setObjectName(QStringLiteral("recoveryText"));
    m_text->setWordWrap(true);
    auto* recover = new QPushButton(tr("Recover"));
    recover->setObjectName(QStringLiteral("recoverSession"));
    recover->setAccessibleName(tr("Recover the unsaved session"));
    auto* discard = new QPushButton(tr("Discard"));
    discard->setObjectName(QStringLiteral("discardSession"));
    discard->setAccessibleName(tr("Discard the unsaved session"));
    // The buttons under the text, which keeps the strip's width: beside it, in the default
    // 752 px window, they left the text 101 px and seven lines.
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(recover);
    buttons->addWidget(discard);
    layout->addLayout(buttons);
    hide();
    connect(recover, &QPushButton::clicked, this, &RecoveryStrip::recover);
    connect(discard, &QPushButton::clicked, this, &RecoveryStrip::discard);
}

void RecoveryStrip::offer(SessionGuard* session)
{
    if (!session->isEnabled()) return;
    const auto lost = session->findLostSession();
    if (!lost) return;
    m_session = session;
    m_path = lost->autosavePath;
    m_text->setText(tr("A SliceScope session ended without closing on %1. Recover its "
                       "workspace?")
                        .arg(QLocale().toString(lost->savedAt, QLocale::ShortFormat)));
    show();
}

void RecoveryStrip::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The editors above and below ask for their least heights, a wrapped text for none of its
    // lines: the strip asks for them, or the editors under it are laid over each other.
    const int lines = m_text->heightForWidth(m_text->width());
    if (lines > 0 && m_text->minimumHeight() != lines) m_text->setMinimumHeight(lines);
}

void RecoveryStrip::recover()
{
    hide();
    try {
        // Recovered work is unsaved work of this session now: untitled, modified, and in this
        // session's autosave before the dead session's file goes.
        const Workspace ws = readWorkspaceFile(m_path, m_document->workspace(), m_engine->limits());
        m_document->forgetFile();
        m_document->edit(ws, tr("Recover the unsaved session"));
        m_session->autosaveNow();
    } catch (const OpError& e) {
        emit failed(tr("The unsaved session could not be read: %1")
                        .arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
        return; // kept, for another try or a look by hand
    }
    m_session->removeLostSession(m_path);
}

void RecoveryStrip::discard()
{
    m_session->removeLostSession(m_path);
    hide();
}

} // namespace ss::ui
