// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/inputcelledit.h"

#include "core/error.h"
#include "ui/views/valueformatter.h"
#include "ui/workbench/workspacedocument.h"

#include <QCoreApplication>

namespace ss::ui {

std::optional<std::pair<std::size_t, std::size_t>> InputCellEdit::entry(const Workspace& workspace,
                                                                        int slot)
{
    if (slot < 0) return std::nullopt;
    std::size_t k = 0;
    std::size_t j = std::size_t(slot);
    const auto& inputs = workspace.inputs;
    while (k < inputs.size() && j >= inputs[k].size())
        j -= inputs[k++].size();
    if (k >= inputs.size()) return std::nullopt;
    return std::pair(k, j);
}

std::optional<Workspace> InputCellEdit::edited(const Workspace& workspace, int slot,
                                               const Tensor& shown, std::int64_t flat,
                                               const QString& text, const Limits& limits)
{
    const auto at = entry(workspace, slot);
    if (!at || !shown.isValid() || flat < 0 || flat >= shown.size()) return std::nullopt;
    Workspace next = workspace;
    next.inputs[at->first][at->second] = dataSource(withElement(shown, flat, text, limits));
    return next;
}

QString InputCellEdit::apply(WorkspaceDocument& document, int slot, const Tensor& shown,
                             std::int64_t flat, const QString& text, const Limits& limits)
{
    try {
        if (const auto next = edited(document.workspace(), slot, shown, flat, text, limits))
            document.edit(*next, QCoreApplication::translate("ss::ui::MainWindow", "Edit %1")
                                     .arg(coordText(flat, shown.shape())));
        return {};
    } catch (const OpError& e) {
        // The value may be fine: the copy the edit makes of the tensor did not fit.
        if (e.code() == ErrorCode::ResourceExhausted)
            return QCoreApplication::translate("ss::ui::MainWindow", "Cannot edit %1: %2")
                .arg(coordText(flat, shown.shape()), QString::fromUtf8(e.what()).toHtmlEscaped());
        return QCoreApplication::translate("ss::ui::MainWindow", "%1 is not a %2 value: %3")
            .arg(text.toHtmlEscaped(), dtypeText(shown.dtype()),
                 QString::fromUtf8(e.what()).toHtmlEscaped());
    }
}

} // namespace ss::ui
