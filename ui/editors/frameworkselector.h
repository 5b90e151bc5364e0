// SPDX-License-Identifier: GPL-3.0-or-later
// The framework selector beside getitem's expression and above strided_slice's raw table: whose
// reading of the subscript the engine runs. TensorFlow (the default) keeps the op's own semantics
// and errors; NumPy, PyTorch and JAX read the subscript the way those libraries do (getitem's
// with index arrays and boolean masks too; strided_slice's is the basic subscript its arguments
// spell). The choice is part of the workspace (Workspace::framework), so it is one undo step and
// is saved with the file.
#pragma once

#include "core/frameworks/framework_model.h"

#include <QComboBox>

namespace ss::ui {

class FrameworkSelector : public QComboBox
{
    Q_OBJECT
public:
    /// What the selector reads: getitem's expression, or the subscript strided_slice's raw
    /// arguments spell.
    enum class Reads { Expression, RawArguments };

    explicit FrameworkSelector(Reads reads, QWidget* parent = nullptr);

    /// Shows `framework` without reporting it as the user's choice (a workspace, undo, a lesson).
    void setFramework(Framework framework);
    Framework framework() const;

signals:
    /// The user chose another framework (keyboard, mouse, accessibility, automation).
    void frameworkEdited(ss::Framework framework);
};

} // namespace ss::ui
