// SPDX-License-Identifier: GPL-3.0-or-later
// The Model dock (File > Open Model…, `slicescope MODEL`): every node of the slicing family in an
// ONNX, TFLite or TensorFlow graph file, filterable by name or op, with its decoded arguments, its
// input shape and the output shape the file stores beside the one SliceScope computes. Rows where
// those disagree are tinted and marked in words. Activating a row (double-click, Enter) opens the
// node's request in the workbench.
//
// A file is read on the workbench's worker pool (ONNX's checker alone may take a minute on a
// large or hostile file): the dock shows the progress with a Cancel button (Esc in the dock),
// opening another file replaces the load, and closing the window cancels it.
#pragma once

#include "core/tensor.h"
#include "model/model_graph.h"

#include <QDockWidget>
#include <QHash>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTemporaryDir;

namespace ss::ui {

class JobTracker;
class MainWindow;
class MessageStrip;
class ModelNodeTable;

class ModelDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit ModelDock(MainWindow* window);
    ~ModelDock() override;

    /// Called once a load ends: opened, or not (`error` says why: a file that does not read, or
    /// a load cancelled). Not called for a load that a newer openModel replaced.
    using Opened = std::function<void(bool ok, const QString& error)>;
    /// What reads a file on the worker: ss::model::readModelFile unless a test gives another.
    using Reader = std::function<ss::model::ModelFile(const std::string& path,
                                                      const ss::model::ReadLimits& limits)>;

    /// Starts reading a model file (also a Qt resource, ":/models/...") on a worker and shows the
    /// dock; returns at once. Its nodes are listed when it has been read. A file that does not
    /// read, or a load cancelled, leaves the listed model as it was and says why in the dock's
    /// message strip. A load still running is cancelled and replaced by this one.
    void openModel(const QString& path, Opened opened = {});
    /// Stops the running load (the Cancel button, Esc in the dock); the listing stays as it was.
    void cancelLoading();
    /// A load has started and not yet ended.
    bool isLoading() const { return !m_loadingPath.isEmpty(); }
    /// The file being read ("" when none is).
    QString loadingPath() const { return m_loadingPath; }
    /// Replaces the reader (tests: one that waits for the test to let it finish).
    void setReader(Reader reader) { m_reader = std::move(reader); }
    /// File > Open Model…: asks for a file, then openModel.
    void chooseModel();
    /// Whether `path` is a model file (ONNX, TFLite, TensorFlow graph) rather than a workspace
    /// or a .npy: by a model reader's extension (.onnx, .tflite, .pb, .pbtxt), else, for a file
    /// that is neither .json nor .npy, by its first bytes. The command line, File > Open and a
    /// drop open such a file here.
    static bool isModelFile(const QString& path);
    /// Opens the node of `row` (of the table, unfiltered) in the workbench as one undo step.
    /// False, with the reason in the message strip, for a node without a request.
    bool openNode(int row);
    /// Selects the node named `name` in the table (clearing the filter if it hides it).
    bool selectNode(const QString& name);

    /// The values the current node reads that the file does not hold (arguments computed at run
    /// time, the node's data) and those given here: what the dock's value row offers.
    QStringList valueNames() const;
    /// Those of them that keep the current node from being computed (ModelNode::blockedBy: an
    /// argument computed at run time, not the data an arange fills): the row marks them
    /// "needed", and selecting the node selects the first, unless the user chose another of
    /// the node's values in the row before (that choice holds until that value is given).
    QStringList neededValueNames() const;
    /// Gives the value `name` the tensor literal `text` ("[1, 0]", read as the dtype the file
    /// stores for it) in every node that reads it, and checks those nodes again: the table then
    /// shows what they compute, and opening one evaluates it with that value. Kept while this
    /// file is listed. False, with the reason in the message strip, for a literal that does not
    /// read or a value the file's dtype or shape contradicts; nothing changes then.
    bool giveValue(const QString& name, const QString& text);
    /// The same with the array of a .npy file, or of an ONNX TensorProto file named .pb as ONNX's
    /// node tests ship their inputs (readValueFile).
    bool giveValueFromFile(const QString& name, const QString& path);

    /// The file listed ("" before one is).
    QString modelPath() const { return m_path; }
    ModelNodeTable* table() const { return m_table; }
    QSortFilterProxyModel* filtered() const { return m_filter; }
    QTableView* view() const { return m_view; }
    QLineEdit* filterField() const { return m_filterField; }
    /// The dock's message strip: a file that did not read, a node that cannot open, warnings.
    QString message() const;

signals:
    /// A load started (true) or ended (false): listed, failed or cancelled.
    void loadingChanged(bool loading);

private:
    struct Loaded;
    void showLessonModel();
    void updateSummary();
    void showLoaded(const QString& path, Loaded& loaded);
    /// As tall as the listed nodes need, within bounds (a dock opened for this file only).
    void fitHeight();
    void loadEnded(bool ok, const QString& error);
    QWidget* makeValueRow();
    void updateValueRow();
    std::vector<const ss::model::ModelValue*> offeredValues() const;
    int currentRow() const;
    bool give(const QString& name, const Tensor& value, const QString& shown);

    MainWindow* m_window;
    ModelNodeTable* m_table;
    QSortFilterProxyModel* m_filter;
    QTableView* m_view;
    QLineEdit* m_filterField;
    QLabel* m_summary;
    MessageStrip* m_message;
    QWidget* m_loading; ///< progress row: what is read, the bar, Cancel
    QLabel* m_loadingText;
    QProgressBar* m_loadingBar;
    QPushButton* m_cancelLoading;
    JobTracker* m_loads; ///< on the workbench's one pool, like the evaluations
    Reader m_reader;
    QString m_loadingPath;
    Opened m_opened;             ///< the running load's caller
    bool m_shownForLoad = false; ///< the dock was hidden until the running load showed it
    QString m_path;
    QString m_warnings; ///< what the reader noticed about the listed file (message strip)
    QWidget* m_values;  ///< value row: which value, its literal, Set, From File…
    QComboBox* m_valueName;
    QLineEdit* m_valueText;
    QPushButton* m_giveValue;
    QPushButton* m_valueFromFile;
    QStringList m_given;                   ///< the values given for the listed file
    QString m_valueRowNode;                ///< the node whose values the row shows
    QHash<QString, QString> m_chosenValue; ///< node -> the value the user chose in the row
    std::unique_ptr<QTemporaryDir> m_resourceCopies; // removed with the dock
};

} // namespace ss::ui
