// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/modeldock.h"

#include "core/error.h"
#include "core/shape.h"
#include "core/strings.h"
#include "protocol/model_test_data.h"
#include "protocol/tensor_json.h"
#include "protocol/value_file.h"
#include "ui/model/jobtracker.h"
#include "ui/model/lessons.h"
#include "ui/model/modelnodetable.h"
#include "ui/views/palette.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/messagestrip.h"
#include "ui/workbench/undokeys.h"
#include "ui/workbench/workspacedocument.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <algorithm>
#include <filesystem>
#include <utility>

namespace ss::ui {

namespace {

const char* const kModelFolderKey = "files/lastModelFolder";

QString counted(int count, const char* singular, const char* plural)
{
    return QString::fromStdString(countText(count, singular, plural));
}

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
      m_filter(new QSortFilterProxyModel(this)), m_loads(new JobTracker(this)),
      m_reader([](const std::string& path, const ss::model::ReadLimits& limits) {
          return ss::model::readModelFile(path, limits);
      })
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

    // One line: a longer note opens whole on a click or Enter (the nodes below need the room).
    m_message = new MessageStrip(1);
    m_message->setObjectName(QStringLiteral("modelMessage"));
    m_message->setReservesRoom(false); // the summary above says what to do
    layout->addWidget(m_message);

    m_loading = new QWidget;
    m_loading->setObjectName(QStringLiteral("modelLoading"));
    auto* loadingRow = new QHBoxLayout(m_loading);
    loadingRow->setContentsMargins(0, 0, 0, 0);
    m_loadingText = new QLabel;
    m_loadingText->setObjectName(QStringLiteral("modelLoadingText"));
    loadingRow->addWidget(m_loadingText, 1);
    m_loadingBar = new QProgressBar;
    m_loadingBar->setObjectName(QStringLiteral("modelLoadingProgress"));
    m_loadingBar->setAccessibleName(tr("Model file reading progress"));
    m_loadingBar->setTextVisible(false);
    m_loadingBar->setMaximumWidth(160);
    loadingRow->addWidget(m_loadingBar);
    m_cancelLoading = new QPushButton(tr("Cancel"));
    m_cancelLoading->setObjectName(QStringLiteral("modelLoadingCancel"));
    m_cancelLoading->setAccessibleName(tr("Stop reading the model file"));
    m_cancelLoading->setToolTip(tr("Stop reading the model file (Esc)"));
    connect(m_cancelLoading, &QPushButton::clicked, this, &ModelDock::cancelLoading);
    loadingRow->addWidget(m_cancelLoading);
    m_loading->hide();
    layout->addWidget(m_loading);
    // Esc while the focus is in the dock; only while a file is read, so that it keeps its
    // meaning everywhere else (presentation mode's Esc, a cell editor's).
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    escape->setEnabled(false);
    connect(escape, &QShortcut::activated, this, &ModelDock::cancelLoading);
    connect(this, &ModelDock::loadingChanged, escape, &QShortcut::setEnabled);

    m_filterField = new QLineEdit;
    m_filterField->setObjectName(QStringLiteral("modelFilter"));
    m_filterField->setPlaceholderText(tr("Filter by node name or op"));
    m_filterField->setAccessibleName(tr("Filter the model's nodes by name or op"));
    m_filterField->setClearButtonEnabled(true);
    UndoKeys::leaveToField(*m_filterField);
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
    layout->addWidget(makeValueRow());
    // Empty, the columns are as wide as their titles (at the default width, "Output (computed)"
    // read "utput (compute"); a file's nodes size them again.
    m_view->resizeColumnsToContents();
    setWidget(body);

    const auto activate = [this](const QModelIndex& index) {
        openNode(m_filter->mapToSource(index).row());
    };
    connect(m_view, &QAbstractItemView::activated, this, activate);
    view->onEnter = activate;
    connect(window, &MainWindow::workspaceOpened, this, &ModelDock::showLessonModel);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ModelDock::updateValueRow);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &ModelDock::updateValueRow);
    updateValueRow();
}

