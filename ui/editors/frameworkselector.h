// SPDX-License-Identifier: GPL-3.0-or-later
// The framework selector beside the expression: whose reading of the subscript the engine runs.
// TensorFlow (the default) keeps getitem's own semantics and errors; NumPy, PyTorch and JAX
// take index arrays and boolean masks the way those libraries do. The choice is part of the
// workspace (Workspace::framework), so it is one undo step and is saved with the file.
#pragma once

#include "core/frameworks/framework_model.h"

#include <QComboBox>

namespace ss::ui {

class FrameworkSelector : public QComboBox
{
    Q_OBJECT
public:
    explicit FrameworkSelector(QWidget* parent = nullptr);

    /// Shows `framework` without reporting it as the user's choice (a workspace, undo, a lesson).
    void setFramework(Framework framework);
    Framework framework() const;

signals:
    /// The user chose another framework (keyboard, mouse, accessibility, automation).
    void frameworkEdited(ss::Framework framework);
};

} // namespace ss::ui
