// SPDX-License-Identifier: GPL-3.0-or-later
// File > New, Save and Save As with the questions asked before work would be lost: "Save
// changes?" before a workspace is replaced, and what to do when the window's file was changed
// on disk by another window or program. Tests and the automation channel answer the questions
// through prompts instead of modal dialogs.
#pragma once

#include <QObject>

#include <functional>

namespace ss::ui {

class MainWindow;
class WorkspaceDocument;

class FileCommands : public QObject
{
    Q_OBJECT
public:
    /// The answer to "Save changes?".
    enum class SaveChoice { Save, Discard, Cancel };
    /// Asks the question (`text` says what would be lost) and returns the answer.
    using SavePrompt = std::function<SaveChoice(const QString& text)>;
    /// The answer when the window's file changed on disk since this window opened or saved it.
    enum class DiskChoice { Reload, Overwrite, SaveAs, Cancel };
    using DiskPrompt = std::function<DiskChoice(const QString& text)>;

    /// The commands on `window`'s `document`; the questions are dialogs over `window` until
    /// replaced.
    /// Whenever `window` becomes active, checks whether its file changed on disk.
    FileCommands(MainWindow& window, WorkspaceDocument* document);

    bool eventFilter(QObject* watched, QEvent* event) override;

    void setSavePrompt(SavePrompt prompt) { m_savePrompt = std::move(prompt); }
    void setDiskPrompt(DiskPrompt prompt) { m_diskPrompt = std::move(prompt); }

    /// Asks "Save changes?" if there are unsaved changes, and saves if told to. True when the
    /// caller may go on.
    bool maybeSave();
    /// A fresh untitled workspace (after maybeSave). False if cancelled.
    bool newWorkspace();
    /// To the document's file, or as Save As when untitled. False if cancelled or failed.
    bool save();
    /// Asks for a file name. False if cancelled or failed.
    bool saveAs();
    /// Once per change on disk: a window with nothing unsaved follows the file (Undo goes back);
    /// one with changes, or a file it cannot read, asks what to do; a file gone is said in the
    /// strip.
    void checkFileOnDisk();

signals:
    /// The document forgot its file: the title names the workspace again.
    void untitled();

private:
    /// Asks what to do about the file changed on disk, and does it. True when this window's
    /// work is safe afterwards (saved, or replaced by the file as the user chose).
    bool resolveDiskChange();

    MainWindow& m_window;
    WorkspaceDocument* m_document;
    SavePrompt m_savePrompt;
    DiskPrompt m_diskPrompt;
    bool m_askingDisk = false; ///< the "changed on disk" question is open
};

} // namespace ss::ui
