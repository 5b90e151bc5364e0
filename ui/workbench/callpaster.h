// SPDX-License-Identifier: GPL-3.0-or-later
// A slicing call pasted from code (tf.strided_slice(x, ...), tf.gather, np.take, torch.narrow,
// chained subscripts, TensorFlow node text) turned into the window's op and arguments: read by
// the engine's reader (model/pasted_code.h), applied as one undo step that keeps the input.
#pragma once

#include "ui/editors/speceditor.h"

#include <QObject>

namespace ss::ui {

class MainWindow;

class CallPaster : public QObject
{
    Q_OBJECT
public:
    explicit CallPaster(MainWindow& window);

    /// Reads `text` with the shape of the window's first input and switches the window to the
    /// op it computes, with its arguments, as one undo step ("Paste Call"). The switch is
    /// queued, so a caller inside the old op's editor (the expression field) is not deleted
    /// under its feet. On failure nothing changes and the result says why and where.
    SpecEditor::CallResult read(const QString& text);
    /// Edit > Paste Call: read() on the clipboard's text; a failure is shown in the window.
    void pasteClipboard();

private:
    MainWindow& m_window;
};

} // namespace ss::ui