// Values the file leaves to run time: the user types one ("[1, 0]") or picks a .npy or an ONNX
// TensorProto .pb, for every node that reads it (issue 19; the CLI's `model --input NAME=FILE`).
QWidget* ModelDock::makeValueRow()
{
    m_values = new QWidget;
    m_values->setObjectName(QStringLiteral("modelValues"));
    auto* row = new QHBoxLayout(m_values);
    row->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("&Give value"));
    row->addWidget(label);
    m_valueName = new QComboBox;
    m_valueName->setObjectName(QStringLiteral("modelValueName"));
    m_valueName->setAccessibleName(tr("Which value of the node to give"));
    m_valueName->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    label->setBuddy(m_valueName);
    row->addWidget(m_valueName);
    m_valueText = new QLineEdit;
    m_valueText->setObjectName(QStringLiteral("modelValueText"));
    m_valueText->setAccessibleName(tr("The value, as a list such as [1, 0]"));
    m_valueText->setPlaceholderText(tr("[1, 0]"));
    UndoKeys::leaveToField(*m_valueText);
    row->addWidget(m_valueText, 1);
    m_giveValue = new QPushButton(tr("Set"));
    m_giveValue->setObjectName(QStringLiteral("modelValueSet"));
    m_giveValue->setAccessibleName(tr("Give the node this value"));
    row->addWidget(m_giveValue);
    m_valueFromFile = new QPushButton(tr("From File…"));
    m_valueFromFile->setObjectName(QStringLiteral("modelValueFromFile"));
    m_valueFromFile->setAccessibleName(
        tr("Give the node the array of a .npy file or an ONNX TensorProto .pb"));
    row->addWidget(m_valueFromFile);

    // A value picked here is the user's choice for this node (the row keeps it when the node is
    // selected again); the keyboard's Up and Down pick too.
    connect(m_valueName, &QComboBox::activated, this, [this] {
        if (!m_valueRowNode.isEmpty())
            m_chosenValue.insert(m_valueRowNode, m_valueName->currentData().toString());
    });
    const auto giveTyped = [this] {
        giveValue(m_valueName->currentData().toString(), m_valueText->text());
    };
    connect(m_giveValue, &QPushButton::clicked, this, giveTyped);
    connect(m_valueText, &QLineEdit::returnPressed, this, giveTyped);
    connect(m_valueFromFile, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Give %1 the array of a file").arg(m_valueName->currentData().toString()),
            QSettings().value(QLatin1String(kModelFolderKey)).toString(),
            tr("NumPy arrays and ONNX tensors (*.npy *.pb);;All files (*)"));
        if (!path.isEmpty()) giveValueFromFile(m_valueName->currentData().toString(), path);
    });
    return m_values;
}

int ModelDock::currentRow() const
{
    const QModelIndex index = m_filter->mapToSource(m_view->currentIndex());
    return index.isValid() ? index.row() : -1;
}

// The current node's inputs that the file does not hold, or that were given here: one per name.
std::vector<const ss::model::ModelValue*> ModelDock::offeredValues() const
{
    std::vector<const ss::model::ModelValue*> offered;
    const int row = currentRow();
    if (row < 0) return offered;
    QStringList seen;
    for (const ss::model::ModelValue& in : m_table->file().nodes[std::size_t(row)].inputs) {
        const QString name = QString::fromStdString(in.name);
        if (name.isEmpty() || seen.contains(name) || (in.constant && !m_given.contains(name)))
            continue;
        seen << name;
        offered.push_back(&in);
    }
    return offered;
}

QStringList ModelDock::valueNames() const
{
    QStringList names;
    for (const ss::model::ModelValue* in : offeredValues())
        names << QString::fromStdString(in->name);
    return names;
}

QStringList ModelDock::neededValueNames() const
{
    QStringList names;
    const int row = currentRow();
    if (row < 0) return names;
    const ss::model::ModelNode& node = m_table->file().nodes[std::size_t(row)];
    for (std::size_t k : node.blockedBy)
        if (k < node.inputs.size()) names << QString::fromStdString(node.inputs[k].name);
    return names;
}

