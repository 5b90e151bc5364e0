// SPDX-License-Identifier: GPL-3.0-or-later
// Files dropped on the workbench: a workspace (.json) or a NumPy file (.npy) dropped anywhere
// opens as File > Open does; a .npy dropped on an input's block replaces that input, one undo
// step; a model file (.onnx, .tflite, .pb, .pbtxt) opens in the Model dock as File > Open
// Model… does.
#pragma once

#include <QObject>
#include <QString>

#include <optional>
#include <utility>

class QDropEvent;
class QEvent;
class QMimeData;
class QPoint;

namespace ss::ui {

class EngineClient;
class MainWindow;
class WorkspaceDocument;

class FileDrop : public QObject
{
    Q_OBJECT
public:
    /// Drops on `window` open into `document`, read within `engine`'s limits: the window
    /// accepts drops, and this object takes its drag and drop events.
    FileDrop(MainWindow& window, WorkspaceDocument* document, EngineClient* engine);

    bool eventFilter(QObject* watched, QEvent* event) override;

    /// A drag entering or moving over the window: accepted when it carries one file to open.
    void dragOver(QDropEvent* event) const;
    /// Opens the dropped file once the drop has ended.
    void drop(QDropEvent* event);

private:
    /// The file a drop would open, with the input slot it goes to (-1: the window).
    std::optional<std::pair<QString, int>> target(const QMimeData* mime, const QPoint& pos) const;
    void open(const QString& path, int slot);

    MainWindow& m_window;
    WorkspaceDocument* m_document;
    EngineClient* m_engine;
};

} // namespace ss::ui
