// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/argtable.h"

#include "core/decode.h"
#include "ui/views/palette.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::ui {

namespace {

// The table never needs more room than this many entries, however many it holds (the window
// gives it the room its entries ask for when the op or lesson opens).
constexpr int kMinVisibleRows = 3;

} // namespace

ArgTableModel::ArgTableModel(std::vector<Column> columns, QObject* parent)
    : QAbstractTableModel(parent), m_columns(std::move(columns)), m_extraBits(m_columns.size(), 0)
{
}

void ArgTableModel::setRows(std::vector<Row> rows)
{
    for (Row& row : rows)
        row.resize(m_columns.size(), 0);
    if (rows == m_rows && m_lit.empty()) return;
    // Typing mostly changes values, not the number of entries: the table keeps its rows, its
    // current cell and its layout.
    const bool sameCount = rows.size() == m_rows.size();
    if (!sameCount) beginResetModel();
    m_rows = std::move(rows);
    m_lit.clear();
    if (!sameCount) {
        endResetModel();
    } else if (!m_rows.empty()) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    }
}

void ArgTableModel::setRowLabels(const QStringList& labels)
{
    if (labels == m_rowLabels) return;
    m_rowLabels = labels;
    if (!m_rows.empty()) emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

void ArgTableModel::setLitRows(std::vector<int> rows)
{
    if (rows == m_lit) return;
    m_lit = std::move(rows);
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                         {Qt::BackgroundRole});
}

void ArgTableModel::setExtraBits(int column, std::int64_t bits)
{
    m_extraBits[std::size_t(column)] = bits;
    emit headerDataChanged(Qt::Horizontal, column, column);
}

std::int64_t ArgTableModel::mask(int column) const
{
    const int m = rowCount();
    const std::uint64_t low = m >= 63 ? ~std::uint64_t(0) : (std::uint64_t(1) << m) - 1;
    std::uint64_t bits = std::uint64_t(m_extraBits[std::size_t(column)]) & ~low;
    for (int r = 0; r < m && r < 63; ++r)
        if (m_rows[std::size_t(r)][std::size_t(column)] != 0) bits |= std::uint64_t(1) << r;
    return std::int64_t(bits);
}

void ArgTableModel::insertEntry(int row)
{
    row = std::clamp(row, 0, rowCount());
    beginInsertRows({}, row, row);
    Row fresh;
    for (const Column& c : m_columns)
        fresh.push_back(c.newValue);
    m_rows.insert(m_rows.begin() + row, std::move(fresh));
    endInsertRows();
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    emit edited();
}

void ArgTableModel::removeEntry(int row)
{
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    m_rows.erase(m_rows.begin() + row);
    endRemoveRows();
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    emit edited();
}

int ArgTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ArgTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

bool ArgTableModel::isCell(const QModelIndex& index) const
{
    return index.isValid() && index.model() == this && index.row() < rowCount() &&
           index.column() < columnCount();
}

QVariant ArgTableModel::data(const QModelIndex& index, int role) const
{
    if (!isCell(index)) return {};
    const Column& column = m_columns[std::size_t(index.column())];
    const std::int64_t value = m_rows[std::size_t(index.row())][std::size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        if (column.isBit) return {};
        return qlonglong(value);
    case Qt::CheckStateRole:
        if (column.isBit) return value != 0 ? Qt::Checked : Qt::Unchecked;
        return {};
    case Qt::AccessibleTextRole:
        if (column.isBit)
            return tr("%1 bit %2: %3")
                .arg(column.name)
                .arg(index.row())
                .arg(value != 0 ? tr("set") : tr("clear"));
        return tr("%1 of entry %2: %3").arg(column.name).arg(index.row()).arg(value);
    case Qt::ToolTipRole: return column.toolTip;
    case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
    case Qt::BackgroundRole:
        if (std::find(m_lit.begin(), m_lit.end(), index.row()) != m_lit.end())
            return roleColor(ColorRole::LitRow);
        return {};
    default: return {};
    }
}

