// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/mainwindow.h"

#include "ui/editors/inputpanel.h"
#include "ui/editors/opeditor.h"
#include "ui/model/stagetrace.h"
#include "ui/model/startuppages.h"
#include "ui/model/workerpool.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/autosavewarning.h"
#include "ui/workbench/callpaster.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/editorarea.h"
#include "ui/workbench/evaluationcontroller.h"
#include "ui/workbench/filecommands.h"
#include "ui/workbench/filedrop.h"
#include "ui/workbench/frameworkspanel.h"
#include "ui/workbench/inputedits.h"
#include "ui/workbench/lessonnavigator.h"
#include "ui/workbench/mainactions.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/opeditorhost.h"
#include "ui/workbench/outputpanel.h"
#include "ui/workbench/presentationmode.h"
#include "ui/workbench/recoverystrip.h"
#include "ui/workbench/resultpresenter.h"
#include "ui/workbench/sessionguard.h"
#include "ui/workbench/statuspanel.h"
#include "ui/workbench/taborder.h"
#include "ui/workbench/windowmessages.h"
#include "ui/workbench/workbenchsplitter.h"
#include "ui/workbench/workspacedocument.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

namespace ss::ui {

namespace {

const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_engine(new EngineClient(this)),
      m_evaluation(new EvaluationController(
          m_engine, [this]() -> const Workspace& { return m_doc->workspace(); }, this)),
      m_doc(new WorkspaceDocument(m_engine, m_evaluation, this)),
      m_session(new SessionGuard(
          WorkerPool::shared(), [this] { return m_doc->isModified(); },
          [this] { return m_doc->workspace(); }, this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setAccessibleName(tr("SliceScope workbench"));
    setWindowTitle(tr("SliceScope"));
    connect(m_doc, &WorkspaceDocument::changed, this, &MainWindow::showWorkspace);
    connect(m_doc, &WorkspaceDocument::opened, this, [this] {
        // Opened, not edited: its decode starts at the beginning (from an earlier lesson's last
        // step, Next would be off and the text would still say "Press Next").
        m_docks->stepper()->setCurrentStep(-1);
        emit workspaceOpened();
    });
    buildLayout();
    m_messages = new WindowMessages(*this, m_doc, m_top->messageStrip());
    new InputEdits(m_inputs, m_doc, m_engine, m_messages, this);
    connect(m_top->recovery(), &RecoveryStrip::failed, m_messages, &WindowMessages::show);
    m_docks = new DockSetup(*this);
    connect(m_docks->model(), &ModelDock::loadingChanged, this, &MainWindow::checkSettled);
    m_result =
        new ResultPresenter(m_evaluation, m_inputs, m_outputs, m_docks->stepper(), m_status, this);
    connect(m_result, &ResultPresenter::fitted, this, &MainWindow::checkSettled);
    connect(m_docks->frameworks(), &FrameworksPanel::frameworkChosen, this,
            [this](const std::shared_ptr<const Evaluation>& eval) {
                if (!m_evaluation->last()) return;
                std::vector<std::shared_ptr<const Evaluation>> retired{m_evaluation->shown()};
                showEvaluation(eval ? eval : m_evaluation->last());
                m_engine->releaseLater(std::move(retired));
                // A framework's error has no result, but its steps say where it refuses.
                if (eval && !eval->ok) {
                    const std::vector<Tensor> inputs = eval->slotTensors();
                    m_docks->stepper()->setSteps(
                        eval->steps, inputs.empty() ? Shape{} : inputs.front().shape(), {});
                }
            });
    m_files = new FileCommands(*this, m_doc);
    connect(m_files, &FileCommands::untitled, m_messages, &WindowMessages::updateTitle);
    m_lessons = new LessonNavigator(m_doc, m_result, m_top->banner(), m_docks->gallery(), m_files,
                                    m_messages, this);
    m_presentation = new PresentationMode(*this);
    m_presentation->keepDock(m_docks->exerciseDock());
    m_paster = new CallPaster(*this); // the expression field and Edit > Paste Call read calls
    m_editorHost->setCallReader([this](const QString& text) { return m_paster->read(text); });
    m_actions = new MainActions(*this, *m_docks);
    connect(m_actions, &MainActions::failed, m_messages, &WindowMessages::show);
    m_result->setFitAction(m_actions->fitColoursAction());
    connect(m_actions->fitColoursAction(), &QAction::toggled, m_result,
            &ResultPresenter::fitColours);
    connect(m_presentation, &PresentationMode::toggled, this, [this](bool on) {
        // The editors ask for more room in larger type: fitted once the new fonts are laid out.
        if (on) QTimer::singleShot(0, m_splitter, &WorkbenchSplitter::refit);
    });

    connect(m_evaluation, &EvaluationController::arrived, this, &MainWindow::showEvaluation);
    connect(m_evaluation, &EvaluationController::delivered, this, [this] {
        emit evaluationShown();
        checkSettled();
    });
    // The views keep the result of an older edit: greyed and titled as such, like a failure's.
    connect(m_evaluation, &EvaluationController::cancelled, m_result,
            &ResultPresenter::applyStaleness);
    connect(m_evaluation, &EvaluationController::cancelled, m_messages,
            &WindowMessages::showCancelled);
    connect(m_evaluation, &EvaluationController::cancelled, this, &MainWindow::checkSettled);
    // Saved: the autosave goes (the title's marker follows first, see WindowMessages).
    connect(m_doc->undoStack(), &QUndoStack::cleanChanged, m_session,
            &SessionGuard::workspaceChanged);
    m_drop = new FileDrop(*this, m_doc, m_engine);
    // Roomy, but never larger than the screen the window opens on (Xvfb's 1280 x 800 included).
    resize(QSize(1440, 900).boundedTo(screen()->availableGeometry().size() * 0.94));
    keepGroupSeparators();
    m_doc->reapply();
}

MainWindow::~MainWindow()
{
    // Shutdown order: children being torn down (a line edit losing focus, a view) must not call
    // back into a half-destroyed window; then the session's autosave is settled (an autosave in
    // flight checks, under the guard's lock, that the work was not decided about meanwhile).
    for (QObject* child : findChildren<QObject*>())
        disconnect(child, nullptr, this, nullptr);
    // Nothing unsaved: the autosave goes; else it stays for the next start to offer (a window
    // closed by the user has been asked already, see closeEvent).
    if (!m_doc->isModified()) m_session->finish();
    m_session->disable();
    delete m_engine;
}

void MainWindow::buildLayout()
{
    m_top = new EditorArea(m_doc, m_engine, m_session, [this] {
        return isSettled() && m_evaluation->last() && m_evaluation->last()->ok;
    });
    m_editorHost = m_top->editorHost();
    connect(m_editorHost, &OpEditorHost::unreadableChanged, this,
            [this](const QString& html, const QStringList& names) {
                m_unreadableArgs = {html, names};
                showUnreadable();
            });
    m_inputs = new InputPanel;
    connect(m_inputs, &InputPanel::unreadableChanged, this,
            [this](const QString& html, const QStringList& names) {
                m_unreadableShapes = {html, names};
                showUnreadable();
            });
    connect(m_inputs, &InputPanel::viewSettled, this, &MainWindow::checkSettled);
    m_outputs = new OutputPanel(m_engine, m_evaluation, m_inputs);
    connect(m_outputs, &OutputPanel::viewSettled, this, &MainWindow::checkSettled);
    m_splitter = new WorkbenchSplitter(m_top, m_inputs, m_outputs);
    setCentralWidget(m_splitter->scrollArea());
    m_status = new StatusPanel(statusBar(), m_engine, m_evaluation);
}

const Workspace& MainWindow::workspace() const
{
    return m_doc->workspace();
}

void MainWindow::setWorkspace(const Workspace& workspace, const QString& undoText)
{
    m_doc->edit(workspace, undoText);
}

QUndoStack* MainWindow::undoStack() const
{
    return m_doc->undoStack();
}

QString MainWindow::filePath() const
{
    return m_doc->filePath();
}

bool MainWindow::openFile(const QString& path, QString* error)
{
    return m_doc->openFile(path, error);
}

bool MainWindow::saveFile(const QString& path, QString* error, bool overwrite)
{
    return m_doc->saveFile(path, error, overwrite);
}

bool MainWindow::openLesson(const QString& name)
{
    return m_lessons->open(name);
}

QString MainWindow::currentLesson() const
{
    return m_lessons->current();
}

QWidget* MainWindow::editorArea() const
{
    return m_top;
}

OpEditor* MainWindow::opEditor() const
{
    return m_editorHost->editor();
}

SpecEditor* MainWindow::specEditor() const
{
    return m_editorHost->specEditor();
}

TensorView* MainWindow::inputView(int slot) const
{
    return slot >= 0 && slot < m_inputs->slotCount() ? m_inputs->view(slot) : nullptr;
}

int MainWindow::outputViewCount() const
{
    return m_outputs->viewCount();
}

TensorView* MainWindow::outputView(int k) const
{
    return m_outputs->view(k);
}

DecodeStepper* MainWindow::stepper() const
{
    return m_docks->stepper();
}

QComboBox* MainWindow::opPicker() const
{
    return m_actions->opPicker();
}

QString MainWindow::statusShapes() const
{
    return m_status->shapes();
}

QString MainWindow::message() const
{
    return m_messages->message();
}

bool MainWindow::focusNextPrevChild(bool next)
{
    return TabOrder::move(this, next) || QMainWindow::focusNextPrevChild(next);
}

void MainWindow::showWorkspace(const Workspace& previous)
{
    const Workspace& ws = m_doc->workspace();
    const OpDef* def = findOp(ws.op);
    if (!def) return; // the document takes only workspaces of known ops
    const bool opChanged = !opEditor() || ws.op != previous.op;
    const bool bannerChanged = ws.title != previous.title || ws.explanation != previous.explanation;
    m_result->keepFacesOnlyFor(ws);
    // The worker starts first, so that it evaluates while the editors show the workspace.
    m_engine->invalidate();
    m_evaluation->schedule();
    m_status->update();
    if (opChanged) replaceOpEditor(*def);
    if (m_evaluation->shown() && m_evaluation->shown()->op != ws.op) m_result->forgetShown();
    // The lit tokens and rows belong to the text they were lit in: every edit clears the step
    // (and with it every highlight), so nothing lit describes arguments that changed.
    m_docks->stepper()->setCurrentStep(-1);
    opEditor()->lightStep(nullptr, nullptr);
    opEditor()->setWorkspace(ws);
    m_inputs->setWorkspace(*def, ws);
    m_lessons->follow(ws); // a lesson stays open while its title is shown
    if (opChanged || bannerChanged) m_splitter->followContent(); // a new op or lesson
    m_session->workspaceChanged();
}

void MainWindow::replaceOpEditor(const OpDef& def)
{
    m_result->setOpEditor(m_editorHost->replace(def));
    m_unreadableArgs = {};
    setUnreadable(m_unreadableShapes);
    m_messages->resetUnreadable();
    QComboBox* picker = m_actions->opPicker();
    picker->setCurrentIndex(picker->findData(QString::fromStdString(def.name)));
}

void MainWindow::setUnreadable(const Unreadable& fields)
{
    m_status->setUnreadable(fields.names);
    m_evaluation->setUnreadable(!fields.html.isEmpty());
    m_result->setUnreadable(!fields.html.isEmpty());
}

void MainWindow::showUnreadable()
{
    Unreadable fields = m_unreadableArgs;
    if (!m_unreadableShapes.html.isEmpty()) {
        if (!fields.html.isEmpty()) fields.html += QStringLiteral("; ");
        fields.html += m_unreadableShapes.html;
        fields.names += m_unreadableShapes.names;
    }
    setUnreadable(fields);
    m_result->applyStaleness();
    m_messages->setUnreadable(fields.html);
}

std::shared_ptr<const Evaluation> MainWindow::lastEvaluation() const
{
    return m_evaluation->last();
}

std::shared_ptr<const Evaluation> MainWindow::shownEvaluation() const
{
    return m_evaluation->shown();
}

bool MainWindow::isStale() const
{
    return m_evaluation->isStale();
}

bool MainWindow::isSettled() const
{
    // A model file being read is not settled either.
    return !m_evaluation->isBusy() && m_result->isSettled() && !m_docks->model()->isLoading();
}

void MainWindow::checkSettled()
{
    if (!isSettled()) return;
    m_engine->prepareNextOutput();               // after the result's own work on the pool
    dropStartUpPagesOnce(*WorkerPool::shared()); // what start-up alone read of the libraries
    emit settled();
}

void MainWindow::showEvaluation(const std::shared_ptr<const Evaluation>& eval)
{
    m_result->show(eval);
    stagetrace::mark("gui: views given the result");
    m_messages->setEvaluation(*eval);
    if (eval->ok) m_result->applyPendingFaces(m_doc->workspace());
    m_result->fitColours(); // now, so that the first frame of the result has its colours
    m_outputs->forgetHover();
    m_result->applyStaleness(); // updates the status and lights the current step
    stagetrace::mark("gui: messages, colours, staleness");
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // Narrower, the docks give room back before the editors' combo boxes are cut.
    m_docks->keepCentreRoom();
    // Wider, the lesson text takes fewer lines: the editors give the room back to the views.
    m_splitter->refit();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // The keys start in the op's editor (the expression), where Tab starts after the op picker:
    // Qt gave them to the first widget made that takes focus, the Decode steps list, whose focus
    // made step 1 current before anyone asked.
    if (!m_shownBefore) {
        m_shownBefore = true;
        for (QWidget* widget : TabOrder::chain(this))
            if (m_editorHost->isAncestorOf(widget)) {
                widget->setFocus(Qt::OtherFocusReason);
                break;
            }
    }
    // Hidden widgets ask for no room: the fit made before the window was shown is redone now
    // that the editors can say what they need.
    m_splitter->refit();
    // The docks are placed once the window is laid out: then they give the editors and views
    // their half (at 752 px, the default window on an 800 px screen, they left them 309 px).
    QTimer::singleShot(0, m_docks, &DockSetup::keepCentreRoom);
}

void MainWindow::forgetSession()
{
    m_session->disable();
    m_top->recovery()->hide();
    m_top->autosaveWarning()->hide();
}

void MainWindow::offerRecovery()
{
    m_top->recovery()->offer(m_session);
}

void MainWindow::showError(const QString& text)
{
    m_messages->showError(text);
}

void MainWindow::setDiskPrompt(DiskPrompt prompt)
{
    m_files->setDiskPrompt(std::move(prompt));
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_files->maybeSave()) {
        event->ignore();
        return;
    }
    // The layout to remember is the one presentation mode hides, not its own.
    m_presentation->setOn(false);
    QSettings settings;
    m_editorHost->saveHistory();
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
    // Saved or discarded: the user has decided, the autosave goes.
    m_session->finish();
    QMainWindow::closeEvent(event);
}

} // namespace ss::ui
