// SPDX-License-Identifier: GPL-3.0-or-later
// The place of the op's editor above the views. It makes the editor of the op on show, turns
// the editor's edits into undo steps of the document, keeps getitem's expression history in the
// settings (an expression enters it once its result is good), and says which attribute fields
// do not read.
#pragma once

#include "ui/editors/speceditor.h"

#include <QStringList>
#include <QWidget>

#include <functional>

namespace ss {
struct OpDef;
}

namespace ss::ui {

class OpEditor;
class SpecEditor;
class WorkspaceDocument;

class OpEditorHost : public QWidget
{
    Q_OBJECT
public:
    /// Edits go to `document`; `resultIsGood` says whether the expression just finished is
    /// evaluated and good (then it joins the history).
    OpEditorHost(WorkspaceDocument* document, std::function<bool()> resultIsGood,
                 QWidget* parent = nullptr);

    /// The editor on show, null before the first op.
    OpEditor* editor() const { return m_editor; }
    /// getitem's expression line, or null when the op has none.
    SpecEditor* specEditor() const;
    /// Replaces the editor by one for `def`; its fields start readable.
    OpEditor* replace(const OpDef& def);
    /// What every expression field made from now on reads a pasted call with.
    void setCallReader(SpecEditor::CallReader reader);
    /// Keeps the expression history in the settings (the window closes).
    void saveHistory() const;

signals:
    /// The fields that do not read changed: `html` says which and why (empty when all read),
    /// `names` names them.
    void unreadableChanged(const QString& html, const QStringList& names);

private:
    void checkUnreadable();

    WorkspaceDocument* m_document;
    std::function<bool()> m_resultIsGood;
    OpEditor* m_editor = nullptr;
    SpecEditor::CallReader m_callReader;
    QString m_unreadable; ///< the last unreadableChanged's html
};

} // namespace ss::ui
