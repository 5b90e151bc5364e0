// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/workbenchupdate.h"

#include <QLineEdit>
#include <QObject>
#include <QStringList>

#include <algorithm>

namespace ss::ui {

namespace {

// A count rather than a flag: updates nest (a panel showing a workspace shows each field).
constexpr const char* kDepth = "ssWorkbenchUpdate";

} // namespace

WorkbenchUpdate::WorkbenchUpdate(QObject* scope) : m_scope(scope)
{
    if (scope) scope->setProperty(kDepth, scope->property(kDepth).toInt() + 1);
}

WorkbenchUpdate::~WorkbenchUpdate()
{
    if (m_scope) m_scope->setProperty(kDepth, m_scope->property(kDepth).toInt() - 1);
}

bool WorkbenchUpdate::isActive(const QObject* field)
{
    for (const QObject* o = field; o; o = o->parent())
        if (o->property(kDepth).toInt() > 0) return true;
    return false;
}

void showFieldText(QLineEdit* field, const QString& text)
{
    if (field->text() == text) return;
    const WorkbenchUpdate update(field);
    const int cursor = field->cursorPosition();
    field->setText(text);
    field->setCursorPosition(std::min(cursor, int(text.size())));
}

void onFieldEdited(QLineEdit* field, QObject* context, std::function<void(const QString&)> edited)
{
    QObject::connect(field, &QLineEdit::textChanged, context,
                     [field, edited = std::move(edited)](const QString& text) {
                         if (!WorkbenchUpdate::isActive(field)) edited(text);
                     });
}

QString unreadableFieldsHtml(const std::vector<std::pair<QString, QString>>& fields)
{
    QStringList problems;
    for (const auto& [name, why] : fields)
        problems << QObject::tr("<b>%1</b> does not parse: %2")
                        .arg(name.toHtmlEscaped(), why.toHtmlEscaped());
    return problems.join(QStringLiteral("; "));
}

} // namespace ss::ui