void ModelDock::updateValueRow()
{
    const int row = currentRow();
    const QString node =
        row < 0 ? QString() : QString::fromStdString(m_table->file().nodes[std::size_t(row)].name);
    // The same node shown again (a value given): its pick stays unless another value is needed.
    const QString before =
        node == m_valueRowNode ? m_valueName->currentData().toString() : QString();
    m_valueRowNode = node;
    m_valueName->clear();
    const QStringList needed = neededValueNames();
    for (const ss::model::ModelValue* in : offeredValues()) {
        const QString name = QString::fromStdString(in->name);
        // The project's dtype names, as everywhere else (float32, not ONNX's FLOAT); the file's
        // own for a type SliceScope does not hold.
        const QString type = QString::fromStdString(in->dtype ? std::string(dtypeName(*in->dtype))
                                                    : in->dtypeText.empty() ? "?"
                                                                            : in->dtypeText);
        const QString mark = m_given.contains(name)  ? tr(", given")
                             : needed.contains(name) ? tr(", needed")
                                                     : QString();
        m_valueName->addItem(
            tr("%1 (%2 %3%4)").arg(name, type, QString::fromStdString(in->stored.text()), mark),
            name);
        if (needed.contains(name))
            m_valueName->setItemData(
                m_valueName->count() - 1,
                tr("Needed: the file leaves this value to run time, and the node is computed "
                   "once it has one"),
                Qt::ToolTipRole);
    }
    const bool any = m_valueName->count() > 0;
    if (any) {
        // The user's own choice for this node, else the value the node waits for, else the one
        // shown before, else the first.
        int pick = m_valueName->findData(m_chosenValue.value(node));
        if (pick < 0 && !needed.isEmpty()) pick = m_valueName->findData(needed.first());
        if (pick < 0) pick = m_valueName->findData(before);
        m_valueName->setCurrentIndex(std::max(0, pick));
    }
    for (QWidget* w : {static_cast<QWidget*>(m_valueName), static_cast<QWidget*>(m_valueText),
                       static_cast<QWidget*>(m_giveValue), static_cast<QWidget*>(m_valueFromFile)})
        w->setEnabled(any);
    m_values->setToolTip(row < 0
                             ? tr("Select a node to give the values the file leaves to run time")
                         : any ? tr("Values of this node the file does not hold: give one to see "
                                    "what the node computes with it")
                               : tr("The file holds every value this node reads"));
}

bool ModelDock::giveValue(const QString& name, const QString& text)
{
    std::optional<DType> dtype;
    for (const ss::model::ModelNode& node : m_table->file().nodes)
        for (const ss::model::ModelValue& in : node.inputs)
            if (QString::fromStdString(in.name) == name && in.dtype) dtype = in.dtype;
    try {
        return give(name,
                    parseTensorLiteral(text.toStdString(), dtype, m_window->engine()->limits()),
                    text.simplified());
    } catch (const OpError& e) {
        m_message->setMessage(tr("The value for %1 does not read: %2")
                                  .arg(name, QString::fromUtf8(e.what()))
                                  .toHtmlEscaped());
        return false;
    }
}

bool ModelDock::giveValueFromFile(const QString& name, const QString& path)
{
    try {
        return give(name, readValueFile(path.toStdString(), m_window->engine()->limits()),
                    QFileInfo(path).fileName());
    } catch (const OpError& e) {
        m_message->setMessage(tr("The value for %1 does not read: %2")
                                  .arg(name, QString::fromUtf8(e.what()))
                                  .toHtmlEscaped());
        return false;
    }
}

