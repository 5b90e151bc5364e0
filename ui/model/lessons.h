// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in lessons: ready workspaces with a short explanation, read from the resources
// (:/lessons/NN-name.json).
#pragma once

#include "ui/model/workspace.h"
#include "ui/model/workspacefile.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ss::ui {

struct Lesson
{
    QString name;  ///< the file name without its order prefix: "walkthrough"
    QString group; ///< the gallery heading it sits under
    Workspace workspace;
    Expectation expect;
    /// Which two dimensions form the faces of a view, by view title ("input", "output"), where
    /// the last two would hide the picture (an image with one channel: (1, 4, 4, 1)).
    std::map<QString, std::pair<int, int>> faces;
    /// Empty when the lesson can be opened; else why not (its op is not in this build).
    QString unavailable;
    /// A model file the lesson is about (id.model: a file under resources/models, opened in the
    /// Model dock as ":/models/NAME") and the node it opens (id.node); both empty otherwise.
    QString model;
    QString node;
    /// A wrong output the lesson is about (id.actual: {"from", "tensor"}), which the workbench
    /// compares with its own result and diagnoses when the lesson opens; empty otherwise.
    std::optional<Tensor> actual;
    QString actualFrom; ///< who gave it ("ONNX Runtime, which reads ...")
};

/// Every lesson in order, read once. A lesson whose op this build lacks is listed as
/// unavailable; one that does not read at all is a defect the lesson tests report (here it is
/// left out with a warning so the app still starts).
const std::vector<Lesson>& lessons();
const Lesson* findLesson(const QString& name);

} // namespace ss::ui