QVariant ArgTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnCount()) return {};
        const Column& column = m_columns[std::size_t(section)];
        if (role == Qt::ToolTipRole) return column.toolTip;
        if (role != Qt::DisplayRole) return {};
        if (!column.isBit) return column.name;
        const std::int64_t total = mask(section);
        return QStringLiteral("%1\n%2 = %3")
            .arg(column.name)
            .arg(total)
            .arg(QString::fromStdString(maskBinary(std::int32_t(total), rowCount())));
    }
    if (section < 0 || section >= rowCount() || role != Qt::DisplayRole) return {};
    return section < m_rowLabels.size() && !m_rowLabels[section].isEmpty()
               ? m_rowLabels[section]
               : QString::number(section);
}

Qt::ItemFlags ArgTableModel::flags(const QModelIndex& index) const
{
    if (!isCell(index)) return Qt::NoItemFlags;
    if (m_columns[std::size_t(index.column())].isBit)
        return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

bool ArgTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!isCell(index)) return false;
    const Column& column = m_columns[std::size_t(index.column())];
    std::int64_t parsed = 0;
    if (column.isBit) {
        if (role != Qt::CheckStateRole) return false;
        parsed = value.value<Qt::CheckState>() == Qt::Checked ? 1 : 0;
    } else {
        if (role != Qt::EditRole) return false;
        bool ok = false;
        parsed = value.toString().trimmed().toLongLong(&ok);
        if (!ok) return false;
    }
    std::int64_t& cell = m_rows[std::size_t(index.row())][std::size_t(index.column())];
    if (cell == parsed) return true;
    cell = parsed;
    emit dataChanged(index, index, {role, Qt::DisplayRole, Qt::AccessibleTextRole});
    if (column.isBit) emit headerDataChanged(Qt::Horizontal, index.column(), index.column());
    emit edited();
    return true;
}

ArgTable::ArgTable(const QString& name, const QString& accessibleName,
                   std::vector<ArgTableModel::Column> columns, QWidget* parent)
    : QWidget(parent), m_model(new ArgTableModel(std::move(columns), this)),
      m_view(new QTableView(this)), m_add(new QPushButton(tr("Add entry"), this)),
      m_remove(new QPushButton(tr("Remove entry"), this)), m_note(new QLabel(this)),
      m_reason(new QLabel(this))
{
    setObjectName(name);
    m_view->setObjectName(name + QStringLiteral("Table"));
    m_view->setAccessibleName(accessibleName);
    m_view->setModel(m_model);
    m_view->setCornerButtonEnabled(false); // "select all" has no use here
    if (auto* corner = m_view->findChild<QAbstractButton*>()) {
        corner->setObjectName(name + QStringLiteral("Corner"));
        corner->setAccessibleName(tr("Corner of %1").arg(accessibleName));
    }
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    // It asks for the height of its entries (and the window gives the rest to the views).
    m_view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    // Tab leaves the table (arrows move inside it), so the fields after it can be reached.
    m_view->setTabKeyNavigation(false);
    m_view->installEventFilter(this);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);

    m_add->setObjectName(name + QStringLiteral("Add"));
    m_add->setAccessibleName(tr("Add an entry to %1").arg(accessibleName));
    m_add->setToolTip(tr("Insert an entry after the selected one"));
    m_remove->setObjectName(name + QStringLiteral("Remove"));
    m_remove->setAccessibleName(tr("Remove the selected entry of %1").arg(accessibleName));
    m_note->setObjectName(name + QStringLiteral("Note"));
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A note coming or going moves nothing: it takes the room beside the buttons, one line high,
    // kept while hidden (a long note is cut there and whole in its tooltip).
    QSizePolicy notePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    notePolicy.setRetainSizeWhenHidden(true);
    m_note->setSizePolicy(notePolicy);
    m_note->hide();
    // The reason sits over the cells but is the table's sibling, not its child: the disabled
    // table would grey it out.
    m_reason->setObjectName(name + QStringLiteral("Reason"));
    m_reason->setWordWrap(true);
    // From the top left: in a short table the start of the reason stays in view.
    m_reason->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reason->hide();
    m_view->viewport()->installEventFilter(this);

    connect(m_add, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_view->currentIndex();
        m_model->insertEntry(current.isValid() ? current.row() + 1 : m_model->rowCount());
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_view->currentIndex();
        m_model->removeEntry(current.isValid() ? current.row() : m_model->rowCount() - 1);
    });
    auto rowsChanged = [this] {
        m_remove->setEnabled(m_model->rowCount() > 0 && m_view->isEnabled());
        fitRows();
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, rowsChanged);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, rowsChanged);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, rowsChanged);
    rowsChanged();

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_note, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
}