bool ModelDock::give(const QString& name, const Tensor& value, const QString& shown)
{
    int taken = 0;
    try {
        taken = m_table->setInputValue(name.toStdString(), value, m_window->engine()->limits());
    } catch (const OpError& e) {
        m_message->setMessage(
            tr("%1 was not given: %2").arg(name, QString::fromUtf8(e.what())).toHtmlEscaped());
        return false;
    }
    if (taken == 0) {
        m_message->setMessage(tr("No node of %1 reads a value named %2")
                                  .arg(QFileInfo(m_path).fileName(), name)
                                  .toHtmlEscaped());
        return false;
    }
    if (!m_given.contains(name)) m_given << name;
    // A choice is kept until its value is given: then the row moves on to what is still needed.
    for (auto it = m_chosenValue.begin(); it != m_chosenValue.end();)
        it = it.value() == name ? m_chosenValue.erase(it) : std::next(it);
    m_message->setMessage(
        tr("%1 = %2 (%3 %4), given to %5; they are checked again with it, and opening one "
           "evaluates it with it. Reopening the file forgets it.")
            .arg(name, shown,
                 QString::fromUtf8(dtypeName(value.dtype()).data(),
                                   qsizetype(dtypeName(value.dtype()).size())),
                 QString::fromStdString(shapeTuple(value.shape())),
                 counted(taken, "node input", "node inputs"))
            .toHtmlEscaped(),
        MessageStrip::Kind::Note);
    updateSummary();
    updateValueRow();
    return true;
}

// What a load hands to the GUI thread: the file and its nodes checked, both made on the worker.
struct ModelDock::Loaded
{
    ss::model::ModelFile file;
    std::vector<ss::model::NodeCheck> checks;
    /// An ONNX node test's model: the values its test_data_set_0 gave, or why it gave none.
    QStringList given;
    QString dataProblem;
};

namespace {

// A model beside test_data_set_0 (an ONNX node test, DIR/model.onnx) takes the data set's
// input_K.pb as its run-time inputs' values, as `slicescope-cli model DIR` does.
void giveNodeTestData(ss::model::ModelFile& file, const std::string& path, const Limits& limits,
                      QStringList& given, QString& problem)
{
    if (file.format != ss::model::ModelFormat::Onnx) return;
    const std::string data = nodeTestData(std::filesystem::path(path).parent_path().string());
    if (data.empty()) return;
    try {
        for (const std::string& name : giveModelTestInputs(file, data, limits))
            given << QString::fromStdString(name);
    } catch (const OpError& e) {
        problem = QString::fromUtf8(e.what());
    }
}

} // namespace

ModelDock::~ModelDock()
{
    // Closing the window while a file is read: the job stops (ONNX's checker child is killed)
    // and nothing it would still deliver arrives; the pool's owner joins it.
    m_loads->invalidate();
}

QString ModelDock::message() const
{
    return m_message->message();
}

