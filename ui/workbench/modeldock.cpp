// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/modeldock.h"

#include "core/error.h"
#include "ui/model/lessons.h"
#include "ui/model/modelnodetable.h"
#include "ui/views/palette.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/messagestrip.h"

#include <QAbstractButton>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>

namespace ss::ui {

namespace {

const char* const kModelFolderKey = "files/lastModelFolder";

/// Tints the rows that disagree with the palette's mismatch colour (the text mark and tooltip
/// say the same in words).
class MismatchDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(ModelNodeTable::DisagreesRole).toBool())
            option->backgroundBrush = mismatchTint(option->palette);
    }
};

/// Enter opens the current node, like a double-click (QAbstractItemView's Enter only edits).
class NodeTableView : public QTableView
{
public:
    using QTableView::QTableView;
    std::function<void(const QModelIndex&)> onEnter;

protected:
    void keyPressEvent(QKeyEvent* event) override
    {
        if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
            currentIndex().isValid() && onEnter) {
            onEnter(currentIndex());
            return;
        }
        QTableView::keyPressEvent(event);
    }
};

} // namespace

ModelDock::ModelDock(MainWindow* window)
    : QDockWidget(tr("Model"), window), m_window(window), m_table(new ModelNodeTable(this)),
      m_filter(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("modelDock"));
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);

    m_summary = new QLabel(tr("No model file open: File > Open Model…"));
    m_summary->setObjectName(QStringLiteral("modelSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    m_message = new MessageStrip(2);
    m_message->setObjectName(QStringLiteral("modelMessage"));
    layout->addWidget(m_message);

    m_filterField = new QLineEdit;
    m_filterField->setObjectName(QStringLiteral("modelFilter"));
    m_filterField->setPlaceholderText(tr("Filter by node name or op"));
    m_filterField->setAccessibleName(tr("Filter the model's nodes by name or op"));
    m_filterField->setClearButtonEnabled(true);
    for (QAbstractButton* clear : m_filterField->findChildren<QAbstractButton*>()) {
        clear->setObjectName(QStringLiteral("modelFilterClear"));
        clear->setAccessibleName(tr("Clear the filter"));
    }
    layout->addWidget(m_filterField);

    m_filter->setSourceModel(m_table);
    m_filter->setFilterRole(ModelNodeTable::SearchRole);
    m_filter->setFilterKeyColumn(ModelNodeTable::Name);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filterField, &QLineEdit::textChanged, m_filter,
            &QSortFilterProxyModel::setFilterFixedString);

    auto* view = new NodeTableView;
    m_view = view;
    m_view->setObjectName(QStringLiteral("modelTable"));
    m_view->setAccessibleName(tr("Slicing nodes of the model"));
    m_view->setModel(m_filter);
    m_view->setItemDelegate(new MismatchDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_view, 1);
    setWidget(body);

    const auto activate = [this](const QModelIndex& index) {
        openNode(m_filter->mapToSource(index).row());
    };
    connect(m_view, &QAbstractItemView::activated, this, activate);
    view->onEnter = activate;
    connect(window, &MainWindow::workspaceOpened, this, &ModelDock::showLessonModel);
}

ModelDock::~ModelDock() = default;

QString ModelDock::message() const
{
    return m_message->message();
}

bool ModelDock::openModel(const QString& path, QString* error)
{
    show();
    raise();
    QString readPath = path;
    if (path.startsWith(QLatin1String(":/"))) {
        // The readers take a file on disk; a lesson's model is compiled in: copy it out under
        // its own name (the extension picks the reader).
        if (!m_resourceCopies) m_resourceCopies = std::make_unique<QTemporaryDir>();
        readPath = m_resourceCopies->filePath(QFileInfo(path).fileName());
        QFile::remove(readPath);
        if (!QFile::copy(path, readPath)) readPath = path; // the reader then says it is missing
    }
    try {
        ss::model::ModelFile file = ss::model::readModelFile(readPath.toStdString());
        file.path = path.toStdString();
        m_table->setFile(std::move(file), m_window->engine()->limits());
    } catch (const std::exception& e) {
        QString text = QString::fromUtf8(e.what());
        if (readPath != path) text.replace(readPath, path);
        const QString shown = tr("Model not opened: %1").arg(text);
        m_message->setMessage(shown.toHtmlEscaped());
        if (error) *error = shown;
        return false;
    }
    m_path = path;
    m_filterField->clear();
    updateSummary();
    m_view->resizeColumnsToContents();
    for (int c = 0; c < ModelNodeTable::ColumnCount; ++c)
        m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), 360));
    const auto& warnings = m_table->file().warnings;
    QStringList notes;
    for (const std::string& w : warnings)
        notes << QString::fromStdString(w).toHtmlEscaped();
    m_warnings = notes.join(QStringLiteral("<br>"));
    m_message->setMessage(m_warnings);
    return true;
}

void ModelDock::updateSummary()
{
    const ss::model::ModelFile& file = m_table->file();
    const int rows = m_table->rowCount();
    const int bad = m_table->disagreeing();
    QString text =
        tr("%1 — %2 %3%4: %5 slicing nodes of %6")
            .arg(QFileInfo(m_path).fileName(),
                 QString::fromStdString(std::string(formatName(file.format))),
                 QString::fromStdString(file.version),
                 file.producer.empty() ? QString()
                                       : tr(", by %1").arg(QString::fromStdString(file.producer)))
            .arg(rows)
            .arg(file.totalNodes);
    if (bad > 0) text += tr("; %n disagree with the file (✗)", nullptr, bad);
    m_summary->setText(text);
    m_summary->setToolTip(m_path);
}

void ModelDock::chooseModel()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a model file"), QSettings().value(QLatin1String(kModelFolderKey)).toString(),
        tr("Model files (*.onnx *.tflite *.pb *.pbtxt);;All files (*)"));
    if (path.isEmpty()) return;
    QSettings().setValue(QLatin1String(kModelFolderKey), QFileInfo(path).absolutePath());
    openModel(path);
}

bool ModelDock::openNode(int row)
{
    if (row < 0 || row >= m_table->rowCount()) return false;
    const ss::model::ModelNode& node = m_table->file().nodes[std::size_t(row)];
    QString why;
    const std::optional<Workspace> ws = nodeWorkspace(node, &why);
    if (!ws) {
        m_message->setMessage(why.toHtmlEscaped());
        return false;
    }
    m_message->setMessage(m_warnings); // a node that did not open is no longer the news
    m_window->setWorkspace(*ws, tr("Open node %1").arg(QString::fromStdString(node.name)));
    return true;
}

bool ModelDock::selectNode(const QString& name)
{
    const int row = m_table->rowOf(name);
    if (row < 0) return false;
    QModelIndex index = m_filter->mapFromSource(m_table->index(row, 0));
    if (!index.isValid()) {
        m_filterField->clear();
        index = m_filter->mapFromSource(m_table->index(row, 0));
    }
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    return true;
}

void ModelDock::showLessonModel()
{
    const Lesson* lesson = findLesson(m_window->currentLesson());
    if (!lesson || lesson->model.isEmpty()) return;
    if (openModel(QStringLiteral(":/models/") + lesson->model)) selectNode(lesson->node);
}

} // namespace ss::ui
