// SPDX-License-Identifier: GPL-3.0-or-later
// An input element typed into a cell of an input view: where the view's slot is in the
// workspace (list inputs expanded in place) and the workspace with the typed value in it.
#pragma once

#include "ui/model/workspace.h"

#include <QString>

#include <cstddef>
#include <optional>
#include <utility>

namespace ss::ui {

class WorkspaceDocument;

class InputCellEdit
{
public:
    /// Where input slot `slot` is in `workspace`: the input, then the entry of a list input.
    static std::optional<std::pair<std::size_t, std::size_t>> entry(const Workspace& workspace,
                                                                    int slot);
    /// `workspace` with element `flat` of slot `slot` (on show as `shown`) set to `text` read as
    /// the tensor's dtype; nullopt when the slot or element does not exist. Throws OpError when
    /// `text` is not a value of that dtype (or the tensor grows past `limits`).
    static std::optional<Workspace> edited(const Workspace& workspace, int slot,
                                           const Tensor& shown, std::int64_t flat,
                                           const QString& text, const Limits& limits);
    /// Puts `text` typed into element `flat` of slot `slot` (on show as `shown`) into
    /// `document` as one undo step. A value the dtype cannot hold changes nothing: the returned
    /// HTML says why (empty when the edit was made or there was nothing to edit).
    static QString apply(WorkspaceDocument& document, int slot, const Tensor& shown,
                         std::int64_t flat, const QString& text, const Limits& limits);
};

} // namespace ss::ui