void ModelDock::openModel(const QString& path, Opened opened)
{
    if (!isLoading()) m_shownForLoad = isHidden();
    show();
    raise();
    QString readPath = path;
    if (path.startsWith(QLatin1String(":/"))) {
        // The readers take a file on disk; a lesson's model is compiled in: copy it out under
        // its own name (the extension picks the reader). Small files: done here.
        if (!m_resourceCopies) m_resourceCopies = std::make_unique<QTemporaryDir>();
        readPath = m_resourceCopies->filePath(QFileInfo(path).fileName());
        QFile::remove(readPath);
        if (!QFile::copy(path, readPath)) readPath = path; // the reader then says it is missing
    }
    const bool wasLoading = isLoading();
    m_loadingPath = path;
    m_opened = std::move(opened);
    const QString name = QFileInfo(path).fileName();
    m_loadingText->setText(tr("Reading %1…").arg(name));
    m_loadingBar->setRange(0, 0); // busy: reading and ONNX's checker say nothing of how far
    m_cancelLoading->setEnabled(true);
    m_loading->show();

    const Reader reader = m_reader;
    const Limits limits = m_window->engine()->limits();
    const std::string file = readPath.toStdString();
    // `this` is only used in what is delivered, which runs on this thread while the dock lives.
    auto work = [this, reader, limits, file, name](JobContext& ctx,
                                                   const JobTracker::Delivery& to) {
        ss::model::ReadLimits readLimits;
        readLimits.job = &ctx;
        auto loaded = std::make_shared<Loaded>();
        loaded->file = reader(file, readLimits);
        giveNodeTestData(loaded->file, file, limits, loaded->given, loaded->dataProblem);
        const int count = int(loaded->file.nodes.size());
        to.post([this, name, count] {
            m_loadingText->setText(
                tr("Checking %1 of %2…").arg(counted(count, "node", "nodes"), name));
            m_loadingBar->setRange(0, 1000);
            m_loadingBar->setValue(0);
        });
        ctx.setProgressSink([this, to](double fraction) {
            to.post([this, fraction] { m_loadingBar->setValue(int(fraction * 1000)); });
        });
        loaded->checks = ModelNodeTable::checkAll(loaded->file, limits, &ctx);
        to.post([this, loaded] { showLoaded(m_loadingPath, *loaded); });
    };
    m_loads->start(std::move(work), [this, readPath](Job::State state, std::exception_ptr error) {
        const QString shownPath = m_loadingPath;
        QString text;
        if (state == Job::State::Cancelled) {
            text = tr("Model not opened: reading %1 was cancelled").arg(shownPath);
        } else {
            QString why = tr("the reader stopped without a result");
            try {
                if (error) std::rethrow_exception(error);
            } catch (const std::bad_alloc&) {
                why = tr("%1: not enough memory to read it").arg(shownPath);
            } catch (const std::exception& e) {
                why = QString::fromUtf8(e.what());
            } catch (...) {
            }
            if (readPath != shownPath) why.replace(readPath, shownPath);
            text = tr("Model not opened: %1").arg(why);
        }
        m_message->setMessage(text.toHtmlEscaped());
        // A dock shown for this file alone would hold nothing but the error (half of a 1024 x
        // 700 window): it goes again, and the window says why, unless the caller does (the
        // command line's start error).
        if (std::exchange(m_shownForLoad, false)) {
            hide();
            if (!m_opened) m_window->showError(text);
        }
        loadEnded(false, text);
    });
    if (!wasLoading) emit loadingChanged(true);
}

void ModelDock::cancelLoading()
{
    if (!isLoading()) return;
    m_loadingText->setText(tr("Cancelling…"));
    m_cancelLoading->setEnabled(false);
    m_loads->cancel(); // the job stops at its next look; its end says "cancelled"
}

void ModelDock::showLoaded(const QString& path, Loaded& loaded)
{
    // Chosen from File > Open Model… the focus waits on Cancel, which goes now: the nodes take it
    // (it fell to the op picker at the top of the window, far from the nodes).
    const bool focusOnCancel = m_cancelLoading->window()->focusWidget() == m_cancelLoading;
    const bool shownForLoad = std::exchange(m_shownForLoad, false);
    loaded.file.path = path.toStdString();
    m_given = loaded.given;
    m_chosenValue.clear();
    m_table->setFile(std::move(loaded.file), std::move(loaded.checks));
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
    if (!loaded.given.isEmpty())
        notes << tr("The node test's data gave %1.")
                     .arg(loaded.given.join(QStringLiteral(", ")))
                     .toHtmlEscaped();
    if (!loaded.dataProblem.isEmpty())
        notes
            << tr("The node test's data was not given: %1").arg(loaded.dataProblem).toHtmlEscaped();
    m_warnings = notes.join(QStringLiteral("<br>"));
    m_message->setMessage(m_warnings, MessageStrip::Kind::Note);
    if (shownForLoad) fitHeight();
    if (focusOnCancel) {
        m_view->setFocus();
        if (m_filter->rowCount() > 0) m_view->setCurrentIndex(m_filter->index(0, 0));
    }
    loadEnded(true, {});
}

