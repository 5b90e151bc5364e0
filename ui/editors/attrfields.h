// SPDX-License-Identifier: GPL-3.0-or-later
// The attribute fields of an op's editor: one text field per attribute, read as a JSON-like value.
#pragma once

#include "core/attr.h"
#include "core/op.h"

#include <QString>
#include <QWidget>

#include <map>
#include <string>
#include <utility>
#include <vector>

class QLineEdit;

namespace ss::ui {

/// Text fields for attributes, each accepting a JSON-like value ([1, 2], 3, "SAME", SAME).
class AttrFields : public QWidget
{
    Q_OBJECT
public:
    AttrFields(const OpDef& def, std::vector<AttrDef> attrs, QWidget* parent = nullptr);

    /// Fills the fields from `attrs` (absent: empty, meaning the default).
    void setAttrs(const Attrs& attrs);
    /// The attributes the fields hold; a field whose text does not read as a value keeps its
    /// last good value and is marked.
    Attrs attrs() const { return m_values; }
    QLineEdit* field(const std::string& name) const;
    /// The fields whose text does not parse, in the form's order: name, why.
    std::vector<std::pair<QString, QString>> unreadable() const;

signals:
    void edited(const QString& attrName);
    /// A field began or stopped not parsing.
    void unreadableChanged();

private:
    void setUnreadable(const std::string& name, const QString& why);

    std::vector<AttrDef> m_defs;
    std::map<std::string, QLineEdit*> m_fields;
    Attrs m_values;
    std::map<std::string, QString> m_unreadable; ///< field name: why its text does not parse
};

} // namespace ss::ui
