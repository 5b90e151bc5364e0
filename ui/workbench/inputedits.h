// SPDX-License-Identifier: GPL-3.0-or-later
// Edits made in the input panel become undo steps of the document: an input's shape, dtype,
// fill or literal ("Change the input", typing merges), and a value typed into a cell of an
// input view (refused in the message strip when the dtype cannot hold it).
#pragma once

#include <QObject>

namespace ss::ui {

class EngineClient;
class InputPanel;
class WindowMessages;
class WorkspaceDocument;

class InputEdits : public QObject
{
    Q_OBJECT
public:
    /// `inputs`' edits go to `document`, typed values read within `engine`'s limits; a value
    /// that does not read is said through `messages`.
    InputEdits(InputPanel* inputs, WorkspaceDocument* document, EngineClient* engine,
               WindowMessages* messages, QObject* parent);

private:
    void elementEdited(int slot, qint64 flat, const QString& text);

    InputPanel* m_inputs;
    WorkspaceDocument* m_document;
    EngineClient* m_engine;
    WindowMessages* m_messages;
};

} // namespace ss::ui
