// SPDX-License-Identifier: GPL-3.0-or-later
// One argument editor per op: getitem's expression with its raw table, strided_slice's raw
// table, slice's begin/size per dimension, Paddle's axes/starts/ends/strides, and a generic
// form built from the OpDef for every other op. Editors show a workspace and report edits;
// the main window owns the workspace and the undo stack.
#pragma once

#include "core/attr.h"
#include "core/op.h"
#include "core/trace.h"
#include "ui/model/workspace.h"

#include <QWidget>

#include <map>
#include <memory>

class QLabel;
class QLineEdit;

namespace ss::ui {

class ArgTable;
class FrameworkSelector;
class SpecEditor;
struct Evaluation;

class OpEditor : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;

    /// Shows the workspace's attributes (never reported back as an edit).
    virtual void setWorkspace(const Workspace& workspace) = 0;
    /// Shows what the newest evaluation said about the arguments (e.g. a parse error's place).
    virtual void showEvaluation(const Evaluation& eval);
    /// Lights what a decode step talks about; null clears.
    virtual void lightStep(const Step* step, const Evaluation* eval);
    /// The attribute fields whose text does not parse (the workspace keeps their last good
    /// value), with the reason: name, why.
    virtual std::vector<std::pair<QString, QString>> unreadableAttrs() const { return {}; }
    /// The expression line (getitem, encode), or null when the op has none.
    virtual SpecEditor* specEditor() const { return nullptr; }
    /// The text field of attribute `name`, or null when it has none (the raw tables' own).
    virtual QLineEdit* attrField(const std::string&) const { return nullptr; }
    /// The framework selector (getitem, strided_slice), or null when TensorFlow alone reads the
    /// op.
    virtual FrameworkSelector* frameworkSelector() const { return nullptr; }

signals:
    /// The user changed the attributes. Edits with the same non-empty merge key in a row form
    /// one undo step (typing an expression).
    void attrsEdited(const ss::Attrs& attrs, const QString& mergeKey);
    /// The user chose whose reading of the subscript the engine runs (the framework selector).
    void frameworkEdited(ss::Framework framework);
    /// unreadableAttrs() changed.
    void unreadableChanged();
};

/// Makes the editor for `def`.
std::unique_ptr<OpEditor> makeOpEditor(const OpDef& def, QWidget* parent = nullptr);

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
