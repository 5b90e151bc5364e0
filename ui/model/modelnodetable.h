// SPDX-License-Identifier: GPL-3.0-or-later
// The rows of the Model dock: one per node of the slicing family in a model file, with what the
// file stores about it and what SliceScope computes for it. Qt Core only: the dock colours the
// rows that disagree (DisagreesRole), this model gives their text mark and tooltip.
#pragma once

#include "core/executor.h"
#include "model/model_graph.h"
#include "ui/model/workspace.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace ss::ui {

class ModelNodeTable : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Op, Arguments, InputShape, StoredShape, ComputedShape, Check, ColumnCount };
    enum Role {
        /// bool: the shape the file stores contradicts the computed one (a converter bug).
        DisagreesRole = Qt::UserRole + 1,
        /// QString: name and op together, what the dock's filter field matches.
        SearchRole,
        /// int: the node's index in file().nodes.
        NodeRole,
    };

    explicit ModelNodeTable(QObject* parent = nullptr);

    /// Every node of `file` checked by the engine (planning only: no elements move), on any
    /// thread: the Model dock runs it in the job that reads the file. Stops with
    /// OpError(Cancelled) once `job` is cancelled, and reports its progress to it.
    static std::vector<ss::model::NodeCheck>
    checkAll(const ss::model::ModelFile& file, const Limits& limits, JobContext* job = nullptr);
    /// Shows `file`'s nodes with their checks (checkAll's, one per node).
    void setFile(ss::model::ModelFile file, std::vector<ss::model::NodeCheck> checks);
    const ss::model::ModelFile& file() const { return m_file; }
    const ss::model::NodeCheck& check(int row) const { return m_checks[std::size_t(row)]; }
    /// The row of the node named `name`, or -1.
    int rowOf(const QString& name) const;
    /// How many rows disagree.
    int disagreeing() const;
    /// Gives every node input named `valueName` the value `value` (a value the file leaves to run
    /// time, or a node's data, as `slicescope-cli model --input` does) and checks the nodes that
    /// read it again. Returns how many node inputs took it. Throws OpError when the value
    /// contradicts the dtype or shape the file stores; nothing changes then.
    int setInputValue(const std::string& valueName, const Tensor& value, const Limits& limits);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString cellText(int row, int column) const;
    QString checkTooltip(int row) const;

    ss::model::ModelFile m_file;
    std::vector<ss::model::NodeCheck> m_checks;
};

/// The workspace that evaluates `node` in the workbench: its request (the reader's op and
/// attributes, the framework's semantics), constants as data and the other inputs as arange
/// fills of their real shapes. Without a request (an argument computed at run time, an op not
/// modelled), std::nullopt and `why` says why. Its explanation names `file`, the node's model
/// file: a node opened before another file is listed must not pass for one of that file.
std::optional<Workspace> nodeWorkspace(const ss::model::ModelNode& node, const QString& file,
                                       QString* why = nullptr);

} // namespace ss::ui
