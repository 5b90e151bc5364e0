// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/oppicker.h"

#include "core/op.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QLineEdit>
#include <QStandardItemModel>
#include <QStringListModel>

#include <algorithm>
#include <map>

namespace ss::ui {

namespace {

QStringList sortedNames()
{
    QStringList names;
    for (const OpDef& def : allOps())
        names << QString::fromStdString(def.name);
    names.sort();
    return names;
}

} // namespace

OpPicker::OpPicker(QWidget* parent) : QComboBox(parent)
{
    // A family heading is a disabled row: the arrow keys and the list step over it.
    auto* model = new QStandardItemModel(this);
    std::map<OpFamily, std::vector<const OpDef*>> families;
    for (const OpDef& def : allOps())
        families[def.family].push_back(&def);
    for (auto& [family, defs] : families) {
        std::sort(defs.begin(), defs.end(),
                  [](const OpDef* a, const OpDef* b) { return a->name < b->name; });
        QString title =
            QString::fromUtf8(familyName(family).data(), int(familyName(family).size()));
        title[0] = title[0].toUpper();
        auto* heading = new QStandardItem(title);
        heading->setFlags(Qt::NoItemFlags);
        QFont bold = heading->font();
        bold.setBold(true);
        heading->setFont(bold);
        model->appendRow(heading);
        for (const OpDef* def : defs) {
            const QString name = QString::fromStdString(def->name);
            auto* item = new QStandardItem(name);
            item->setData(name, Qt::UserRole);
            item->setToolTip(QString::fromStdString(def->summary));
            item->setData(tr("%1, %2").arg(QString::fromStdString(def->summary), title.toLower()),
                          Qt::AccessibleDescriptionRole);
            model->appendRow(item);
        }
    }
    setModel(model);
    setEditable(true);
    setInsertPolicy(QComboBox::NoInsert);
    lineEdit()->setPlaceholderText(tr("type to filter"));
    lineEdit()->setObjectName(QStringLiteral("opPickerText"));
    lineEdit()->setAccessibleName(tr("Op name, typed to filter the list of ops"));
    // The completer lists names only (no headings), filtered by what is typed anywhere in them.
    m_completer = new QCompleter(new QStringListModel(sortedNames(), this), this);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setMaxVisibleItems(15);
    lineEdit()->setCompleter(m_completer);
    // Enter while the list is open but nothing in it is chosen picks what was typed (the
    // completer alone would only close the list, and the line edit never sees the key).
    m_completer->popup()->installEventFilter(this);
    connect(lineEdit(), &QLineEdit::returnPressed, this, &OpPicker::pickTyped);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this,
            [this](const QString& text) {
                lineEdit()->setText(text);
                pickTyped();
            });
    // Leaving the field with text that picks nothing puts the current op's name back.
    connect(lineEdit(), &QLineEdit::editingFinished, this, [this] {
        if (currentIndex() >= 0 && lineEdit()->text() != itemText(currentIndex()))
            setEditText(itemText(currentIndex()));
    });
}

QString OpPicker::resolve(const QString& text)
{
    const QString typed = text.trimmed();
    if (typed.isEmpty()) return {};
    if (const OpDef* def = findOp(typed.toLower().toStdString()))
        return QString::fromStdString(def->name);
    const QStringList names = sortedNames();
    for (const QString& name : names)
        if (name.startsWith(typed, Qt::CaseInsensitive)) return name;
    for (const QString& name : names)
        if (name.contains(typed, Qt::CaseInsensitive)) return name;
    return {};
}

bool OpPicker::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_completer->popup() && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) &&
            !m_completer->popup()->currentIndex().isValid()) {
            m_completer->popup()->hide();
            pickTyped();
            return true;
        }
    }
    return QComboBox::eventFilter(watched, event);
}

void OpPicker::pickTyped()
{
    const QString name = resolve(lineEdit()->text());
    const int at = name.isEmpty() ? -1 : findData(name);
    if (at < 0) {
        setEditText(itemText(currentIndex()));
        return;
    }
    if (at != currentIndex()) setCurrentIndex(at);
    setEditText(name);
    emit activated(at);
}

} // namespace ss::ui
