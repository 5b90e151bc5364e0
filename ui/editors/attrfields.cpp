// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/attrfields.h"

#include "ui/editors/workbenchupdate.h"
#include "ui/model/attrtext.h"
#include "ui/views/palette.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace ss::ui {

AttrFields::AttrFields(const OpDef& def, std::vector<AttrDef> attrs, QWidget* parent)
    : QWidget(parent), m_defs(std::move(attrs))
{
    setObjectName(QStringLiteral("attrFields"));
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    for (const AttrDef& a : m_defs) {
        auto* field = new QLineEdit(this);
        const QString name = QString::fromStdString(a.name);
        field->setObjectName(QStringLiteral("attr_") + name);
        field->setAccessibleName(
            tr("Attribute %1 of %2").arg(name, QString::fromStdString(def.name)));
        field->setPlaceholderText(
            a.defaultText.empty() ? tr("required")
                                  : tr("default: %1").arg(QString::fromStdString(a.defaultText)));
        QString tip = tr("A value such as 2, [1, 2], [[0, 1], [2, 0]], \"SAME\" or SAME.");
        if (!a.aliases.empty()) {
            QStringList aliases;
            for (const auto& alias : a.aliases)
                aliases << QString::fromStdString(alias);
            tip += tr(" Older name: %1.").arg(aliases.join(QStringLiteral(", ")));
        }
        field->setToolTip(tip);
        auto* label = new QLabel(name, this);
        label->setBuddy(field);
        form->addRow(label, field);
        m_fields[a.name] = field;
        // Every change but setAttrs' is an edit, however it came (typing, setText, automation).
        onFieldEdited(field, this, [this, field, a](const QString& text) {
            if (text.trimmed().isEmpty()) {
                m_values.erase(a.name);
                field->setStyleSheet(QString());
                emit edited(QString::fromStdString(a.name));
                setUnreadable(a.name, QString());
                return;
            }
            QString error;
            const std::optional<Attr> value = parseAttrText(text, &error);
            if (!value) {
                field->setStyleSheet(unreadableFieldStyle());
                field->setToolTip(error);
                setUnreadable(a.name, error);
                return;
            }
            field->setStyleSheet(QString());
            field->setToolTip(QString());
            m_values[a.name] = *value;
            // Edited first: the window's result is about to be of the new value, not stale.
            emit edited(QString::fromStdString(a.name));
            setUnreadable(a.name, QString());
        });
    }
}

void AttrFields::setAttrs(const Attrs& attrs)
{
    m_values.clear();
    // Every field is rewritten from the workspace below unless it reads as its value already.
    const bool hadUnreadable = !m_unreadable.empty();
    m_unreadable.clear();
    for (const AttrDef& a : m_defs) {
        QLineEdit* field = m_fields.at(a.name);
        const Attr* value = nullptr;
        for (const auto& [name, v] : attrs)
            if (name == a.name ||
                std::find(a.aliases.begin(), a.aliases.end(), name) != a.aliases.end())
                value = &v;
        field->setStyleSheet(QString());
        if (!value) {
            showFieldText(field, QString());
            continue;
        }
        m_values[a.name] = *value;
        const QString text = attrText(*value);
        // Rewriting an equal value would move the cursor of the field being typed in.
        const auto current = parseAttrText(field->text(), nullptr);
        if (!current || !(*current == *value)) showFieldText(field, text);
    }
    if (hadUnreadable) emit unreadableChanged();
}

void AttrFields::setUnreadable(const std::string& name, const QString& why)
{
    const auto it = m_unreadable.find(name);
    if (why.isEmpty() ? it == m_unreadable.end() : it != m_unreadable.end() && it->second == why)
        return;
    if (why.isEmpty())
        m_unreadable.erase(it);
    else
        m_unreadable[name] = why;
    emit unreadableChanged();
}

std::vector<std::pair<QString, QString>> AttrFields::unreadable() const
{
    std::vector<std::pair<QString, QString>> fields;
    for (const AttrDef& a : m_defs)
        if (const auto it = m_unreadable.find(a.name); it != m_unreadable.end())
            fields.emplace_back(QString::fromStdString(a.name), it->second);
    return fields;
}

QLineEdit* AttrFields::field(const std::string& name) const
{
    const auto it = m_fields.find(name);
    return it == m_fields.end() ? nullptr : it->second;
}

} // namespace ss::ui
