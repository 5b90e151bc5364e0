// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/editorarea.h"

#include "ui/workbench/autosavewarning.h"
#include "ui/workbench/lessonbanner.h"
#include "ui/workbench/messagestrip.h"
#include "ui/workbench/opeditorhost.h"
#include "ui/workbench/recoverystrip.h"

#include <QVBoxLayout>

namespace ss::ui {

namespace {

/// The error strip always holds this many lines, so an error never moves the editors.
constexpr int kMessageLines = 2;

} // namespace

EditorArea::EditorArea(WorkspaceDocument* document, EngineClient* engine, SessionGuard* session,
                       std::function<bool()> resultIsGood, QWidget* parent)
    : QWidget(parent), m_banner(new LessonBanner), m_recovery(new RecoveryStrip(document, engine)),
      m_autosave(new AutosaveWarning(session)), m_message(new MessageStrip(kMessageLines)),
      m_host(new OpEditorHost(document, std::move(resultIsGood)))
{
    setObjectName(QStringLiteral("editorArea"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(m_recovery);
    layout->addWidget(m_autosave);
    layout->addWidget(m_message);
    layout->addWidget(m_host, 1);
}

} // namespace ss::ui
