// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/mainwindow.h"

#include "core/error.h"
#include "ui/editors/inputpanel.h"
#include "ui/editors/opeditors.h"
#include "ui/editors/speceditor.h"
#include "ui/model/explain.h"
#include "ui/model/lessons.h"
#include "ui/model/workerpool.h"
#include "ui/model/workspacefile.h"
#include "ui/views/tensorformat.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/evaluationcontroller.h"
#include "ui/workbench/filecommands.h"
#include "ui/workbench/filedrop.h"
#include "ui/workbench/frameworkspanel.h"
#include "ui/workbench/inputcelledit.h"
#include "ui/workbench/lessonbanner.h"
#include "ui/workbench/lessongallery.h"
#include "ui/workbench/mainactions.h"
#include "ui/workbench/messagestrip.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/outputpanel.h"
#include "ui/workbench/presentationmode.h"
#include "ui/workbench/recoverystrip.h"
#include "ui/workbench/resultpresenter.h"
#include "ui/workbench/sessionguard.h"
#include "ui/workbench/statuspanel.h"
#include "ui/workbench/taborder.h"
#include "ui/workbench/workspacedocument.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>

namespace ss::ui {

namespace {

/// The error strip always holds this many lines, so an error never moves the editors.
constexpr int kMessageLines = 2;
const char* const kHistoryKey = "editor/history";
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_engine(new EngineClient(this)),
      m_evaluation(new EvaluationController(
          m_engine, [this]() -> const Workspace& { return m_doc->workspace(); }, this)),
      m_doc(new WorkspaceDocument(m_engine, m_evaluation, this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setAccessibleName(tr("SliceScope workbench"));
    setWindowTitle(tr("SliceScope"));
    connect(m_doc, &WorkspaceDocument::aboutToChange, this, [this] {
        // The user works on what is on show now: a start error has been read.
        m_startError.clear();
        m_notOpened.clear();
    });
    connect(m_doc, &WorkspaceDocument::changed, this, &MainWindow::showWorkspace);
    connect(m_doc, &WorkspaceDocument::opened, this, [this] {
        // Opened, not edited: its decode starts at the beginning (from an earlier lesson's last
        // step, Next would be off and the text would still say "Press Next").
        m_docks->stepper()->setCurrentStep(-1);
        emit workspaceOpened();
    });
    connect(m_doc, &WorkspaceDocument::fileChanged, this, &MainWindow::updateTitle);
    buildLayout();
    m_docks = new DockSetup(*this);
    connect(m_docks->model(), &ModelDock::loadingChanged, this, &MainWindow::checkSettled);
    m_result =
        new ResultPresenter(m_evaluation, m_inputs, m_outputs, m_docks->stepper(), m_status, this);
    connect(m_result, &ResultPresenter::fitted, this, &MainWindow::checkSettled);
    connectDocks();
    m_presentation = new PresentationMode(*this);
    m_presentation->keepDock(m_docks->exerciseDock());
    m_actions = new MainActions(*this, *m_docks);
    connect(m_actions, &MainActions::failed, this, &MainWindow::showMessage);
    m_result->setFitAction(m_actions->fitColoursAction());
    connect(m_actions->fitColoursAction(), &QAction::toggled, m_result,
            &ResultPresenter::fitColours);
    connect(m_presentation, &PresentationMode::toggled, this, [this](bool on) {
        // The editors ask for more room in larger type: fitted once the new fonts are laid out.
        if (on && m_fitEditors) QTimer::singleShot(0, this, &MainWindow::fitEditorArea);
    });

    connect(m_evaluation, &EvaluationController::arrived, this, &MainWindow::showEvaluation);
    connect(m_evaluation, &EvaluationController::delivered, this, [this] {
        emit evaluationShown();
        checkSettled();
    });
    connect(m_evaluation, &EvaluationController::cancelled, this, [this] {
        // The views keep the result of an older edit: greyed and titled as such, like a failure's.
        m_result->applyStaleness();
        showMessage(tr("Evaluation cancelled. The views show the last result; any edit "
                       "evaluates again."));
        checkSettled();
    });
    connect(m_doc->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        setWindowModified(!clean);
        if (m_session) m_session->workspaceChanged(); // saved: the autosave goes
    });

    m_files = new FileCommands(*this, m_doc);
    connect(m_files, &FileCommands::untitled, this, &MainWindow::updateTitle);
    m_drop = new FileDrop(*this, m_doc, m_engine);
    m_session = new SessionGuard(
        WorkerPool::shared(), [this] { return m_doc->isModified(); },
        [this] { return m_doc->workspace(); }, this);
    const auto showProtection = [this](const QString& problem) {
        m_unprotected->setText(problem);
        m_unprotected->setVisible(!problem.isEmpty() && m_session->isEnabled());
    };
    showProtection(m_session->problem());
    connect(m_session, &SessionGuard::protectionChanged, this, showProtection);
    // Roomy, but never larger than the screen the window opens on (Xvfb's 1280 x 800 included).
    resize(QSize(1440, 900).boundedTo(screen()->availableGeometry().size() * 0.94));
    setAcceptDrops(true);
    // Counts read "1,670,000 elements" in every locale: the C locale (an account without LANG)
    // leaves group separators out unless told to keep them.
    QLocale locale;
    if (locale.numberOptions() & QLocale::OmitGroupSeparator) {
        locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
        QLocale::setDefault(locale);
    }
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

QString MainWindow::sessionDirectory()
{
    return SessionGuard::directory();
}

void MainWindow::buildLayout()
{
    // Top: lesson banner, messages and the op's argument editor.
    auto* top = m_editorArea = new QWidget;
    top->setObjectName(QStringLiteral("editorArea"));
    auto* topLayout = new QVBoxLayout(top);
    m_banner = new LessonBanner;
    connect(m_banner, &LessonBanner::nextLessonClicked, this, &MainWindow::openNextLesson);
    m_message = new MessageStrip(kMessageLines);
    m_recovery = new RecoveryStrip(m_doc, m_engine);
    connect(m_recovery, &RecoveryStrip::failed, this, &MainWindow::showMessage);
    m_editorHost = new QWidget;
    m_editorHost->setObjectName(QStringLiteral("opEditorHost"));
    auto* hostLayout = new QVBoxLayout(m_editorHost);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_banner);
    topLayout->addWidget(m_recovery);
    // Shown while no autosave can be written anywhere (a read-only or full home): the user
    // must know that a crash now would lose the work, and where the autosave was tried.
    m_unprotected = new QLabel;
    m_unprotected->setObjectName(QStringLiteral("autosaveWarning"));
    m_unprotected->setWordWrap(true);
    m_unprotected->setTextFormat(Qt::PlainText);
    m_unprotected->setStyleSheet(QStringLiteral("#autosaveWarning { background-color: #fde2e1; "
                                                "color: #5c0f0b; border: 1px solid #e08a85; "
                                                "border-radius: 4px; padding: 4px; }"));
    m_unprotected->hide(); // filled in by the session guard (the constructor)
    topLayout->addWidget(m_unprotected);
    topLayout->addWidget(m_message);
    topLayout->addWidget(m_editorHost, 1);

    // Bottom: inputs beside outputs.
    m_inputs = new InputPanel;
    connect(m_inputs, &InputPanel::inputsEdited, this,
            [this](const std::vector<std::vector<InputSource>>& inputs, const QString& key) {
                Workspace next = m_doc->workspace();
                next.inputs = inputs;
                m_doc->edit(next, tr("Change the input"), key);
            });
    connect(m_inputs, &InputPanel::elementEdited, this, &MainWindow::onElementEdited);
    connect(m_inputs, &InputPanel::viewSettled, this, &MainWindow::checkSettled);
    m_outputs = new OutputPanel(m_engine, m_evaluation, m_inputs);
    connect(m_outputs, &OutputPanel::viewSettled, this, &MainWindow::checkSettled);

    auto* views = new QSplitter(Qt::Horizontal);
    views->setObjectName(QStringLiteral("viewSplitter"));
    views->addWidget(m_inputs);
    views->addWidget(m_outputs);
    views->setChildrenCollapsible(false);
    views->setStretchFactor(0, 1);
    views->setStretchFactor(1, 1);
    views->setSizes({10000, 10000}); // half each (scaled down to fit), whatever the contents ask

    m_mainSplitter = new QSplitter(Qt::Vertical);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_mainSplitter->addWidget(top);
    m_mainSplitter->addWidget(views);
    m_mainSplitter->setStretchFactor(0, 0);
    m_mainSplitter->setStretchFactor(1, 1);
    connect(m_mainSplitter, &QSplitter::splitterMoved, this, [this] { m_fitEditors = false; });
    setCentralWidget(m_mainSplitter);
    m_status = new StatusPanel(statusBar(), m_engine, m_evaluation);
}

void MainWindow::connectDocks()
{
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
    LessonGallery* gallery = m_docks->gallery();
    connect(gallery, &LessonGallery::lessonChosen, this, [this, gallery](const QString& name) {
        if (name != m_lessonName && !switchLesson(name)) gallery->setCurrent(m_lessonName);
    });
}

void MainWindow::openNextLesson()
{
    const auto& all = lessons();
    auto it = std::find_if(all.begin(), all.end(),
                           [&](const Lesson& l) { return l.name == m_lessonName; });
    for (it = it == all.end() ? all.begin() : it + 1; it != all.end(); ++it)
        if (it->unavailable.isEmpty()) {
            switchLesson(it->name);
            return;
        }
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

bool MainWindow::openLesson(const QString& name)
{
    const Lesson* lesson = findLesson(name);
    if (!lesson || !lesson->unavailable.isEmpty()) return false;
    const bool shown = lesson->workspace == m_doc->workspace();
    m_doc->load(lesson->workspace); // a fresh, clean history even when it is already shown
    // A lesson as it comes has nothing to save; its edits do.
    m_doc->forgetFile();
    updateTitle();
    // After load(): applying a workspace forgets faces meant for another one.
    m_result->setPendingFaces(lesson->workspace, lesson->faces);
    // Nothing to evaluate: the views already show the lesson.
    if (shown) m_result->applyPendingFaces(m_doc->workspace());
    return true;
}

bool MainWindow::openFile(const QString& path, QString* error)
{
    return m_doc->openFile(path, error);
}

bool MainWindow::saveFile(const QString& path, QString* error, bool overwrite)
{
    return m_doc->saveFile(path, error, overwrite);
}

SpecEditor* MainWindow::specEditor() const
{
    return m_opEditor ? m_opEditor->specEditor() : nullptr;
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

FrameworksPanel* MainWindow::frameworksPanel() const
{
    return m_docks->frameworks();
}

ExercisePanel* MainWindow::exercisePanel() const
{
    return m_docks->exercises();
}

QAction* MainWindow::exercisesAction() const
{
    return m_docks->exerciseDock()->toggleViewAction();
}

ModelDock* MainWindow::modelDock() const
{
    return m_docks->model();
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
    return m_message->message();
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
    const bool opChanged = !m_opEditor || ws.op != previous.op;
    const bool bannerChanged = ws.title != previous.title || ws.explanation != previous.explanation;
    m_result->keepFacesOnlyFor(ws);
    // A lesson stays "open" while its title is shown, through edits, undo and redo.
    m_lessonName.clear();
    for (const Lesson& lesson : lessons())
        if (!ws.title.isEmpty() && lesson.workspace.title == ws.title) m_lessonName = lesson.name;
    // The worker starts first, so that it evaluates while the editors show the workspace.
    m_engine->invalidate();
    scheduleEvaluation();
    m_docks->gallery()->setCurrent(m_lessonName);
    if (opChanged) replaceOpEditor(*def);
    if (m_evaluation->shown() && m_evaluation->shown()->op != ws.op) m_result->forgetShown();
    // The lit tokens and rows belong to the text they were lit in: every edit clears the step
    // (and with it every highlight), so nothing lit describes arguments that changed.
    m_docks->stepper()->setCurrentStep(-1);
    m_opEditor->lightStep(nullptr, nullptr);
    m_opEditor->setWorkspace(ws);
    m_inputs->setWorkspace(*def, ws);
    updateBanner();
    if (opChanged || bannerChanged) {
        m_fitEditors = true; // a new op or lesson: the editors fit their content again
        fitEditorArea();
    }
    m_session->workspaceChanged();
}

void MainWindow::replaceOpEditor(const OpDef& def)
{
    if (m_opEditor) {
        m_opEditor->hide();
        m_opEditor->deleteLater();
    }
    m_opEditor = makeOpEditor(def, m_editorHost).release();
    m_editorHost->layout()->addWidget(m_opEditor);
    m_result->setOpEditor(m_opEditor);
    m_result->setUnreadable(false);
    m_unreadable.clear();
    m_status->setUnreadable({});
    m_evaluation->setUnreadable(false);
    connect(m_opEditor, &OpEditor::unreadableChanged, this, [this] {
        QStringList problems;
        QStringList names;
        for (const auto& [name, why] : m_opEditor->unreadableAttrs()) {
            names << name;
            problems << tr("<b>%1</b> does not parse: %2")
                            .arg(name.toHtmlEscaped(), why.toHtmlEscaped());
        }
        const QString text = problems.join(QStringLiteral("; "));
        if (text == m_unreadable) return;
        m_unreadable = text;
        m_status->setUnreadable(names);
        m_evaluation->setUnreadable(!m_unreadable.isEmpty());
        m_result->setUnreadable(!m_unreadable.isEmpty());
        m_result->applyStaleness();
        showCurrentMessage();
    });
    connect(m_opEditor, &OpEditor::attrsEdited, this,
            [this](const Attrs& attrs, const QString& key) {
                Workspace next = m_doc->workspace();
                next.attrs = attrs;
                m_doc->edit(next, tr("Edit the arguments"), key);
            });
    connect(m_opEditor, &OpEditor::frameworkEdited, this, [this](Framework framework) {
        Workspace next = m_doc->workspace();
        next.framework = framework;
        m_doc->edit(next,
                    tr("Read the expression as %1")
                        .arg(QString::fromUtf8(frameworkModel(framework).title())),
                    {});
    });
    if (SpecEditor* spec = specEditor()) {
        spec->setHistory(QSettings().value(QLatin1String(kHistoryKey)).toStringList());
        connect(spec, &QLineEdit::editingFinished, this, [this, spec] {
            if (isSettled() && m_evaluation->last() && m_evaluation->last()->ok) {
                spec->addToHistory(spec->text());
                QSettings().setValue(QLatin1String(kHistoryKey), spec->history());
            }
        });
    }
    QComboBox* picker = m_actions->opPicker();
    picker->setCurrentIndex(picker->findData(QString::fromStdString(def.name)));
}

void MainWindow::scheduleEvaluation()
{
    m_evaluation->schedule();
    m_status->update();
}

void MainWindow::evaluateNow()
{
    m_evaluation->evaluateNow();
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
    if (isSettled()) emit settled();
}

void MainWindow::showEvaluation(const std::shared_ptr<const Evaluation>& eval)
{
    m_result->show(eval);
    // The views say themselves that they show an older result (and which).
    m_evalMessage = eval->ok ? QString()
                             : QStringLiteral("<b>%1</b>: %2")
                                   .arg(QString::fromLatin1(errorCodeName(eval->code).data()),
                                        eval->message.toHtmlEscaped());
    showCurrentMessage();
    if (eval->ok) m_result->applyPendingFaces(m_doc->workspace());
    m_result->fitColours(); // now, so that the first frame of the result has its colours
    m_outputs->forgetHover();
    m_result->applyStaleness(); // updates the status and lights the current step
}

void MainWindow::showCurrentMessage()
{
    // What the editors show now comes first: a field that does not parse makes an error about
    // the value it held before out of date.
    if (!m_unreadable.isEmpty())
        showMessage(m_unreadable + tr(" (the views show the last good result)"));
    else if (!m_evalMessage.isEmpty())
        showMessage(m_evalMessage);
    else
        showMessage(m_startError);
}

void MainWindow::onElementEdited(int slot, qint64 flat, const QString& text)
{
    if (!InputCellEdit::entry(m_doc->workspace(), slot)) return;
    const Tensor& shown = m_inputs->view(slot)->model()->tensor();
    try {
        if (const auto next = InputCellEdit::edited(m_doc->workspace(), slot, shown, flat, text,
                                                    m_engine->limits()))
            m_doc->edit(*next, tr("Edit %1").arg(coordText(flat, shown.shape())));
    } catch (const OpError& e) {
        showMessage(tr("%1 is not a %2 value: %3")
                        .arg(text.toHtmlEscaped(), dtypeText(shown.dtype()),
                             QString::fromUtf8(e.what()).toHtmlEscaped()));
    }
}

void MainWindow::updateBanner()
{
    const Workspace& ws = m_doc->workspace();
    const auto& all = lessons();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const Lesson& l) { return l.name == m_lessonName; });
    m_banner->showLesson(ws.title, ws.explanation, it != all.end() && it + 1 != all.end());
    updateTitle();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // Wider, the lesson text takes fewer lines: the editors give the room back to the views.
    if (m_fitEditors) fitEditorArea();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Hidden widgets ask for no room: the fit made before the window was shown is redone now
    // that the editors can say what they need.
    if (m_fitEditors) fitEditorArea();
}

void MainWindow::fitEditorArea()
{
    // The editors get the height they ask for (every entry of the raw table in view), up to
    // three fifths of the window, but never less than they need; the views get the rest. Set
    // when an op or lesson opens, not on edits: adding an entry must not move the views.
    QWidget* top = m_mainSplitter->widget(0);
    const int total = std::max(m_mainSplitter->height(), height() - 120);
    const int wanted = std::max(std::clamp(top->sizeHint().height(), 120, total * 3 / 5),
                                top->minimumSizeHint().height());
    m_mainSplitter->setSizes({wanted, std::max(total - wanted, 200)});
}

void MainWindow::showMessage(const QString& text)
{
    m_message->setMessage(text.isEmpty() ? m_notices.join(QStringLiteral("<br>")) : text);
}

void MainWindow::showNotice(const QString& text)
{
    // An error on show stays; the notices show when it goes.
    const QString shown = m_notices.join(QStringLiteral("<br>"));
    m_notices << text.toHtmlEscaped();
    if (m_message->message() == shown) showMessage(QString());
}

void MainWindow::forgetSession()
{
    m_session->disable();
    m_recovery->hide();
    m_unprotected->hide();
}

void MainWindow::offerRecovery()
{
    m_recovery->offer(m_session);
}

void MainWindow::updateTitle()
{
    // The file, else the lesson, else "Untitled"; "[*]" shows the unsaved-changes marker.
    QString name = m_doc->displayName();
    if (m_doc->filePath().isEmpty() && !m_notOpened.isEmpty())
        name = tr("%1 (%2 could not be opened)").arg(name, QFileInfo(m_notOpened).fileName());
    setWindowTitle(tr("%1[*] — SliceScope").arg(name));
}

void MainWindow::showError(const QString& text)
{
    showMessage(text.toHtmlEscaped());
}

void MainWindow::showStartError(const QString& text, const QString& file)
{
    m_startError = text.toHtmlEscaped();
    if (!file.isEmpty()) {
        if (!text.trimmed().endsWith(u'.')) m_startError += u'.';
        m_startError += tr(" Nothing was opened: the window shows a new, untitled workspace.");
        m_notOpened = file;
    }
    updateTitle();
    showCurrentMessage();
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    // After the activation has been handled: a dialog opened inside it would nest in it.
    if (event->type() == QEvent::ActivationChange && isActiveWindow())
        QTimer::singleShot(0, this, &MainWindow::checkFileOnDisk);
}

void MainWindow::checkFileOnDisk()
{
    m_files->checkFileOnDisk();
}

bool MainWindow::maybeSave()
{
    return m_files->maybeSave();
}

bool MainWindow::newWorkspace()
{
    return m_files->newWorkspace();
}

bool MainWindow::save()
{
    return m_files->save();
}

bool MainWindow::saveAs()
{
    return m_files->saveAs();
}

bool MainWindow::switchLesson(const QString& name)
{
    return maybeSave() && openLesson(name);
}

bool MainWindow::exportOutputs(const QString& path, QStringList* written, QString* error)
{
    return m_doc->exportOutputs(path, written, error);
}

QStringList MainWindow::recentFiles() const
{
    return WorkspaceDocument::recentFiles();
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray());
}

bool MainWindow::reopensLastWorkspace()
{
    return WorkspaceDocument::reopensLastWorkspace();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    m_drop->dragOver(event);
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event)
{
    m_drop->dragOver(event);
}

void MainWindow::dropEvent(QDropEvent* event)
{
    m_drop->drop(event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    // The layout to remember is the one presentation mode hides, not its own.
    m_presentation->setOn(false);
    QSettings settings;
    if (SpecEditor* spec = specEditor())
        settings.setValue(QLatin1String(kHistoryKey), spec->history());
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
    // Saved or discarded: the user has decided, the autosave goes.
    m_session->finish();
    QMainWindow::closeEvent(event);
}

} // namespace ss::ui
