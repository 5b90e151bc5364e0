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

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QComboBox;
class QUndoStack;

namespace ss::ui {

class DecodeStepper;
class DockSetup;
class EditorArea;
class EvaluationController;
class FileDrop;
class ExercisePanel;
class FrameworksPanel;
class InputPanel;
class LessonNavigator;
class CallPaster;
class MainActions;
class ModelDock;
class OpEditor;
class OpEditorHost;
class OutputPanel;
class PresentationMode;
class ResultPresenter;
class SessionGuard;
class SpecEditor;
class StatusPanel;
class TensorView;
class WindowMessages;
class WorkbenchSplitter;
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
    QString currentLesson() const;
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
    /// The answer when the window's file changed on disk since this window opened or saved it.
    using DiskChoice = FileCommands::DiskChoice;
    using DiskPrompt = FileCommands::DiskPrompt;
    /// Replaces the "changed on disk" dialog (tests; the automation channel, which must never
    /// meet a modal dialog, answers Cancel and gets Save's error instead).
    void setDiskPrompt(DiskPrompt prompt);
    /// File > New, Save, Save As, "Save changes?" and the check for a file changed on disk
    /// (done whenever the window gains focus).
    FileCommands* files() const { return m_files; }
    /// The open lesson, switching lessons (after "Save changes?") and Next lesson.
    LessonNavigator* lessonNavigator() const { return m_lessons; }
    /// The message strip (errors, start errors, notices) and the title.
    WindowMessages* messages() const { return m_messages; }
    /// The docks: stepper(), frameworks(), exercises(), model(), gallery() and the dock widgets
    /// (`exerciseDock()->toggleViewAction()` is Lessons > Exercises).
    DockSetup* docks() const { return m_docks; }

    /// Restores the window geometry and the docks as the last session left them.
    void restoreWindowState();
    /// Shows an error in the window's message strip (failed file operations).
    void showError(const QString& text);

    /// True when no edit waits for evaluation and none is running.
    bool isSettled() const;
    /// The newest evaluation (it may have failed) and the one the output views show.
    std::shared_ptr<const Evaluation> lastEvaluation() const;
    std::shared_ptr<const Evaluation> shownEvaluation() const;

    EngineClient* engine() const { return m_engine; }
    /// Reads a slicing call pasted from code into the op it computes (Edit > Paste Call).
    CallPaster* callPaster() const { return m_paster; }
    /// The debounce and the newest, last good and shown evaluations (`evaluateNow()` skips the
    /// debounce).
    EvaluationController* evaluation() const { return m_evaluation; }
    QUndoStack* undoStack() const;
    DecodeStepper* stepper() const;
    OpEditor* opEditor() const;
    /// The toolbar's op picker: choosing an op there switches to its example, one undo step.
    QComboBox* opPicker() const;
    /// The top of the window: lesson banner, strips and the op's editor (presentation mode puts
    /// its banner above them).
    QWidget* editorArea() const;
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

private:
    void buildLayout();
    /// Shows the document's workspace after it replaced `previous` (an edit, undo, a load).
    void showWorkspace(const Workspace& previous);
    void replaceOpEditor(const OpDef& def);
    /// Fields that do not read: why (`html`, for the message strip) and which (`names`).
    struct Unreadable
    {
        QString html;
        QStringList names;
    };
    /// Fields that do not read hold the result as stale.
    void setUnreadable(const Unreadable& fields);
    /// The op editor's fields and the inputs' shapes that do not read, in the status, the
    /// views and the message strip.
    void showUnreadable();
    void showEvaluation(const std::shared_ptr<const Evaluation>& eval);
    void checkSettled();

    EngineClient* m_engine;
    EvaluationController* m_evaluation;
    WorkspaceDocument* m_doc;
    SessionGuard* m_session;

    EditorArea* m_top = nullptr;
    OpEditorHost* m_editorHost = nullptr;
    WorkbenchSplitter* m_splitter = nullptr;
    InputPanel* m_inputs = nullptr;
    OutputPanel* m_outputs = nullptr;
    StatusPanel* m_status = nullptr;
    DockSetup* m_docks = nullptr;
    MainActions* m_actions = nullptr;
    CallPaster* m_paster = nullptr;
    ResultPresenter* m_result = nullptr;
    PresentationMode* m_presentation = nullptr;
    FileCommands* m_files = nullptr;
    FileDrop* m_drop = nullptr;
    WindowMessages* m_messages = nullptr;
    LessonNavigator* m_lessons = nullptr;
    Unreadable m_unreadableArgs;   ///< the op editor's fields
    Unreadable m_unreadableShapes; ///< the inputs' shape fields
    bool m_shownBefore = false;    ///< the first show puts the keys in the op's editor
};

} // namespace ss::ui
