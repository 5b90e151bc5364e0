// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/copyasmenu.h"

#include "core/error.h"
#include "core/frameworks/op_equivalents.h"

#include <QClipboard>
#include <QGuiApplication>

namespace ss::ui {

CopyAsMenu::CopyAsMenu(std::function<Workspace()> workspace, QAction* request, QWidget* parent)
    : QMenu(tr("Copy &as"), parent), m_workspace(std::move(workspace))
{
    setObjectName(QStringLiteral("copyAsMenu"));
    for (const FrameworkModel* model : frameworkModels()) {
        auto* a = addAction(QString::fromUtf8(model->title()));
        a->setObjectName(QStringLiteral("actionCopyAs_") + QString::fromUtf8(model->key()));
        const Framework id = model->id();
        connect(a, &QAction::triggered, this, [this, id] { copy(id); });
        m_actions[id] = a;
    }
    addSeparator();
    QAction* requestItem = addAction(tr("&Request"));
    requestItem->setObjectName(QStringLiteral("actionCopyAs_request"));
    requestItem->setStatusTip(request->toolTip());
    connect(requestItem, &QAction::triggered, request, &QAction::trigger);
    connect(this, &QMenu::aboutToShow, this, &CopyAsMenu::refresh);
}

std::vector<std::vector<SnippetInput>> CopyAsMenu::snippetInputs(const Workspace& workspace)
{
    std::vector<std::vector<SnippetInput>> inputs;
    for (const auto& list : workspace.inputs) {
        inputs.emplace_back();
        for (const InputSource& source : list) {
            SnippetInput in;
            in.dtype = source.dtype.value_or(DType::Int32);
            in.shape = source.shape;
            in.seed = source.seed;
            switch (source.fill) {
            case FillKind::Arange: in.fill = Fill::Arange; break;
            case FillKind::Zeros: in.fill = Fill::Zeros; break;
            case FillKind::Ones: in.fill = Fill::Ones; break;
            case FillKind::Random:
                // Written out by runnableCode, which refuses a tensor too large to write.
                in.fill = Fill::Random;
                break;
            case FillKind::Data: in.values = source.data; break;
            case FillKind::Literal:
                // Typed by hand, so small: made here, with the dtype TensorFlow infers.
                in.values = materialize(source, Limits::machineDefault());
                in.dtype = in.values->dtype();
                break;
            }
            inputs.back().push_back(std::move(in));
        }
    }
    return inputs;
}

QString CopyAsMenu::code(Framework framework, const Workspace& workspace)
{
    const OpDef* def = findOp(workspace.op);
    if (!def) badRequest("unknown op '" + workspace.op + "'");
    return QString::fromStdString(
        runnableCode(framework, *def, snippetInputs(workspace), workspace.attrs));
}

void CopyAsMenu::refresh()
{
    const Workspace ws = m_workspace();
    for (const auto& [framework, a] : m_actions) {
        const QString title = QString::fromUtf8(frameworkModel(framework).title());
        try {
            code(framework, ws);
            a->setText(title);
            a->setStatusTip(tr("Copies the workspace as %1 code").arg(title));
        } catch (const OpError& e) {
            // The item stays enabled: it copies the reason, which is worth pasting into a note.
            const bool none = e.code() == ErrorCode::InvalidArgument;
            a->setText(none ? tr("%1 (no direct equivalent)").arg(title) : title);
            a->setStatusTip(QString::fromUtf8(e.what()));
        }
    }
}

void CopyAsMenu::copy(Framework framework)
{
    try {
        QGuiApplication::clipboard()->setText(code(framework, m_workspace()));
    } catch (const OpError& e) {
        if (e.code() != ErrorCode::InvalidArgument) {
            emit failed(QString::fromUtf8(e.what()));
            return;
        }
        // "no direct equivalent in PyTorch 1.13 for ...: why", as a comment: pasted into
        // Python it runs (and says why there is nothing else).
        QGuiApplication::clipboard()->setText(QStringLiteral("# ") + QString::fromUtf8(e.what()));
    }
}

} // namespace ss::ui
