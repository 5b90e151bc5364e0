// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/frameworkselector.h"

#include "ui/editors/workbenchupdate.h"

namespace ss::ui {

FrameworkSelector::FrameworkSelector(Reads reads, QWidget* parent) : QComboBox(parent)
{
    setObjectName(QStringLiteral("frameworkSelector"));
    if (reads == Reads::Expression) {
        setAccessibleName(tr("Framework whose indexing rules read the expression"));
        setToolTip(tr("Whose indexing rules read the expression: TensorFlow's getitem refuses "
                      "index arrays and masks; NumPy, PyTorch and JAX take them, each its own "
                      "way"));
    } else {
        // Every one of the four reads a basic subscript its own way, so each is offered: the
        // arguments spell no index array, but the frameworks still differ on what they spell.
        setAccessibleName(tr("Framework whose indexing rules read the subscript these arguments "
                             "spell"));
        setToolTip(tr("Whose indexing rules read the subscript these arguments spell (written "
                      "under the table): TensorFlow runs strided_slice itself; NumPy, PyTorch "
                      "and JAX read that subscript each their own way (PyTorch refuses a "
                      "negative step, JAX clamps an index out of range). Arguments that no "
                      "subscript says, and TFLite's offset set to true, are TensorFlow's "
                      "alone."));
    }
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
