// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/callpaster.h"

#include "core/error.h"
#include "model/pasted_code.h"
#include "ui/model/workspace.h"
#include "ui/workbench/mainwindow.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QPointer>
#include <QTimer>

#include <algorithm>

namespace ss::ui {

CallPaster::CallPaster(MainWindow& window) : QObject(&window), m_window(window) {}

SpecEditor::CallResult CallPaster::read(const QString& text)
{
    const Workspace& current = m_window.workspace();
    // The call's tensor is the window's input: it keeps its dtype, shape and values.
    const InputSource data = !current.inputs.empty() && !current.inputs.front().empty()
                                 ? current.inputs.front().front()
                                 : InputSource{};
    SpecEditor::CallResult result;
    try {
        const CallTranslation call =
            model::translatePastedCode(text.trimmed().toStdString(), knownShape(data));
        const OpDef* def = findOp(call.op);
        if (!def) throw OpError(ErrorCode::Internal, "the call reads as an unknown op " + call.op);
        Workspace next;
        next.op = def->name;
        next.attrs = call.attrs;
        next.inputs = {{data}};
        for (std::size_t k = 1; k < def->inputs.size(); ++k) {
            const auto given =
                std::find_if(call.givenInputs.begin(), call.givenInputs.end(),
                             [&](const auto& g) { return g.first == def->inputs[k].name; });
            if (given == call.givenInputs.end())
                throw OpError(ErrorCode::InvalidArgument, call.function + " does not give " +
                                                              def->name + "'s input " +
                                                              def->inputs[k].name);
            next.inputs.push_back({dataSource(given->second)});
        }
        const QString undoText = tr("Paste %1").arg(QString::fromStdString(call.function));
        // Queued: the expression field that read the call belongs to the editor the switch
        // replaces.
        QPointer<MainWindow> window(&m_window);
        QTimer::singleShot(0, &m_window, [window, next, undoText] {
            if (window) window->setWorkspace(next, undoText);
        });
        result.ok = true;
    } catch (const OpError& e) {
        result.position = e.position();
        result.message = QString::fromUtf8(e.what());
    }
    return result;
}

void CallPaster::pasteClipboard()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        m_window.showError(tr("Paste Call: the clipboard holds no text. Copy a call such as "
                              "tf.strided_slice(x, [0, 1], [0, -1], [1, 2]) first."));
        return;
    }
    const SpecEditor::CallResult result = read(text);
    if (!result.ok) m_window.showError(tr("Paste Call: %1").arg(result.message));
}

} // namespace ss::ui
