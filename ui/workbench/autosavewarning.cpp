// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/autosavewarning.h"

#include "ui/workbench/sessionguard.h"

namespace ss::ui {

AutosaveWarning::AutosaveWarning(SessionGuard* session, QWidget* parent)
    : QLabel(parent), m_session(session)
{
    setObjectName(QStringLiteral("autosaveWarning"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setStyleSheet(QStringLiteral("#autosaveWarning { background-color: #fde2e1; "
                                 "color: #5c0f0b; border: 1px solid #e08a85; "
                                 "border-radius: 4px; padding: 4px; }"));
    showProblem(m_session->problem());
    connect(m_session, &SessionGuard::protectionChanged, this, &AutosaveWarning::showProblem);
}

void AutosaveWarning::showProblem(const QString& problem)
{
    setText(problem);
    setVisible(!problem.isEmpty() && m_session->isEnabled());
}

} // namespace ss::ui
