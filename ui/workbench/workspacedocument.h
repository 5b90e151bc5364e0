// SPDX-License-Identifier: GPL-3.0-or-later
// The workspace the window shows as a document: the workspace itself, the file it was opened
// from or saved to, the undo history of its edits, the recent files and the export of its
// result. The window, the exercises, the automation channel and the command line edit it here;
// the window shows what it holds (changed()).
#pragma once

#include "ui/model/filestamp.h"
#include "ui/model/workspace.h"

#include <QObject>
#include <QStringList>

class QUndoStack;

namespace ss::ui {

class EngineClient;
class EvaluationController;

class WorkspaceDocument : public QObject
{
    Q_OBJECT
public:
    /// `engine` gives the limits files are read under, `evaluation` the result to export.
    WorkspaceDocument(EngineClient* engine, const EvaluationController* evaluation,
                      QObject* parent);
    ~WorkspaceDocument() override;

    const Workspace& workspace() const { return m_ws; }
    QUndoStack* undoStack() const { return m_undo; }
    /// Whether there are edits since the document was opened or saved.
    bool isModified() const;

    /// Replaces the workspace as one undoable step. Consecutive edits with the same `mergeKey`
    /// (keystrokes in one text field) within two seconds merge into one step; edits without a
    /// key never merge. Nothing happens when `next` is the workspace already.
    void edit(const Workspace& next, const QString& undoText, const QString& mergeKey = {});
    /// Shows an opened lesson or file: not an undo step, the history starts afresh from it (the
    /// clean state).
    void load(const Workspace& ws);
    /// Shows `ws` again (the window's first workspace): changed() with `ws` as the previous one.
    void reapply();

    /// Opens a workspace (.json, which becomes the document's file, with a fresh history) or a
    /// NumPy file (.npy: the first input, one undo step). On failure the workspace is unchanged
    /// and `error` says why.
    bool openFile(const QString& path, QString* error);
    /// The document's file changed on disk while nothing here is unsaved: its workspace
    /// replaces the one on show as one undo step (Undo brings back what this window showed)
    /// and is the clean state, with a note saying so. False, changing nothing, if the file
    /// cannot be read.
    bool followFile();
    /// Writes the workspace to `path`, which becomes the document's file. Writes nothing when
    /// `path` is the document's file, nothing is unsaved and the file is as this document left
    /// it. Refuses (false, `error` says why) to replace the document's file when it changed on
    /// disk since it was opened or saved here, unless `overwrite`.
    bool saveFile(const QString& path, QString* error, bool overwrite = false);
    /// The workspace file (opened or saved last), empty when untitled.
    QString filePath() const { return m_filePath; }
    /// Untitled from now on (a lesson, File > New, recovered work).
    void forgetFile();
    /// The file, else the workspace's title, else "Untitled": what the window and its questions
    /// call the document.
    QString displayName() const;

    /// How the document's file on disk compares with what this document last read or wrote.
    FileStamp::Change diskChange() const;
    /// Whether the change on disk is one not asked about yet; from now on it has been.
    bool takeNewDiskChange();

    /// Workspace files opened or saved, newest first, missing files left out.
    static QStringList recentFiles();
    /// recentFiles(), with the missing files also dropped from the setting.
    static QStringList pruneRecentFiles();
    /// The folder of the last file opened, saved or exported (empty at first).
    static QString lastFolder();
    /// Remembers `path`'s folder as the last one used (across runs).
    static void rememberFolder(const QString& path);
    /// Where a file dialog starts: the last folder used, else the workspace file's, else the
    /// home folder (never the folder the program happened to start in).
    QString dialogFolder() const;
    /// Whether the start reopens the last workspace file (the setting "files/reopenLast").
    static bool reopensLastWorkspace();
    static void setReopensLastWorkspace(bool on);

    /// Writes every output of the current result as .npy: `path` for one output (".npy" added
    /// to a bare name), `base-NAME.npy` per output name for several. Refuses a result that is
    /// stale (an error, or an evaluation still running). `written` lists the files. An empty
    /// `path` only checks that there is a current result to export.
    bool exportOutputs(const QString& path, QStringList* written, QString* error) const;

signals:
    /// An edit or a load is about to replace the workspace: the user works on what is on show.
    void aboutToChange();
    /// The workspace was replaced (an edit, undo, redo, a load); `previous` is the one before.
    void changed(const ss::ui::Workspace& previous);
    /// A lesson or a file was opened (load()): a workspace of its own, not an edit.
    void opened();
    /// The document's file or its name changed (title, Save).
    void fileChanged();
    /// A file joined the recent files.
    void recentFilesChanged();
    /// What the user should know about a file just opened (why it opens on another spec), until
    /// the next edit.
    void noted(const QString& text);

private:
    class WorkspaceCommand;

    void apply(const Workspace& ws);
    /// Remembers the file as it is on disk now (opened or saved).
    void stampFile();
    void addRecentFile(const QString& path);

    EngineClient* m_engine;
    const EvaluationController* m_evaluation;
    QUndoStack* m_undo;
    Workspace m_ws;
    QString m_filePath;
    FileStamp m_fileStamp;    ///< the file as this document last read or wrote it
    FileStamp m_diskAnswered; ///< the file on disk the user was last asked about
};

} // namespace ss::ui
