// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/opeditorhost.h"

#include "core/frameworks/framework_model.h"
#include "ui/editors/opeditor.h"
#include "ui/editors/speceditor.h"
#include "ui/editors/workbenchupdate.h"
#include "ui/workbench/workspacedocument.h"

#include <QSettings>
#include <QVBoxLayout>

namespace ss::ui {

namespace {

const char* const kHistoryKey = "editor/history";

} // namespace

OpEditorHost::OpEditorHost(WorkspaceDocument* document, std::function<bool()> resultIsGood,
                           QWidget* parent)
    : QWidget(parent), m_document(document), m_resultIsGood(std::move(resultIsGood))
{
    setObjectName(QStringLiteral("opEditorHost"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
}

SpecEditor* OpEditorHost::specEditor() const
{
    return m_editor ? m_editor->specEditor() : nullptr;
}

OpEditor* OpEditorHost::replace(const OpDef& def)
{
    if (m_editor) {
        m_editor->hide();
        m_editor->deleteLater();
    }
    m_editor = makeOpEditor(def, this).release();
    layout()->addWidget(m_editor);
    m_unreadable.clear();
    connect(m_editor, &OpEditor::unreadableChanged, this, &OpEditorHost::checkUnreadable);
    connect(m_editor, &OpEditor::attrsEdited, this, [this](const Attrs& attrs, const QString& key) {
        Workspace next = m_document->workspace();
        next.attrs = attrs;
        m_document->edit(next, tr("Edit the arguments"), key);
    });
    connect(m_editor, &OpEditor::frameworkEdited, this, [this](Framework framework) {
        Workspace next = m_document->workspace();
        next.framework = framework;
        m_document->edit(next,
                         tr("Read the expression as %1")
                             .arg(QString::fromUtf8(frameworkModel(framework).title())),
                         {});
    });
    if (SpecEditor* spec = specEditor()) {
        if (m_callReader) spec->setCallReader(m_callReader);
        spec->setHistory(QSettings().value(QLatin1String(kHistoryKey)).toStringList());
        connect(spec, &QLineEdit::editingFinished, this, [this, spec] {
            if (m_resultIsGood()) {
                spec->addToHistory(spec->text());
                QSettings().setValue(QLatin1String(kHistoryKey), spec->history());
            }
        });
    }
    return m_editor;
}

void OpEditorHost::setCallReader(SpecEditor::CallReader reader)
{
    m_callReader = std::move(reader);
    if (SpecEditor* spec = specEditor()) spec->setCallReader(m_callReader);
}

void OpEditorHost::checkUnreadable()
{
    const auto fields = m_editor->unreadableAttrs();
    QStringList names;
    for (const auto& [name, why] : fields)
        names << name;
    const QString text = unreadableFieldsHtml(fields);
    if (text == m_unreadable) return;
    m_unreadable = text;
    emit unreadableChanged(text, names);
}

void OpEditorHost::saveHistory() const
{
    if (SpecEditor* spec = specEditor())
        QSettings().setValue(QLatin1String(kHistoryKey), spec->history());
}

} // namespace ss::ui
