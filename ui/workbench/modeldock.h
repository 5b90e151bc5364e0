// SPDX-License-Identifier: GPL-3.0-or-later
// The Model dock (File > Open Model…, `slicescope MODEL`): every node of the slicing family in an
// ONNX, TFLite or TensorFlow graph file, filterable by name or op, with its decoded arguments, its
// input shape and the output shape the file stores beside the one SliceScope computes. Rows where
// those disagree are tinted and marked in words. Activating a row (double-click, Enter) opens the
// node's request in the workbench.
#pragma once

#include <QDockWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTemporaryDir;

namespace ss::ui {

class MainWindow;
class MessageStrip;
class ModelNodeTable;

class ModelDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit ModelDock(MainWindow* window);
    ~ModelDock() override;

    /// Reads a model file (also a Qt resource, ":/models/...") and lists its nodes; shows the dock.
    /// A file that does not read leaves the listed model as it was and says why in the dock's
    /// message strip (and in `error`).
    bool openModel(const QString& path, QString* error = nullptr);
    /// File > Open Model…: asks for a file, then openModel.
    void chooseModel();
    /// Opens the node of `row` (of the table, unfiltered) in the workbench as one undo step.
    /// False, with the reason in the message strip, for a node without a request.
    bool openNode(int row);
    /// Selects the node named `name` in the table (clearing the filter if it hides it).
    bool selectNode(const QString& name);

    /// The file listed ("" before one is).
    QString modelPath() const { return m_path; }
    ModelNodeTable* table() const { return m_table; }
    QSortFilterProxyModel* filtered() const { return m_filter; }
    QTableView* view() const { return m_view; }
    QLineEdit* filterField() const { return m_filterField; }
    /// The dock's message strip: a file that did not read, a node that cannot open, warnings.
    QString message() const;

private:
    void showLessonModel();
    void updateSummary();

    MainWindow* m_window;
    ModelNodeTable* m_table;
    QSortFilterProxyModel* m_filter;
    QTableView* m_view;
    QLineEdit* m_filterField;
    QLabel* m_summary;
    MessageStrip* m_message;
    QString m_path;
    QString m_warnings; ///< what the reader noticed about the listed file (message strip)
    std::unique_ptr<QTemporaryDir> m_resourceCopies; // removed with the dock
};

} // namespace ss::ui
