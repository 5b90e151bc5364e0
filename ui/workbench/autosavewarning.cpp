// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/autosavewarning.h"

#include "ui/views/palette.h"
#include "ui/workbench/sessionguard.h"

#include <QGuiApplication>

namespace ss::ui {

AutosaveWarning::AutosaveWarning(SessionGuard* session, QWidget* parent)
    : QLabel(parent), m_session(session)
{
    setObjectName(QStringLiteral("autosaveWarning"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    followTheme(this, [this] {
        setStyleSheet(QStringLiteral("#autosaveWarning { background-color: %1; color: %2; "
                                     "border: 1px solid %3; border-radius: 4px; padding: 4px; }")
                          .arg(styleColor(ColorRole::ErrorTint),
                               QGuiApplication::palette().color(QPalette::Text).name(),
                               styleColor(ColorRole::ErrorBorder)));
    });
    showProblem(m_session->problem());
    connect(m_session, &SessionGuard::protectionChanged, this, &AutosaveWarning::showProblem);
}

void AutosaveWarning::showProblem(const QString& problem)
{
    setText(problem);
    setVisible(!problem.isEmpty() && m_session->isEnabled());
}

} // namespace ss::ui
