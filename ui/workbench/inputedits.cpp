// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/inputedits.h"

#include "ui/editors/inputpanel.h"
#include "ui/model/engineclient.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/inputcelledit.h"
#include "ui/workbench/windowmessages.h"
#include "ui/workbench/workspacedocument.h"

namespace ss::ui {

InputEdits::InputEdits(InputPanel* inputs, WorkspaceDocument* document, EngineClient* engine,
                       WindowMessages* messages, QObject* parent)
    : QObject(parent), m_inputs(inputs), m_document(document), m_engine(engine),
      m_messages(messages)
{
    connect(m_inputs, &InputPanel::inputsEdited, this,
            [this](const std::vector<std::vector<InputSource>>& sources, const QString& key) {
                Workspace next = m_document->workspace();
                next.inputs = sources;
                m_document->edit(next, tr("Change the input"), key);
            });
    connect(m_inputs, &InputPanel::elementEdited, this, &InputEdits::elementEdited);
}

void InputEdits::elementEdited(int slot, qint64 flat, const QString& text)
{
    if (!InputCellEdit::entry(m_document->workspace(), slot)) return;
    const QString error = InputCellEdit::apply(
        *m_document, slot, m_inputs->view(slot)->model()->tensor(), flat, text, m_engine->limits());
    if (!error.isEmpty()) m_messages->show(error);
}

} // namespace ss::ui
