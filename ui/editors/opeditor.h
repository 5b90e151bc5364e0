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

} // namespace ss::ui
