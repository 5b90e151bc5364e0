// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/frameworkselector.h"

#include "ui/editors/workbenchupdate.h"

namespace ss::ui {

FrameworkSelector::FrameworkSelector(QWidget* parent) : QComboBox(parent)
{
    setObjectName(QStringLiteral("frameworkSelector"));
    setAccessibleName(tr("Framework whose indexing rules read the expression"));
    setToolTip(tr("Whose indexing rules read the expression: TensorFlow's getitem refuses index "
                  "arrays and masks; NumPy, PyTorch and JAX take them, each its own way"));
    // TensorFlow first: it is the default and the op's own reading.
    for (Framework f :
         {Framework::TensorFlow, Framework::NumPy, Framework::PyTorch, Framework::Jax}) {
        const FrameworkModel& model = frameworkModel(f);
        addItem(QString::fromUtf8(model.title()), int(f));
    }
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(this, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0 || WorkbenchUpdate::isActive(this)) return;
        emit frameworkEdited(framework());
    });
}

void FrameworkSelector::setFramework(Framework framework)
{
    const WorkbenchUpdate update(this);
    const int index = findData(int(framework));
    setCurrentIndex(index >= 0 ? index : 0);
}

Framework FrameworkSelector::framework() const
{
    return currentIndex() < 0 ? Framework::TensorFlow : Framework(currentData().toInt());
}

} // namespace ss::ui
