// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/filecommands.h"

#include "ui/workbench/mainwindow.h"
#include "ui/workbench/mnemonics.h"
#include "ui/workbench/workspacedocument.h"

#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QUndoStack>

namespace ss::ui {

FileCommands::FileCommands(MainWindow& window, WorkspaceDocument* document)
    : QObject(&window), m_window(window), m_document(document)
{
    m_diskPrompt = [this](const QString& text) {
        QMessageBox box(QMessageBox::Warning, tr("File changed on disk"), text,
                        QMessageBox::NoButton, &m_window);
        box.setObjectName(QStringLiteral("fileChangedDialog"));
        QPushButton* reload = box.addButton(tr("&Reload"), QMessageBox::DestructiveRole);
        QPushButton* overwrite = box.addButton(tr("&Overwrite"), QMessageBox::AcceptRole);
        QPushButton* saveAs = box.addButton(tr("Save &As…"), QMessageBox::ActionRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
        giveButtonsMnemonics(box);
        box.exec();
        return box.clickedButton() == reload      ? DiskChoice::Reload
               : box.clickedButton() == overwrite ? DiskChoice::Overwrite
               : box.clickedButton() == saveAs    ? DiskChoice::SaveAs
                                                  : DiskChoice::Cancel;
    };
    m_savePrompt = [this](const QString& text) {
        QMessageBox box(QMessageBox::Warning, tr("Save changes?"), text,
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, &m_window);
        box.setObjectName(QStringLiteral("saveChangesDialog"));
        box.setDefaultButton(QMessageBox::Save);
        giveButtonsMnemonics(box);
        switch (box.exec()) {
        case QMessageBox::Save: return SaveChoice::Save;
        case QMessageBox::Discard: return SaveChoice::Discard;
        default: return SaveChoice::Cancel;
        }
    };
    m_window.installEventFilter(this);
}

bool FileCommands::eventFilter(QObject* watched, QEvent* event)
{
    // Focus coming back: another program may have changed the file. Checked after the
    // activation has been handled: a dialog opened inside it would nest in it.
    if (watched == &m_window && event->type() == QEvent::ActivationChange &&
        m_window.isActiveWindow())
        QTimer::singleShot(0, this, &FileCommands::checkFileOnDisk);
    return false;
}

void FileCommands::checkFileOnDisk()
{
    if (m_document->filePath().isEmpty() || m_askingDisk) return;
    const FileStamp::Change change = m_document->diskChange();
    if (change == FileStamp::Change::None) return;
    // Once per change on disk: leaving the question open ("Cancel") is an answer too.
    if (!m_document->takeNewDiskChange()) return;
    if (change == FileStamp::Change::Missing) {
        m_window.showError(tr("%1 was deleted or moved on disk since this window opened or saved "
                              "it. Save writes it again.")
                               .arg(QFileInfo(m_document->filePath()).fileName()));
        return;
    }
    // Nothing unsaved here: the window follows the file, one undo step from what it showed.
    // A file that cannot be read now is asked about, as a window with changes is.
    if (!m_document->isModified() && m_document->followFile()) return;
    resolveDiskChange();
}

bool FileCommands::resolveDiskChange()
{
    const QString file = m_document->filePath();
    const QString name = QFileInfo(file).fileName();
    QString text = tr("\"%1\" was changed on disk by another window or program since this window "
                      "opened or saved it.")
                       .arg(name);
    if (m_document->isModified()) text += tr(" This window also has changes that are not saved.");
    text += tr("\n\nReload the file (this window's version is lost), overwrite it with this "
               "window's workspace (the other version is lost), or save this window's "
               "workspace as another file?");
    m_askingDisk = true;
    const DiskChoice choice = m_diskPrompt(text);
    m_askingDisk = false;
    QString error;
    switch (choice) {
    case DiskChoice::Reload:
        if (m_document->openFile(file, &error)) return true;
        break;
    case DiskChoice::Overwrite:
        if (m_document->saveFile(file, &error, true)) return true;
        break;
    case DiskChoice::SaveAs: return saveAs();
    case DiskChoice::Cancel:
        error = tr("%1 was changed on disk by another window or program; this window's version "
                   "is not saved there. Save asks again before overwriting it.")
                    .arg(name);
        break;
    }
    m_window.showError(error);
    return false;
}

bool FileCommands::maybeSave()
{
    if (!m_document->isModified()) return true;
    const QString name = m_document->displayName();
    switch (m_savePrompt(
        tr("The workspace \"%1\" has changes that are not saved. Save them?").arg(name))) {
    case SaveChoice::Save: return save();
    case SaveChoice::Discard: return true;
    case SaveChoice::Cancel: break;
    }
    return false;
}

bool FileCommands::newWorkspace()
{
    if (!maybeSave()) return false;
    Workspace fresh;
    if (!(fresh == m_document->workspace())) m_document->edit(fresh, tr("New workspace"));
    m_document->forgetFile();
    m_document->undoStack()->setClean();
    emit untitled();
    return true;
}

bool FileCommands::save()
{
    if (m_document->filePath().isEmpty()) return saveAs();
    if (m_document->diskChange() == FileStamp::Change::Modified) {
        // Saving would replace another window's or program's work: asked every time.
        m_document->takeNewDiskChange();
        return resolveDiskChange();
    }
    QString error;
    if (m_document->saveFile(m_document->filePath(), &error)) return true;
    m_window.showError(error);
    return false;
}

bool FileCommands::saveAs()
{
    // The desktop file's MIME type matches *.slicescope.json, so a workspace saved with that
    // suffix opens in SliceScope when double-clicked: the name gets it unless another is typed.
    QFileDialog dialog(&m_window, tr("Save the workspace"));
    dialog.setObjectName(QStringLiteral("saveDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilters({tr("SliceScope workspace (*.slicescope.json)"), tr("JSON (*.json)")});
    dialog.setDefaultSuffix(QStringLiteral("slicescope.json"));
    if (!m_document->filePath().isEmpty()) {
        dialog.selectFile(m_document->filePath());
    } else {
        const QString lesson = m_window.currentLesson();
        const QString name = (lesson.isEmpty() ? QStringLiteral("workspace") : lesson) +
                             QStringLiteral(".slicescope.json");
        dialog.setDirectory(m_document->dialogFolder());
        dialog.selectFile(name);
    }
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return false;
    QString error;
    if (m_document->saveFile(dialog.selectedFiles().constFirst(), &error)) return true;
    m_window.showError(error);
    return false;
}

} // namespace ss::ui
