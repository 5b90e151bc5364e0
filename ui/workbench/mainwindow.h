// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench: op picker and argument editor on top, input and output views side by side,
// the decode stepper and the lessons as docks, shapes and timing in the status bar. The window
// shows a WorkspaceDocument (the workspace, its file and its undo history) and re-evaluates it
// on a worker through an EvaluationController.
#pragma once

#include "ui/model/engineclient.h"
#include "ui/model/workspace.h"
#include "ui/workbench/filecommands.h"

#include <QMainWindow>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QMimeData;
class QSplitter;
class QUndoStack;

namespace ss::ui {

class DecodeStepper;
class DockSetup;
class EvaluationController;
class FileDrop;
class ExercisePanel;
class FrameworksPanel;
class InputPanel;
class LessonBanner;
class MainActions;
class MessageStrip;
class ModelDock;
class OpEditor;
class OutputPanel;
class PresentationMode;
class RecoveryStrip;
class ResultPresenter;
class SessionGuard;
class SpecEditor;
class StatusPanel;
class TensorView;
class WorkspaceDocument;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    const Workspace& workspace() const;
    /// The workspace, its file, its undo history: what the exercises, the automation channel
    /// and the command line edit.
    WorkspaceDocument* document() const { return m_doc; }
    /// Replaces the workspace as one undoable step (the command line's options, tests).
    void setWorkspace(const Workspace& workspace, const QString& undoText);
    /// Opens a built-in lesson by name; false if there is none (or this build lacks its op).
    /// Opening a lesson or a file is not an undo step: the history starts afresh (clean).
    bool openLesson(const QString& name);
    QString currentLesson() const { return m_lessonName; }
    /// Opens a workspace (.json) or a NumPy file (.npy, as the first input). On failure the
    /// workspace is unchanged and `error` says why.
    bool openFile(const QString& path, QString* error);
    /// Writes the workspace to `path`, which becomes the window's file (title, Save). Writes
    /// nothing when `path` is the window's file, nothing is unsaved and the file is as this
    /// window left it. Refuses (false, `error` says why) to replace the window's file when it
    /// changed on disk since this window opened or saved it, unless `overwrite`.
    bool saveFile(const QString& path, QString* error, bool overwrite = false);
    /// The workspace file the window shows (opened or saved last), empty when untitled.
    QString filePath() const;

    /// The answer to "Save changes?", and the question's stand-in.
    using SaveChoice = FileCommands::SaveChoice;
    using SavePrompt = FileCommands::SavePrompt;
    /// Replaces the "Save changes?" dialog: tests answer without a modal dialog's event loop.
    void setSavePrompt(SavePrompt prompt) { m_files->setSavePrompt(std::move(prompt)); }
    /// The answer when the window's file changed on disk since this window opened or saved it.
    using DiskChoice = FileCommands::DiskChoice;
    using DiskPrompt = FileCommands::DiskPrompt;
    /// Replaces the "changed on disk" dialog (tests; the automation channel, which must never
    /// meet a modal dialog, answers Cancel and gets Save's error instead).
    void setDiskPrompt(DiskPrompt prompt) { m_files->setDiskPrompt(std::move(prompt)); }
    /// Looks whether the window's file changed on disk (done whenever the window gains focus):
    /// if so, asks once per change whether to reload it, overwrite it or save as another file;
    /// a file gone from disk is said in the message strip.
    void checkFileOnDisk();

    /// Before work would be replaced (quit, New, Open, another lesson): asks "Save changes?" if
    /// there are unsaved changes, and saves if told to. True when the caller may go on.
    bool maybeSave();
    /// File > New: a fresh untitled workspace (after maybeSave). False if cancelled.
    bool newWorkspace();
    /// File > Save: to filePath(), or as Save As when untitled. False if cancelled or failed.
    bool save();
    /// File > Save As: asks for a file name. False if cancelled or failed.
    bool saveAs();
    /// Lessons chosen by the user (gallery, Next lesson): maybeSave, then openLesson.
    bool switchLesson(const QString& name);
    /// Next lesson (the banner's button, Lessons > Next Lesson): the next available lesson after
    /// the open one, or the first when none is open.
    void openNextLesson();

    /// Writes every output of the current result as .npy: `path` for one output (".npy" added
    /// to a bare name), `base-NAME.npy` per output name for several. Refuses a result that is
    /// stale (an error, or an evaluation still running). `written` lists the files. An empty
    /// `path` only checks that there is a current result to export.
    bool exportOutputs(const QString& path, QStringList* written, QString* error);

    /// Workspace files opened or saved, newest first, missing files left out.
    QStringList recentFiles() const;
    /// Restores the window geometry and the docks as the last session left them.
    void restoreWindowState();
    /// Whether the start reopens the last workspace file (the setting "files/reopenLast").
    static bool reopensLastWorkspace();
    /// Shows an error in the window's message strip (failed file operations).
    void showError(const QString& text);
    /// What the command line asked for could not be done (a file that does not open, an unknown
    /// lesson): the message strip says so until the first edit or the next file or lesson
    /// opened (results do not clear it), and for a file (`file` not empty) the title names it
    /// as not opened, so that the default workspace on show is not taken for the file's data.
    void showStartError(const QString& text, const QString& file = {});
    /// A notice that stays for the session: shown in the message strip whenever no error is
    /// (a result clears errors, not notices). For files found unreadable at start (the exercise
    /// progress, an exercise set, the settings), which were set aside or left out.
    void showNotice(const QString& text);

