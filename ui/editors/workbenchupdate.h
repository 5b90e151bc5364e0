// SPDX-License-Identifier: GPL-3.0-or-later
// Tells the editors' own changes apart from the workbench's. A field reports every change of its
// value as an edit: typing, pasting, QLineEdit::setText from a test, an assistive technology's
// setTextContents, the automation channel. The exception is the workbench showing a value
// (a workspace, a lesson, undo): that happens inside a WorkbenchUpdate, and this is the one place
// that knows it. QLineEdit::textEdited is no substitute: only keystrokes emit it.
#pragma once

#include <QPointer>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

class QLineEdit;
class QObject;

namespace ss::ui {

class WorkbenchUpdate
{
public:
    /// Changes to `scope` and every widget inside it are the workbench's until this ends.
    explicit WorkbenchUpdate(QObject* scope);
    ~WorkbenchUpdate();
    WorkbenchUpdate(const WorkbenchUpdate&) = delete;
    WorkbenchUpdate& operator=(const WorkbenchUpdate&) = delete;

    /// Whether a change of `field` now is the workbench's (it or an ancestor is being updated).
    static bool isActive(const QObject* field);

private:
    QPointer<QObject> m_scope;
};

/// Shows `text` in `field` as the workbench's own change (no edit is reported). Keeps the
/// cursor where it was when it can, and does nothing when the text is already there.
void showFieldText(QLineEdit* field, const QString& text);

/// Calls `edited` with the new text for every change of `field`'s text that is not the
/// workbench's; `context` ends the connection.
void onFieldEdited(QLineEdit* field, QObject* context, std::function<void(const QString&)> edited);

/// What the window says of fields whose text does not read, each given as (name, why):
/// "<b>name</b> does not parse: why", joined with "; " (empty for none).
QString unreadableFieldsHtml(const std::vector<std::pair<QString, QString>>& fields);

} // namespace ss::ui