void ModelDock::fitHeight()
{
    // Its rows, up to kShownRows of them, and never more than a third of the window: the views
    // above show what the nodes read (at 1024 x 700 the dock took 300 px for three nodes and
    // the opened node's input showed one of its two rows), unless that leaves fewer than
    // kLeastRows rows: a file's notice strip took its lines from the third, and left the nodes
    // one row whole (mixed.onnx's warning at 1024 x 700). A user's own height is kept: only a
    // dock opened for this file is fitted.
    constexpr int kShownRows = 8;
    constexpr int kLeastRows = 3;
    QHeaderView* header = m_view->horizontalHeader();
    const int sideways = header->length() > m_view->viewport()->width()
                             ? m_view->horizontalScrollBar()->sizeHint().height()
                             : 0;
    // The title bar, summary, message, filter and value row; not the progress row, which goes.
    const int around =
        height() - m_view->height() - (m_loading->isVisible() ? m_loading->height() : 0);
    const auto dockFor = [&](int most) {
        const int rows = std::clamp(m_filter->rowCount(), 1, most);
        return around + header->height() + rows * m_view->verticalHeader()->defaultSectionSize() +
               2 * m_view->frameWidth() + sideways;
    };
    const int fitted =
        std::max(std::min(dockFor(kShownRows), m_window->height() / 3), dockFor(kLeastRows));
    m_window->resizeDocks({this}, {fitted}, Qt::Vertical);
}

void ModelDock::loadEnded(bool ok, const QString& error)
{
    m_loadingPath.clear();
    m_loading->hide();
    // The caller's part first (the command line opens a node): the window is settled only
    // after it, and it may start another load.
    const Opened opened = std::exchange(m_opened, {});
    if (opened) opened(ok, error);
    if (!isLoading()) emit loadingChanged(false);
}

void ModelDock::updateSummary()
{
    const ss::model::ModelFile& file = m_table->file();
    const int bad = m_table->disagreeing();
    QString text =
        tr("%1 — %2 %3%4: %5")
            .arg(QFileInfo(m_path).fileName(),
                 QString::fromStdString(std::string(formatName(file.format))),
                 QString::fromStdString(file.version),
                 file.producer.empty() ? QString()
                                       : tr(", by %1").arg(QString::fromStdString(file.producer)),
                 QString::fromStdString(ss::model::slicingNodesText(file)));
    if (bad > 0) text += tr("; %1 with the file (✗)").arg(counted(bad, "disagrees", "disagree"));
    m_summary->setText(text);
    m_summary->setToolTip(m_path);
}

bool ModelDock::isModelFile(const QString& path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("json") || ext == QLatin1String("npy")) return false;
    for (const ss::model::ModelReader& reader : ss::model::modelReaders())
        for (const std::string& e : reader.extensions)
            if (QString::fromStdString(e) == QLatin1Char('.') + ext) return true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;
    const QByteArray head = file.read(64);
    for (const ss::model::ModelReader& reader : ss::model::modelReaders())
        if (reader.sniff &&
            reader.sniff(std::string_view(head.constData(), std::size_t(head.size()))))
            return true;
    return false;
}

void ModelDock::chooseModel()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a model file"),
        QSettings()
            .value(QLatin1String(kModelFolderKey), m_window->document()->dialogFolder())
            .toString(),
        tr("Model files (*.onnx *.tflite *.pb *.pbtxt);;All files (*)"));
    if (path.isEmpty()) return;
    QSettings().setValue(QLatin1String(kModelFolderKey), QFileInfo(path).absolutePath());
    openModel(path);
    // The user just chose the file: Esc or Space stops a read that takes too long.
    m_cancelLoading->setFocus();
}

bool ModelDock::openNode(int row)
{
    if (row < 0 || row >= m_table->rowCount()) return false;
    const ss::model::ModelNode& node = m_table->file().nodes[std::size_t(row)];
    QString why;
    const std::optional<Workspace> ws = nodeWorkspace(node, m_path, &why);
    if (!ws) {
        m_message->setMessage(why.toHtmlEscaped());
        return false;
    }
    // A node that did not open is no longer the news.
    m_message->setMessage(m_warnings, MessageStrip::Kind::Note);
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
    openModel(QStringLiteral(":/models/") + lesson->model,
              [this, node = lesson->node](bool ok, const QString&) {
                  if (ok) selectNode(node);
              });
}

} // namespace ss::ui