    /// Evaluates at once instead of after the debounce (benchmarks, the command line).
    void evaluateNow();
    /// True when no edit waits for evaluation and none is running.
    bool isSettled() const;
    /// The newest evaluation (it may have failed) and the one the output views show.
    std::shared_ptr<const Evaluation> lastEvaluation() const;
    std::shared_ptr<const Evaluation> shownEvaluation() const;

    EngineClient* engine() const { return m_engine; }
    QUndoStack* undoStack() const;
    DecodeStepper* stepper() const;
    FrameworksPanel* frameworksPanel() const;
    /// The exercise dock (Lessons > Exercises): hidden until asked for.
    ExercisePanel* exercisePanel() const;
    /// Lessons > Exercises, the exercise dock's view action (trigger it to show the dock).
    QAction* exercisesAction() const;
    /// The Model dock (File > Open Model…): hidden until a model file is opened.
    ModelDock* modelDock() const;
    OpEditor* opEditor() const { return m_opEditor; }
    /// The toolbar's op picker: choosing an op there switches to its example, one undo step.
    QComboBox* opPicker() const;
    /// The top of the window: lesson banner, strips and the op's editor (presentation mode puts
    /// its banner above them).
    QWidget* editorArea() const { return m_editorArea; }
    /// The status bar's shapes line ("input int32 (5, 6) · 30 elements → ...").
    QString statusShapes() const;
    /// getitem's expression line, or null when the op has none.
    SpecEditor* specEditor() const;
    InputPanel* inputPanel() const { return m_inputs; }
    /// The output views with the hover linking between inputs and outputs.
    OutputPanel* outputPanel() const { return m_outputs; }
    int outputViewCount() const;
    TensorView* outputView(int k) const;
    TensorView* inputView(int slot) const;
    /// The text of the message strip (errors), empty when hidden.
    QString message() const;
    /// Whether the outputs shown are the last good result of an older edit.
    bool isStale() const;

    /// Neither autosaves this session nor offers to recover another (screenshots, benchmarks).
    void forgetSession();
    /// Offers, in a strip above the editors, to recover the work of a session that was killed
    /// (at the start of the application, not for every window).
    void offerRecovery();
    SessionGuard* session() const { return m_session; }

    /// View > Presentation (F5, --presentation): large type, docks hidden; off restores the
    /// layout as it was.
    PresentationMode* presentation() const { return m_presentation; }

    /// Where autosaves go (a per-user data directory; tests point it elsewhere).
    static QString sessionDirectory();

signals:
    /// An evaluation's result (good or failed) is on screen.
    void evaluationShown();
    /// Nothing is pending: the screen shows the newest workspace's result.
    void settled();
    /// A lesson or a file was opened (load()): a workspace of its own, not an edit.
    void workspaceOpened();

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    /// Tab and Shift+Tab follow TabOrder: where widgets are, not when they were made.
    bool focusNextPrevChild(bool next) override;
    void showEvent(QShowEvent* event) override;
    /// Focus coming back: the window's file may have been changed by another program.
    void changeEvent(QEvent* event) override;
    /// .npy and workspace files dropped on the window open; a .npy dropped on an input
    /// replaces that input.
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildLayout();
    /// What the window does when the docks' panels speak: steps lit, a framework's reading
    /// shown, a lesson chosen.
    void connectDocks();
    /// Shows the document's workspace after it replaced `previous` (an edit, undo, a load).
    void showWorkspace(const Workspace& previous);
    void replaceOpEditor(const OpDef& def);
    void scheduleEvaluation();
    void showEvaluation(const std::shared_ptr<const Evaluation>& eval);
    /// The message strip for the newest state: an unreadable attribute, else the newest
    /// evaluation's error, else a start error that still holds.
    void showCurrentMessage();
    void updateBanner();
    void fitEditorArea();
    void onElementEdited(int slot, qint64 flat, const QString& text);
    void showMessage(const QString& text);
    void checkSettled();
    void updateTitle();

    QString m_lessonName;
    EngineClient* m_engine;
    EvaluationController* m_evaluation;
    WorkspaceDocument* m_doc;

    LessonBanner* m_banner = nullptr;
    MessageStrip* m_message = nullptr;
    QStringList m_notices; ///< HTML, shown when no error is (showNotice)
    RecoveryStrip* m_recovery = nullptr;
    QLabel* m_unprotected = nullptr; ///< "your work is not being protected", while it is not
    QWidget* m_editorArea = nullptr;
    QWidget* m_editorHost = nullptr;
    QSplitter* m_mainSplitter = nullptr;
    OpEditor* m_opEditor = nullptr;
    InputPanel* m_inputs = nullptr;
    OutputPanel* m_outputs = nullptr;
    StatusPanel* m_status = nullptr;
    DockSetup* m_docks = nullptr;
    MainActions* m_actions = nullptr;

    ResultPresenter* m_result = nullptr;
    bool m_fitEditors = true; ///< the editors' height follows their content (until dragged)

    SessionGuard* m_session = nullptr;
    PresentationMode* m_presentation = nullptr;
    FileCommands* m_files = nullptr;
    FileDrop* m_drop = nullptr;
    QString m_startError;  ///< a start error that holds until the first edit
    QString m_notOpened;   ///< the start file that did not open, for the title
    QString m_unreadable;  ///< the op editor's attribute fields that do not read, why
    QString m_evalMessage; ///< the shown evaluation's error for the message strip
};

} // namespace ss::ui
