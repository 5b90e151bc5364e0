// SPDX-License-Identifier: GPL-3.0-or-later
// Edit > Copy as: the workspace as code for NumPy, TensorFlow, PyTorch, JAX, ONNX and
// PaddlePaddle, and as a protocol request. Every text is the engine's (runnableCode: the inputs
// built, the framework models' code() or the table of op equivalents' opCode(), `y = ` the
// result); none is written here.
#pragma once

#include "core/frameworks/code_snippet.h"
#include "core/frameworks/framework_model.h"
#include "ui/model/workspace.h"

#include <QMenu>

#include <functional>
#include <map>

namespace ss::ui {

class CopyAsMenu : public QMenu
{
    Q_OBJECT
public:
    /// `workspace` gives the workspace on screen; `request` is the window's Copy as Request
    /// action, which the menu's Request item triggers (one place for the request's text).
    CopyAsMenu(std::function<Workspace()> workspace, QAction* request, QWidget* parent = nullptr);

    /// Python for the workspace in `framework` that runs as pasted (runnableCode): each input
    /// built under the name the GUI shows (generated fills as the framework's own arange, zeros
    /// or ones; literals, random fills and loaded data written out), then the op, then `y`.
    /// Throws OpError: invalid_argument where the framework has no equivalent or an input is too
    /// large to write out (the message says why), or what reading the spec or an input throws.
    static QString code(Framework framework, const Workspace& workspace);
    /// The workspace's inputs as runnableCode builds them.
    static std::vector<std::vector<SnippetInput>> snippetInputs(const Workspace& workspace);

    QAction* action(Framework framework) const { return m_actions.at(framework); }
    /// Brings the items' texts and status tips up to date with the workspace (done before the
    /// menu shows).
    void refresh();

signals:
    /// Nothing was copied: the spec itself is wrong (the message says how).
    void failed(const QString& message);

private:
    void copy(Framework framework);

    std::function<Workspace()> m_workspace;
    std::map<Framework, QAction*> m_actions;
};

} // namespace ss::ui