bool ArgTable::eventFilter(QObject* watched, QEvent* event)
{
    // Ctrl+Tab is the key that leaves widgets which keep Tab for themselves: here it does what
    // Tab does.
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool tab = key->key() == Qt::Key_Tab || key->key() == Qt::Key_Backtab;
        if (tab && (key->modifiers() & Qt::ControlModifier)) {
            const bool back =
                key->key() == Qt::Key_Backtab || (key->modifiers() & Qt::ShiftModifier);
            QKeyEvent plain(QEvent::KeyPress, back ? Qt::Key_Backtab : Qt::Key_Tab,
                            back ? Qt::ShiftModifier : Qt::NoModifier);
            QCoreApplication::sendEvent(m_view, &plain);
            return true;
        }
    }
    if (watched == m_view->viewport() &&
        (event->type() == QEvent::Resize || event->type() == QEvent::Move ||
         event->type() == QEvent::Show))
        placeReason();
    return QWidget::eventFilter(watched, event);
}

void ArgTable::fitRows()
{
    // It asks for every entry in view (AdjustToContents; the walk-through has six) but insists
    // only on kMinVisibleRows whatever the count: a minimum that followed the entries would
    // make the window move every control under the pointer when one is added, and would not
    // fit a small screen.
    const int line = m_view->fontMetrics().height();
    m_view->setMinimumHeight(2 * line + 14 + kMinVisibleRows * (line + 9));
}

void ArgTable::setNote(const QString& text, bool problem)
{
    m_note->setText(text);
    m_note->setToolTip(text);
    m_note->setVisible(!text.isEmpty());
    m_note->setStyleSheet(problem ? QStringLiteral("color: %1;").arg(styleColor(ColorRole::Error))
                                  : QString());
}

QString ArgTable::note() const
{
    return m_note->text();
}

void ArgTable::setUnavailable(const QString& reason)
{
    const bool unavailable = !reason.isEmpty();
    if (unavailable) {
        m_model->setRows({});
        m_model->setRowLabels({});
        m_model->setLitRows({});
        for (int c = 0; c < m_model->columnCount(); ++c)
            m_model->setExtraBits(c, 0);
        setNote(QString());
    }
    m_view->setEnabled(!unavailable);
    m_add->setEnabled(!unavailable);
    m_remove->setEnabled(!unavailable && m_model->rowCount() > 0);
    m_view->setAccessibleDescription(reason);
    m_reason->setText(reason);
    m_reason->setToolTip(reason);
    m_reason->setVisible(unavailable);
    if (unavailable) {
        placeReason();
        m_reason->raise();
    }
}

QString ArgTable::unavailableReason() const
{
    return m_reason->text();
}

void ArgTable::placeReason()
{
    const QWidget* cells = m_view->viewport();
    m_reason->setGeometry(
        QRect(cells->mapTo(this, QPoint(0, 0)), cells->size()).adjusted(6, 4, -6, 0));
}

} // namespace ss::ui
