// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/mainwindow.h"

#include "core/error.h"
#include "protocol/tensor_json.h"
#include "ui/editors/inputpanel.h"
#include "ui/editors/opeditors.h"
#include "ui/editors/oppicker.h"
#include "ui/editors/speceditor.h"
#include "ui/model/attrtext.h"
#include "ui/model/explain.h"
#include "ui/model/lessons.h"
#include "ui/model/workerpool.h"
#include "ui/model/workspacefile.h"
#include "ui/views/palette.h"
#include "ui/views/plaintext.h"
#include "ui/views/tensorformat.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/copyasmenu.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/evaluationcontroller.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/exportdialog.h"
#include "ui/workbench/frameworkspanel.h"
#include "ui/workbench/lessongallery.h"
#include "ui/workbench/messagestrip.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/presentationmode.h"
#include "ui/workbench/sessionguard.h"
#include "ui/workbench/shortcuttable.h"
#include "ui/workbench/taborder.h"
#include "ui/workbench/workspacedocument.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>

namespace ss::ui {

namespace {

constexpr int kProgressDelayMs = 150;
/// The error strip always holds this many lines, so an error never moves the editors.
constexpr int kMessageLines = 2;
/// A lesson's explanation gets at least and at most this many lines before it scrolls.
constexpr int kBannerMinLines = 2;
constexpr int kBannerMaxLines = 5;
/// Below this many output elements, an input hover finds its targets on the GUI thread.
constexpr std::int64_t kSyncTargetLimit = std::int64_t(1) << 20;

using TargetLists = std::vector<std::vector<std::int64_t>>;

/// Whether finding an input element's targets (a scan of every output's stored sources, or
/// nothing for sources worked out from the plan) is cheap enough for the GUI thread.
bool targetsAreCheap(const Evaluation& eval)
{
    return eval.sources.targetsCost() <= kSyncTargetLimit;
}
const char* const kHistoryKey = "editor/history";
const char* const kThemeKey = "view/dark";
const char* const kFitColoursKey = "view/fitColours";
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";

QString tensorSummary(const QString& name, const Tensor& t)
{
    const QString count = QLocale().toString(qlonglong(t.size()));
    return QStringLiteral("%1 %2 %3 · %4")
        .arg(name, dtypeText(t.dtype()), shapeText(t.shape()),
             t.size() == 1 ? QObject::tr("1 element") : QObject::tr("%1 elements").arg(count));
}

// One tensor in full; several as a count, so the line fits the status bar.
QString tensorsSummary(const QStringList& names, const std::vector<Tensor>& tensors,
                       const QString& plural)
{
    if (tensors.size() == 1) return tensorSummary(names.value(0), tensors.front());
    std::int64_t total = 0;
    for (const Tensor& t : tensors)
        total += t.size();
    return QStringLiteral("%1 %2 · %3 elements")
        .arg(tensors.size())
        .arg(plural, QLocale().toString(qlonglong(total)));
}

// The key the keys table names, then the platform's own key for the command if it differs: a
// keyboard scheme without one (Windows' has no Quit or Save As key, and redoes with Ctrl+Y)
// still gets the documented key, and the menus show it.
QList<QKeySequence> documentedKeys(const QKeySequence& documented,
                                   QKeySequence::StandardKey command)
{
    QList<QKeySequence> keys{documented};
    if (const QKeySequence own(command); !own.isEmpty() && own != documented) keys << own;
    return keys;
}

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
        m_stepper->setCurrentStep(-1);
        emit workspaceOpened();
    });
    connect(m_doc, &WorkspaceDocument::fileChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &WorkspaceDocument::recentFilesChanged, this, &MainWindow::fillRecentMenu);
    buildLayout();
    m_presentation = new PresentationMode(*this);
    buildActions();

    m_progressDelay.setSingleShot(true);
    m_progressDelay.setInterval(kProgressDelayMs);
    connect(&m_progressDelay, &QTimer::timeout, this, [this] {
        if (m_engine->isBusy()) {
            m_progress->setValue(0);
            m_progress->show();
            m_cancel->show();
        }
    });
    m_fitColours.setSingleShot(true);
    m_fitColours.setInterval(0);
    connect(&m_fitColours, &QTimer::timeout, this, &MainWindow::fitColours);
    connect(m_inputs, &InputPanel::ordersOnScreenChanged, this, [this] { m_fitColours.start(); });

    connect(m_evaluation, &EvaluationController::arrived, this, &MainWindow::showEvaluation);
    connect(m_evaluation, &EvaluationController::delivered, this, [this] {
        emit evaluationShown();
        checkSettled();
    });
    connect(m_engine, &EngineClient::busyChanged, this, [this](bool busy) {
        if (busy) {
            m_progressDelay.start();
        } else {
            m_progressDelay.stop();
            m_progress->hide();
            m_cancel->hide();
        }
        updateStatus();
    });
    connect(m_engine, &EngineClient::progress, this,
            [this](double fraction) { m_progress->setValue(int(fraction * 1000)); });
    connect(m_evaluation, &EvaluationController::cancelled, this, [this] {
        // The views keep the result of an older edit: greyed and titled as such, like a failure's.
        applyStaleness();
        showMessage(tr("Evaluation cancelled. The views show the last result; any edit "
                       "evaluates again."));
        checkSettled();
    });
    connect(m_engine, &EngineClient::targetsFound, this, &MainWindow::showTargets);
    connect(m_doc->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        setWindowModified(!clean);
        if (m_session) m_session->workspaceChanged(); // saved: the autosave goes
    });

    QSettings settings;
    if (settings.value(QLatin1String(kThemeKey), false).toBool()) m_darkAction->setChecked(true);

    m_session = new SessionGuard(
        WorkerPool::shared(), [this] { return m_doc->isModified(); },
        [this] { return m_doc->workspace(); }, this);
    m_diskPrompt = [this](const QString& text) {
        QMessageBox box(QMessageBox::Warning, tr("File changed on disk"), text,
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("fileChangedDialog"));
        QPushButton* reload = box.addButton(tr("&Reload"), QMessageBox::DestructiveRole);
        QPushButton* overwrite = box.addButton(tr("&Overwrite"), QMessageBox::AcceptRole);
        QPushButton* saveAs = box.addButton(tr("Save &As…"), QMessageBox::ActionRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == reload      ? DiskChoice::Reload
               : box.clickedButton() == overwrite ? DiskChoice::Overwrite
               : box.clickedButton() == saveAs    ? DiskChoice::SaveAs
                                                  : DiskChoice::Cancel;
    };
    const auto showProtection = [this](const QString& problem) {
        m_unprotected->setText(problem);
        m_unprotected->setVisible(!problem.isEmpty() && m_session->isEnabled());
    };
    showProtection(m_session->problem());
    connect(m_session, &SessionGuard::protectionChanged, this, showProtection);
    m_savePrompt = [this](const QString& text) {
        QMessageBox box(QMessageBox::Warning, tr("Save changes?"), text,
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("saveChangesDialog"));
        box.setDefaultButton(QMessageBox::Save);
        switch (box.exec()) {
        case QMessageBox::Save: return SaveChoice::Save;
        case QMessageBox::Discard: return SaveChoice::Discard;
        default: return SaveChoice::Cancel;
        }
    };

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

    m_banner = new QWidget;
    m_banner->setObjectName(QStringLiteral("lessonBanner"));
    m_bannerTitle = new QLabel;
    m_bannerTitle->setObjectName(QStringLiteral("lessonTitle"));
    QFont titleFont = m_bannerTitle->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_bannerTitle->setFont(titleFont);
    m_bannerText = new QLabel;
    m_bannerText->setObjectName(QStringLiteral("lessonText"));
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextFormat(Qt::RichText);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_nextLesson = new QPushButton(tr("Next lesson ▶"));
    m_nextLesson->setObjectName(QStringLiteral("nextLesson"));
    m_nextLesson->setAccessibleName(tr("Open the next lesson"));
    auto* bannerLayout = new QGridLayout(m_banner);
    bannerLayout->setContentsMargins(0, 0, 0, 0);
    bannerLayout->addWidget(m_bannerTitle, 0, 0);
    bannerLayout->addWidget(m_nextLesson, 0, 1, Qt::AlignRight);
    // A long explanation scrolls in a few lines of room rather than pushing the window past a
    // small screen's height.
    auto* bannerScroll = new QScrollArea;
    bannerScroll->setObjectName(QStringLiteral("lessonTextScroll"));
    bannerScroll->setAccessibleName(tr("Lesson explanation"));
    bannerScroll->setFrameShape(QFrame::NoFrame);
    bannerScroll->setWidgetResizable(true);
    bannerScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    bannerScroll->setWidget(m_bannerText);
    const int line = m_bannerText->fontMetrics().lineSpacing();
    bannerScroll->setMinimumHeight(kBannerMinLines * line);
    bannerScroll->setMaximumHeight(kBannerMaxLines * line);
    bannerLayout->addWidget(bannerScroll, 1, 0, 1, 2);
    connect(m_nextLesson, &QPushButton::clicked, this, [this] {
        const auto& all = lessons();
        auto it = std::find_if(all.begin(), all.end(),
                               [&](const Lesson& l) { return l.name == m_lessonName; });
        for (it = it == all.end() ? all.begin() : it + 1; it != all.end(); ++it)
            if (it->unavailable.isEmpty()) {
                switchLesson(it->name);
                return;
            }
    });

    m_message = new MessageStrip(kMessageLines);

    m_recovery = new QWidget;
    m_recovery->setObjectName(QStringLiteral("recoveryStrip"));
    m_recovery->setStyleSheet(QStringLiteral("#recoveryStrip { background-color: #fff4d6; border: "
                                             "1px solid #e0c068; border-radius: 4px; }"
                                             "#recoveryStrip QLabel { color: #4a3800; }"));
    m_recoveryText = new QLabel;
    m_recoveryText->setObjectName(QStringLiteral("recoveryText"));
    m_recoveryText->setWordWrap(true);
    auto* recover = new QPushButton(tr("Recover"));
    recover->setObjectName(QStringLiteral("recoverSession"));
    recover->setAccessibleName(tr("Recover the unsaved session"));
    auto* discard = new QPushButton(tr("Discard"));
    discard->setObjectName(QStringLiteral("discardSession"));
    discard->setAccessibleName(tr("Discard the unsaved session"));
    auto* recoveryLayout = new QHBoxLayout(m_recovery);
    recoveryLayout->addWidget(m_recoveryText, 1);
    recoveryLayout->addWidget(recover);
    recoveryLayout->addWidget(discard);
    m_recovery->hide();
    connect(recover, &QPushButton::clicked, this, [this] {
        m_recovery->hide();
        try {
            // Recovered work is unsaved work of this session now: untitled, modified, and in
            // this session's autosave before the dead session's file goes.
            const Workspace ws =
                readWorkspaceFile(m_recoverPath, m_doc->workspace(), m_engine->limits());
            m_doc->forgetFile();
            setWorkspace(ws, tr("Recover the unsaved session"));
            m_session->autosaveNow();
        } catch (const OpError& e) {
            showMessage(tr("The unsaved session could not be read: %1")
                            .arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
            return; // kept, for another try or a look by hand
        }
        m_session->removeLostSession(m_recoverPath);
    });
    connect(discard, &QPushButton::clicked, this, [this] {
        m_session->removeLostSession(m_recoverPath);
        m_recovery->hide();
    });

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
    connect(m_inputs, &InputPanel::elementHovered, this, &MainWindow::onInputHovered);
    connect(m_inputs, &InputPanel::viewSettled, this, &MainWindow::checkSettled);
    m_inputs->setToolTipProvider([this](int slot, std::int64_t index) -> QString {
        const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
        if (!shown || !m_evaluation->isLinked()) return {};
        const OpDef* def = findOp(shown->op);
        if (!def) return {};
        // The hover's targets (a large op's arrive from a worker); otherwise only a scan that is
        // cheap enough for the GUI thread.
        const bool hovered = m_hoverSlot == slot && m_hoverIndex == index;
        return explainInputElement(*def, *shown, slot, index,
                                   hovered                   ? m_hoverTargets
                                   : targetsAreCheap(*shown) ? findTargets(*shown, slot, index)
                                                             : TargetLists{});
    });

    auto* outputs = new QWidget;
    outputs->setObjectName(QStringLiteral("outputPanel"));
    auto* outputLayout = new QVBoxLayout(outputs);
    outputLayout->setContentsMargins(0, 0, 0, 0);
    m_extras = new QLabel;
    m_extras->setObjectName(QStringLiteral("opExtras"));
    m_extras->setAccessibleName(tr("Result of the op"));
    m_extras->setWordWrap(true);
    m_extras->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_extras->hide();
    m_outputSplitter = new QSplitter(Qt::Vertical);
    m_outputSplitter->setObjectName(QStringLiteral("outputSplitter"));
    m_outputSplitter->setChildrenCollapsible(false);
    outputLayout->addWidget(m_extras);
    outputLayout->addWidget(m_outputSplitter, 1);

    auto* views = new QSplitter(Qt::Horizontal);
    views->setObjectName(QStringLiteral("viewSplitter"));
    views->addWidget(m_inputs);
    views->addWidget(outputs);
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

    m_stepper = new DecodeStepper;
    auto* decodeDock = m_decodeDock = new QDockWidget(tr("Decode steps"), this);
    decodeDock->setObjectName(QStringLiteral("decodeDock"));
    decodeDock->setWidget(m_stepper);
    addDockWidget(Qt::RightDockWidgetArea, decodeDock);
    connect(m_stepper, &DecodeStepper::currentStepChanged, this, &MainWindow::lightCurrentStep);

    m_gallery = new LessonGallery;
    auto* lessonDock = m_lessonDock = new QDockWidget(tr("Lessons"), this);
    lessonDock->setObjectName(QStringLiteral("lessonDock"));
    lessonDock->setWidget(m_gallery);
    addDockWidget(Qt::LeftDockWidgetArea, lessonDock);
    resizeDocks({lessonDock, decodeDock}, {260, 340}, Qt::Horizontal);

    // Below the decode steps, hidden until View > Frameworks: the default layout stays as it is
    // (and tabbing it with the decode steps would add the main window's unnamed tab bar).
    m_frameworks = new FrameworksPanel;
    auto* frameworksDock = m_frameworksDock = new QDockWidget(tr("Frameworks"), this);
    frameworksDock->setObjectName(QStringLiteral("frameworksDock"));
    frameworksDock->setWidget(m_frameworks);
    splitDockWidget(decodeDock, frameworksDock, Qt::Vertical);
    frameworksDock->hide();
    m_frameworks->setReleaser([this](std::vector<std::shared_ptr<const Evaluation>> evals) {
        m_engine->releaseLater(std::move(evals));
    });
    connect(this, &MainWindow::evaluationShown, m_frameworks,
            [this] { m_frameworks->setEvaluation(m_evaluation->last(), m_engine->limits()); });
    connect(m_frameworks, &FrameworksPanel::frameworkChosen, this,
            [this](const std::shared_ptr<const Evaluation>& eval) {
                if (!m_evaluation->last()) return;
                std::vector<std::shared_ptr<const Evaluation>> retired{m_evaluation->shown()};
                showEvaluation(eval ? eval : m_evaluation->last());
                m_engine->releaseLater(std::move(retired));
                // A framework's error has no result, but its steps say where it refuses.
                if (eval && !eval->ok) {
                    const std::vector<Tensor> inputs = eval->slotTensors();
                    m_stepper->setSteps(eval->steps,
                                        inputs.empty() ? Shape{} : inputs.front().shape(), {});
                }
            });
    connect(m_gallery, &LessonGallery::lessonChosen, this, [this](const QString& name) {
        if (name != m_lessonName && !switchLesson(name)) m_gallery->setCurrent(m_lessonName);
    });

    m_statusShapes = new QLabel;
    m_statusShapes->setObjectName(QStringLiteral("statusShapes"));
    // A long line of shapes is cut rather than pushing the timing out of sight.
    m_statusShapes->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_statusTime = new QLabel;
    m_statusTime->setObjectName(QStringLiteral("statusTime"));
    m_statusState = new QLabel;
    m_statusState->setObjectName(QStringLiteral("statusState"));
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("evaluationProgress"));
    m_progress->setAccessibleName(tr("Evaluation progress"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelEvaluation"));
    m_cancel->setAccessibleName(tr("Cancel the evaluation"));
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, m_engine, &EngineClient::cancel);
    statusBar()->setObjectName(QStringLiteral("statusBar"));
    statusBar()->addWidget(m_statusShapes, 1);
    statusBar()->addPermanentWidget(m_statusState);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_statusTime);
}

void MainWindow::buildActions()
{
    auto action = [this](const QString& name, const QString& text, const QKeySequence& key = {}) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty()) a->setShortcut(key);
        return a;
    };

    QAction* newAction = action(QStringLiteral("actionNew"), tr("&New"), QKeySequence::New);
    connect(newAction, &QAction::triggered, this, &MainWindow::newWorkspace);
    QAction* open = action(QStringLiteral("actionOpen"), tr("&Open…"), QKeySequence::Open);
    connect(open, &QAction::triggered, this, [this] {
        if (!maybeSave()) return;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a workspace or a NumPy file"), WorkspaceDocument::lastFolder(),
            tr("Workspaces and NumPy files (*.json *.npy);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !openFile(path, &error)) showError(error);
    });
    m_recentMenu = new QMenu(tr("Open &Recent"), this);
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    QAction* save = action(QStringLiteral("actionSave"), tr("&Save"), QKeySequence::Save);
    connect(save, &QAction::triggered, this, &MainWindow::save);
    QAction* saveAsAction = action(QStringLiteral("actionSaveAs"), tr("Save &As…"));
    saveAsAction->setShortcuts(
        documentedKeys(Qt::CTRL | Qt::SHIFT | Qt::Key_S, QKeySequence::SaveAs));
    connect(saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);
    QAction* reopen =
        action(QStringLiteral("actionReopenLast"), tr("Reopen the Last Workspace at Start"));
    reopen->setCheckable(true);
    reopen->setChecked(reopensLastWorkspace());
    connect(reopen, &QAction::toggled, this,
            [](bool on) { WorkspaceDocument::setReopensLastWorkspace(on); });
    QAction* exportNpy =
        action(QStringLiteral("actionExportOutput"), tr("&Export Output as .npy…"));
    connect(exportNpy, &QAction::triggered, this, [this] {
        QString error;
        QStringList written;
        // Checked before asking for a name: a stale result is refused, not written.
        if (!exportOutputs(QString(), nullptr, &error)) {
            showError(error);
            return;
        }
        const QString file = m_doc->filePath();
        const QString base = file.isEmpty()
                                 ? QStringLiteral("output.npy")
                                 : QFileInfo(file).path() + u'/' + QFileInfo(file).baseName() +
                                       QStringLiteral(".npy");
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the outputs"), base,
                                                          tr("NumPy files (*.npy)"));
        if (!path.isEmpty() && !exportOutputs(path, &written, &error)) showError(error);
    });
    QAction* exportImage = action(QStringLiteral("actionExportImage"), tr("Export &Image…"));
    exportImage->setToolTip(tr("Save a view or the whole window as PNG, SVG or PDF"));
    connect(exportImage, &QAction::triggered, this,
            [this] { ExportDialog::run(*this, ExportDialog::Kind::Image); });
    QAction* exportAnimation =
        action(QStringLiteral("actionExportAnimation"), tr("Export Read-Order &Animation…"));
    exportAnimation->setToolTip(
        tr("Save the selected cells lighting up in read order as an animated PNG or frames"));
    connect(exportAnimation, &QAction::triggered, this,
            [this] { ExportDialog::run(*this, ExportDialog::Kind::Animation); });
    QAction* copyRequest = action(QStringLiteral("actionCopyRequest"), tr("&Copy as Request"),
                                  QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copyRequest->setToolTip(tr("Copies the workspace as one slicescope-cli request line"));
    connect(copyRequest, &QAction::triggered, this, [this] {
        try {
            QGuiApplication::clipboard()->setText(
                QString::fromStdString(workspaceToJson(m_doc->workspace())));
        } catch (const OpError& e) {
            showMessage(QString::fromUtf8(e.what()));
        }
    });
    QAction* quit = action(QStringLiteral("actionQuit"), tr("&Quit"));
    quit->setShortcuts(documentedKeys(Qt::CTRL | Qt::Key_Q, QKeySequence::Quit));
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QUndoStack* undoStack = m_doc->undoStack();
    QAction* undo = undoStack->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("actionUndo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undoStack->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("actionRedo"));
    redo->setShortcuts(documentedKeys(Qt::CTRL | Qt::SHIFT | Qt::Key_Z, QKeySequence::Redo));

    m_fitAction = action(QStringLiteral("actionFitColours"), tr("&Fit Colours to the Screen"));
    m_fitAction->setCheckable(true);
    m_fitAction->setChecked(QSettings().value(QLatin1String(kFitColoursKey), true).toBool());
    m_fitAction->setToolTip(tr("Run the read-order colours from the first to the last element "
                               "read among the cells on screen, rather than over the whole op"));
    connect(m_fitAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QLatin1String(kFitColoursKey), on);
        fitColours();
    });
    QAction* dark = m_darkAction = action(QStringLiteral("actionDarkTheme"), tr("&Dark Theme"));
    dark->setCheckable(true);
    connect(dark, &QAction::toggled, this, [](bool on) {
        applyTheme(*qApp, on ? Theme::Dark : Theme::Light);
        QSettings().setValue(QLatin1String(kThemeKey), on);
    });
    QDockWidget* lessonDock = m_lessonDock;
    QDockWidget* decodeDock = m_decodeDock;
    QAction* showLessons = lessonDock->toggleViewAction();
    showLessons->setObjectName(QStringLiteral("actionLessons"));
    showLessons->setText(tr("&Lessons"));
    showLessons->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    QAction* showFrameworks = m_frameworksDock->toggleViewAction();
    showFrameworks->setObjectName(QStringLiteral("actionFrameworks"));
    showFrameworks->setText(tr("&Frameworks"));
    showFrameworks->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    // Six rows of errors in a framework's own words need more room than the decode steps.
    // Hidden, it shows nothing, so no framework's result stays on screen in TensorFlow's place.
    connect(showFrameworks, &QAction::toggled, this, [this](bool on) {
        QDockWidget* dock = m_frameworksDock;
        if (!on) {
            m_frameworks->choose(Framework::TensorFlow);
            return;
        }
        resizeDocks({dock}, {560}, Qt::Horizontal);
        resizeDocks({dock}, {300}, Qt::Vertical);
    });
    QAction* showDecode = decodeDock->toggleViewAction();
    showDecode->setObjectName(QStringLiteral("actionDecodeSteps"));
    showDecode->setText(tr("D&ecode Steps"));
    showDecode->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    // Exercises: a dock of their own, hidden by default so the first window is unchanged. Shown,
    // it takes the lessons' place on the left (View > Lessons brings them back beside it, and
    // closing the exercises brings them back) and opens the first unsolved exercise if none is
    // open.
    m_exercisePanel = new ExercisePanel(this);
    auto* exerciseDock = new QDockWidget(tr("Exercises"), this);
    exerciseDock->setObjectName(QStringLiteral("exerciseDock"));
    exerciseDock->setWidget(m_exercisePanel);
    addDockWidget(Qt::LeftDockWidgetArea, exerciseDock);
    exerciseDock->hide();
    m_presentation->keepDock(exerciseDock);
    QAction* showExercises = m_exercisesAction = exerciseDock->toggleViewAction();
    showExercises->setObjectName(QStringLiteral("actionExercises"));
    showExercises->setText(tr("&Exercises"));
    showExercises->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(showExercises, &QAction::toggled, this, [this, exerciseDock, lessonDock](bool on) {
        // Closing the exercises gives the lessons their place back if they had it.
        static const char* const kLessonsWereShown = "lessonsWereShown";
        if (!on) {
            // Not known (the exercises came back with a restored layout): the lessons return.
            const QVariant wereShown = exerciseDock->property(kLessonsWereShown);
            if (!wereShown.isValid() || wereShown.toBool()) lessonDock->show();
            return;
        }
        // Only a request to open them (the dock not shown yet) says whether the lessons were
        // there; a restored layout shows the exercises with the lessons already put away.
        if (exerciseDock->isHidden())
            exerciseDock->setProperty(kLessonsWereShown, !lessonDock->isHidden());
        lessonDock->hide();
        resizeDocks({exerciseDock}, {380}, Qt::Horizontal);
        if (!m_exercisePanel->currentExercise().isEmpty()) return;
        for (const ExerciseSet& set : exerciseSets())
            for (const Exercise& exercise : set.exercises)
                if (!m_exercisePanel->progress().isSolved(exercise.name)) {
                    m_exercisePanel->openExercise(exercise.name);
                    return;
                }
    });
    QAction* present =
        action(QStringLiteral("actionPresentation"), tr("&Presentation"), Qt::Key_F5);
    present->setCheckable(true);
    present->setToolTip(tr("Large type for a projector, docks hidden; again to leave"));
    connect(present, &QAction::toggled, m_presentation, &PresentationMode::setOn);
    // Escape leaves too, as in every presentation program; only while presenting, so that it
    // keeps its meaning everywhere else.
    auto* leavePresentation = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    leavePresentation->setWhatsThis(tr("leave presentation mode"));
    leavePresentation->setEnabled(false);
    connect(leavePresentation, &QShortcut::activated, present,
            [present] { present->setChecked(false); });
    connect(m_presentation, &PresentationMode::toggled, this,
            [this, present, leavePresentation](bool on) {
                present->setChecked(on);
                leavePresentation->setEnabled(on);
                // The editors ask for more room in larger type: fitted once the new fonts are laid
                // out.
                if (on && m_fitEditors) QTimer::singleShot(0, this, &MainWindow::fitEditorArea);
            });
    QAction* nextLesson = action(QStringLiteral("actionNextLesson"), tr("&Next Lesson"),
                                 QKeySequence(Qt::CTRL | Qt::Key_Period));
    connect(nextLesson, &QAction::triggered, m_nextLesson, &QPushButton::click);

    QAction* shortcuts = action(QStringLiteral("actionShortcuts"), tr("&Keyboard Shortcuts"));
    connect(shortcuts, &QAction::triggered, this, [this] {
        // Read from the actions when asked: the table cannot miss a key one of them has.
        QMessageBox::information(this, tr("Keyboard shortcuts"),
                                 shortcutTableHtml(shortcutRows(*this)));
    });
    QAction* about = action(QStringLiteral("actionAbout"), tr("&About SliceScope"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(
            this, tr("About SliceScope"),
            tr("<h3>SliceScope %1</h3><p>See what tensor indexing does: "
               "TensorFlow's slicing and joining ops, explained.</p><p>GPL-3.0-or-later.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });

    menuBar()->setObjectName(QStringLiteral("menuBar"));
    m_modelDock = new ModelDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_modelDock);
    m_modelDock->hide();
    QAction* openModel = action(QStringLiteral("actionOpenModel"), tr("Open &Model…"));
    connect(openModel, &QAction::triggered, m_modelDock, &ModelDock::chooseModel);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addActions({newAction, open, openModel});
    file->addMenu(m_recentMenu);
    file->addActions({save, saveAsAction, exportNpy, exportImage, exportAnimation, copyRequest});
    file->addSeparator();
    file->addAction(reopen);
    file->addSeparator();
    file->addAction(quit);
    QMenu* editMenu = menuBar()->addMenu(tr("&Edit"));
    editMenu->addActions({undo, redo});
    editMenu->addSeparator();
    auto* copyAs = new CopyAsMenu([this] { return m_doc->workspace(); }, copyRequest, editMenu);
    connect(copyAs, &CopyAsMenu::failed, this, &MainWindow::showError);
    editMenu->addMenu(copyAs);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addActions({showLessons, showDecode, showFrameworks, m_fitAction, dark});
    view->addSeparator();
    view->addAction(present);
    QMenu* lessonMenu = menuBar()->addMenu(tr("&Lessons"));
    lessonMenu->addAction(nextLesson);
    lessonMenu->addAction(showExercises);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addActions({shortcuts, about});

    auto* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    toolbar->addAction(showLessons);
    toolbar->addAction(open);
    toolbar->addAction(save);
    toolbar->addSeparator();
    // The menu's undo/redo name the step ("Undo Open lesson ..."); the toolbar stays short.
    QAction* undoButton = action(QStringLiteral("toolbarUndo"), tr("Undo"));
    undoButton->setEnabled(false);
    connect(undoButton, &QAction::triggered, undoStack, &QUndoStack::undo);
    connect(undoStack, &QUndoStack::canUndoChanged, undoButton, &QAction::setEnabled);
    connect(undoStack, &QUndoStack::undoTextChanged, undoButton,
            [undoButton](const QString& text) { undoButton->setToolTip(tr("Undo %1").arg(text)); });
    QAction* redoButton = action(QStringLiteral("toolbarRedo"), tr("Redo"));
    redoButton->setEnabled(false);
    connect(redoButton, &QAction::triggered, undoStack, &QUndoStack::redo);
    connect(undoStack, &QUndoStack::canRedoChanged, redoButton, &QAction::setEnabled);
    connect(undoStack, &QUndoStack::redoTextChanged, redoButton,
            [redoButton](const QString& text) { redoButton->setToolTip(tr("Redo %1").arg(text)); });
    toolbar->addAction(undoButton);
    toolbar->addAction(redoButton);
    toolbar->addSeparator();
    auto* opLabel = new QLabel(tr("  Op: "));
    toolbar->addWidget(opLabel);
    m_opPicker = new OpPicker;
    m_opPicker->setObjectName(QStringLiteral("opPicker"));
    m_opPicker->setAccessibleName(tr("Op"));
    m_opPicker->setMaxVisibleItems(20);
    opLabel->setBuddy(m_opPicker);
    toolbar->addWidget(m_opPicker);
    connect(m_opPicker, &QComboBox::activated, this, [this] {
        const std::string name = m_opPicker->currentData().toString().toStdString();
        const OpDef* def = findOp(name);
        if (!def || name == m_doc->workspace().op) return;
        // The op's own example, not a lesson: lessons often show an erratum's corner case (tile
        // of a scalar), the example the op's ordinary use, and it is tested to succeed.
        Workspace next = switchOp(m_doc->workspace(), *def);
        m_doc->edit(next, tr("Switch to %1").arg(QString::fromStdString(name)));
    });
    toolbar->addSeparator();
    toolbar->addAction(showDecode);
    toolbar->addAction(dark);
    // Toolbar buttons are named after their actions, for tests and screen readers.
    for (QAction* a : toolbar->actions()) {
        QWidget* button = toolbar->widgetForAction(a);
        if (!button || a->isSeparator() || !button->objectName().isEmpty()) continue;
        button->setObjectName(a->objectName() + QStringLiteral("Button"));
        button->setAccessibleName(a->text().remove(u'&'));
    }
    // Qt's own overflow button (a check box to assistive technology) needs a name too.
    if (auto* more = toolbar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button")))
        more->setAccessibleName(tr("More toolbar buttons"));
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
    m_pendingFaces = {lesson->workspace, lesson->faces};
    if (shown) applyPendingFaces(); // nothing to evaluate: the views already show the lesson
    return true;
}

std::vector<TensorView*> MainWindow::allViews() const
{
    std::vector<TensorView*> views = m_outputViews;
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        views.push_back(m_inputs->view(s));
    return views;
}

void MainWindow::applyPendingFaces()
{
    if (!m_pendingFaces || m_pendingFaces->first != m_doc->workspace()) return;
    const auto faces = std::exchange(m_pendingFaces, std::nullopt)->second;
    // A lesson sets every view: the dimensions it names, the default (the last two) elsewhere.
    for (TensorView* view : allViews()) {
        const int rank = view->model()->tensor().rank();
        const auto it = faces.find(view->title());
        const std::pair<int, int> want =
            it != faces.end() ? it->second : std::pair(rank - 2, rank - 1);
        if (rank >= 2 && std::pair(view->faceRowDim(), view->faceColDim()) != want)
            view->setFaceDims(want.first, want.second);
    }
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
    return m_opEditor ? m_opEditor->findChild<SpecEditor*>() : nullptr;
}

TensorView* MainWindow::inputView(int slot) const
{
    return slot >= 0 && slot < m_inputs->slotCount() ? m_inputs->view(slot) : nullptr;
}

QString MainWindow::statusShapes() const
{
    return m_statusShapes->text();
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
    if (m_pendingFaces && m_pendingFaces->first != ws) m_pendingFaces.reset();
    // A lesson stays "open" while its title is shown, through edits, undo and redo.
    m_lessonName.clear();
    for (const Lesson& lesson : lessons())
        if (!ws.title.isEmpty() && lesson.workspace.title == ws.title) m_lessonName = lesson.name;
    // The worker starts first, so that it evaluates while the editors show the workspace.
    m_engine->invalidate();
    scheduleEvaluation();
    m_gallery->setCurrent(m_lessonName);
    if (opChanged) replaceOpEditor(*def);
    if (m_evaluation->shown() && m_evaluation->shown()->op != ws.op) forgetShownResult();
    // The lit tokens and rows belong to the text they were lit in: every edit clears the step
    // (and with it every highlight), so nothing lit describes arguments that changed.
    m_stepper->setCurrentStep(-1);
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

void MainWindow::forgetShownResult()
{
    // Another op's outputs, steps and selection would be read as this op's while it evaluates.
    m_evaluation->forgetShown();
    ensureOutputViews(0);
    m_extras->hide();
    m_stepper->setSteps({}, {}, {});
    m_stepper->setStale(false);
    for (int s = 0; s < m_inputs->slotCount(); ++s) {
        m_inputs->view(s)->setReadOrder(nullptr);
        m_inputs->view(s)->setStale(QString());
    }
    updateStatus();
}

void MainWindow::replaceOpEditor(const OpDef& def)
{
    if (m_opEditor) {
        m_opEditor->hide();
        m_opEditor->deleteLater();
    }
    m_opEditor = makeOpEditor(def, m_editorHost).release();
    m_editorHost->layout()->addWidget(m_opEditor);
    m_unreadable.clear();
    m_unreadableNames.clear();
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
        m_unreadableNames = names;
        m_evaluation->setUnreadable(!m_unreadable.isEmpty());
        applyStaleness();
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
    m_opPicker->setCurrentIndex(m_opPicker->findData(QString::fromStdString(def.name)));
}

void MainWindow::scheduleEvaluation()
{
    m_evaluation->schedule();
    updateStatus();
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
    if (m_evaluation->isBusy() || m_fitColours.isActive()) return false;
    const std::vector<TensorView*> views = allViews();
    return std::all_of(views.begin(), views.end(), [](TensorView* v) { return v->isSettled(); });
}

void MainWindow::checkSettled()
{
    if (isSettled()) emit settled();
}

void MainWindow::showEvaluation(const std::shared_ptr<const Evaluation>& eval)
{
    // Which result's outputs and which one's inputs: the stale/good policy (chooseShown).
    const ShownChoice choice = m_evaluation->show(eval);
    const std::shared_ptr<const Evaluation>& outputsFrom = choice.outputs;
    const std::shared_ptr<const Evaluation>& inputsFrom = choice.inputs;

    const std::vector<Tensor> tensors = inputsFrom->slotTensors();
    const OpDef* def = findOp(inputsFrom->op);
    // The input views keep the good result's selection: that is as old as its outputs.
    const bool stale =
        ss::ui::isStale(bool(outputsFrom), {choice.failed, false, !m_unreadable.isEmpty()});
    const QString staleNote = m_evaluation->failedNote();
    const QStringList names = def ? slotNames(*def, *inputsFrom) : QStringList();
    for (int s = 0; s < m_inputs->slotCount(); ++s) {
        TensorView* view = m_inputs->view(s);
        if (s < int(tensors.size()) && s < names.size()) {
            view->setTensor(tensors[std::size_t(s)], names[s]);
            m_inputs->controls(s)->showMade(tensors[std::size_t(s)]);
        }
        if (choice.linked)
            view->setReadOrder(inputsFrom->readOrders[std::size_t(s)],
                               inputsFrom->readSummaries[std::size_t(s)], inputsFrom->lastRead);
        else
            view->setReadOrder(nullptr);
        view->setOutlined({});
    }

    const int outputs = outputsFrom ? int(outputsFrom->outputs.size()) : 0;
    ensureOutputViews(outputs);
    if (outputsFrom) {
        const OpDef& shownDef = *findOp(outputsFrom->op);
        const QStringList outNames = outputNames(shownDef, *outputsFrom);
        for (int k = 0; k < outputs; ++k) {
            TensorView* view = m_outputViews[std::size_t(k)];
            view->setTensor(outputsFrom->outputs[std::size_t(k)], outNames[k]);
            // One colour scale for the whole op: an output cell has its source's colour.
            view->setReadOrder(outputsFrom->outputOrders[std::size_t(k)],
                               outputsFrom->outputSummaries[std::size_t(k)], outputsFrom->lastRead);
            view->setOutlined({});
        }
        QStringList extras;
        if (const QString text = extrasText(*outputsFrom); !text.isEmpty()) extras << text;
        // Like the views, an old result says which request it belongs to.
        if (stale && !extras.isEmpty())
            extras << QStringLiteral("<i>(%1)</i>").arg(staleNote.toHtmlEscaped());
        m_extras->setText(extras.join(QStringLiteral("<br>")));
        m_extras->setVisible(!extras.isEmpty());
        // The shapes of one result: a failed edit's new input (a rank-20 shape) does not go
        // with the last good output.
        const std::vector<Tensor> shownInputs =
            inputsFrom == outputsFrom ? tensors : outputsFrom->slotTensors();
        const Shape in = shownInputs.empty() ? Shape{} : shownInputs.front().shape();
        const Shape out = outputs > 0 ? outputsFrom->outputs.front().shape() : Shape{};
        m_stepper->setSteps(outputsFrom->steps, in, out, names.value(0), outNames.value(0));
    } else {
        m_extras->hide();
        m_stepper->setSteps({}, {}, {});
    }
    m_opEditor->showEvaluation(*eval);

    // The views say themselves that they show an older result (and which).
    m_evalMessage = eval->ok ? QString()
                             : QStringLiteral("<b>%1</b>: %2")
                                   .arg(QString::fromLatin1(errorCodeName(eval->code).data()),
                                        eval->message.toHtmlEscaped());
    showCurrentMessage();
    if (eval->ok) applyPendingFaces();
    fitColours(); // now, so that the first frame of the result has its colours
    m_hoverSlot = -1;
    applyStaleness(); // updates the status and lights the current step
}

void MainWindow::applyStaleness()
{
    const QString note = m_evaluation->updateStaleness();
    for (TensorView* view : m_outputViews)
        view->setStale(note);
    // The input views are greyed only while they show that result's selection.
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        m_inputs->view(s)->setStale(m_evaluation->isLinked() ? note : QString());
    m_stepper->setStale(m_evaluation->isStale());
    updateStatus();
    lightCurrentStep();
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

void MainWindow::fitColours()
{
    m_fitColours.stop();
    const std::vector<TensorView*> views = allViews();
    bool whole = !m_fitAction->isChecked();
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
    std::int64_t lastRead = -1;
    for (const TensorView* view : views) {
        if (view->readOrderScaleEnd() < 0) continue; // nothing selected in it
        lastRead = std::max(lastRead, view->readOrderScaleEnd());
        if (view->isHeatMap()) {
            whole = true;
        } else if (const auto shown = view->ordersOnScreen()) {
            range = range ? std::pair(std::min(range->first, shown->first),
                                      std::max(range->second, shown->second))
                          : *shown;
        }
    }
    if (whole || (range && range->first == 0 && range->second == lastRead)) range.reset();
    for (TensorView* view : views)
        view->setFittedScale(view->readOrderScaleEnd() >= 0 && !view->isHeatMap() ? range
                                                                                  : std::nullopt);
    checkSettled();
}

void MainWindow::ensureOutputViews(int count)
{
    while (int(m_outputViews.size()) > count) {
        delete m_outputViews.back();
        m_outputViews.pop_back();
    }
    while (int(m_outputViews.size()) < count) {
        const int k = int(m_outputViews.size());
        auto* view = new TensorView;
        view->setObjectName(QStringLiteral("output%1View").arg(k));
        view->setAccessibleName(tr("Output tensor %1").arg(k));
        m_outputSplitter->addWidget(view);
        m_outputViews.push_back(view);
        connect(view, &TensorView::elementHovered, this,
                [this, k](qint64 flat) { onOutputHovered(k, flat); });
        connect(view, &TensorView::settled, this, &MainWindow::checkSettled);
        connect(view, &TensorView::ordersOnScreenChanged, this, [this] { m_fitColours.start(); });
        view->setToolTipProvider([this, k](std::int64_t flat) -> QString {
            const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
            if (!shown) return {};
            const OpDef* def = findOp(shown->op);
            return def ? explainOutputElement(*def, *shown, k, flat) : QString();
        });
    }
}

void MainWindow::onOutputHovered(int output, qint64 flat)
{
    const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
    const std::int64_t source =
        shown && m_evaluation->isLinked() ? shown->sources.source(output, flat) : kNoSource;
    const bool fromInput = source >= 0 && sourceSlot(source) != kConstantSlot;
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        m_inputs->view(s)->setOutlined(fromInput && sourceSlot(source) == s
                                           ? std::vector<std::int64_t>{sourceIndex(source)}
                                           : std::vector<std::int64_t>{});
}

void MainWindow::onInputHovered(int slot, qint64 index)
{
    m_hoverSlot = slot;
    m_hoverIndex = index;
    m_hoverTargets.clear();
    const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
    if (!shown || !m_evaluation->isLinked() || index < 0) {
        for (TensorView* v : m_outputViews)
            v->setOutlined({});
        return;
    }
    if (targetsAreCheap(*shown))
        showTargets(slot, index, findTargets(*shown, slot, index));
    else
        m_engine->lookupTargets(shown, slot, index);
}

void MainWindow::showTargets(int slot, qint64 index,
                             const std::vector<std::vector<std::int64_t>>& targets)
{
    if (slot != m_hoverSlot || index != m_hoverIndex) return; // the mouse has moved on
    m_hoverTargets = targets;
    for (std::size_t k = 0; k < m_outputViews.size(); ++k)
        m_outputViews[k]->setOutlined(k < targets.size() ? targets[k]
                                                         : std::vector<std::int64_t>{});
}

std::optional<std::pair<std::size_t, std::size_t>> MainWindow::slotEntry(int slot) const
{
    if (slot < 0) return std::nullopt;
    std::size_t k = 0;
    std::size_t j = std::size_t(slot);
    const auto& inputs = m_doc->workspace().inputs;
    while (k < inputs.size() && j >= inputs[k].size())
        j -= inputs[k++].size();
    if (k >= inputs.size()) return std::nullopt;
    return std::pair(k, j);
}

void MainWindow::onElementEdited(int slot, qint64 flat, const QString& text)
{
    const auto entry = slotEntry(slot);
    if (!entry) return;
    const auto [k, j] = *entry;
    const Tensor& shown = m_inputs->view(slot)->model()->tensor();
    if (!shown.isValid() || flat < 0 || flat >= shown.size()) return;
    try {
        Workspace next = m_doc->workspace();
        next.inputs[k][j] = dataSource(withElement(shown, flat, text, m_engine->limits()));
        m_doc->edit(next, tr("Edit %1").arg(coordText(flat, shown.shape())));
    } catch (const OpError& e) {
        showMessage(tr("%1 is not a %2 value: %3")
                        .arg(text.toHtmlEscaped(), dtypeText(shown.dtype()),
                             QString::fromUtf8(e.what()).toHtmlEscaped()));
    }
}

void MainWindow::lightCurrentStep()
{
    const Step* step = m_stepper->current();
    // A stale step's character ranges and rows belong to an older text of the arguments.
    m_opEditor->lightStep(m_evaluation->isStale() ? nullptr : step, m_evaluation->shown().get());
    for (int s = 0; s < m_inputs->slotCount(); ++s)
        m_inputs->view(s)->setFocusDims(
            step && s == 0 && m_evaluation->isLinked() ? step->inputDims : std::vector<int>{});
    for (std::size_t k = 0; k < m_outputViews.size(); ++k)
        m_outputViews[k]->setFocusDims(step && k == 0 ? step->outputDims : std::vector<int>{});
}

void MainWindow::updateStatus()
{
    const std::shared_ptr<const Evaluation> shown = m_evaluation->shown();
    const std::shared_ptr<const Evaluation> last = m_evaluation->last();
    const bool stale = m_evaluation->isStale();
    if (shown) {
        const OpDef& def = *findOp(shown->op);
        const std::vector<Tensor> tensors = shown->slotTensors();
        m_statusShapes->setText(
            tensorsSummary(slotNames(def, *shown), tensors, tr("inputs")) +
            QStringLiteral("  →  ") +
            (shown->outputs.empty()
                 ? tr("no tensor output")
                 : tensorsSummary(outputNames(def, *shown), shown->outputs, tr("outputs"))));
        m_statusTime->setText(tr("op %1 ms · total %2 ms")
                                  .arg(QLocale().toString(shown->opMs, 'f', 2),
                                       QLocale().toString(shown->totalMs, 'f', 2)));
    } else if (last && !last->ok) {
        m_statusShapes->setText(
            tr("No result: %1").arg(QString::fromLatin1(errorCodeName(last->code).data())));
        m_statusTime->clear();
    } else {
        m_statusShapes->setText(last ? tr("No result yet") : tr("Evaluating…"));
        m_statusTime->clear();
    }
    const bool busy = m_evaluation->isBusy();
    m_statusState->setText(
        busy ? tr("evaluating…")
        : stale && !m_unreadableNames.empty()
            ? tr("stale: %1 does not parse").arg(m_unreadableNames.join(QStringLiteral(", ")))
        : stale ? tr("stale: showing the last good result")
                : QString());
    m_statusState->setStyleSheet(
        !busy && stale ? QStringLiteral("color: #b35900; font-weight: bold;") : QString());
}

void MainWindow::updateBanner()
{
    const Workspace& ws = m_doc->workspace();
    m_banner->setVisible(!ws.title.isEmpty());
    m_bannerTitle->setText(ws.title);
    QString html;
    for (const QString& paragraph :
         ws.explanation.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>").arg(paragraph.toHtmlEscaped().replace(u'\n', u' '));
    m_bannerText->setText(html);
    const auto& all = lessons();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const Lesson& l) { return l.name == m_lessonName; });
    m_nextLesson->setVisible(it != all.end() && it + 1 != all.end());
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
    if (!m_session->isEnabled()) return;
    const auto lost = m_session->findLostSession();
    if (!lost) return;
    m_recoverPath = lost->autosavePath;
    m_recoveryText->setText(tr("A SliceScope session ended without closing on %1. Recover its "
                               "workspace?")
                                .arg(QLocale().toString(lost->savedAt, QLocale::ShortFormat)));
    m_recovery->show();
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
    if (m_doc->filePath().isEmpty() || m_askingDisk) return;
    const FileStamp::Change change = m_doc->diskChange();
    if (change == FileStamp::Change::None) return;
    // Once per change on disk: leaving the question open ("Cancel") is an answer too.
    if (!m_doc->takeNewDiskChange()) return;
    if (change == FileStamp::Change::Missing) {
        showError(tr("%1 was deleted or moved on disk since this window opened or saved it. "
                     "Save writes it again.")
                      .arg(QFileInfo(m_doc->filePath()).fileName()));
        return;
    }
    resolveDiskChange();
}

bool MainWindow::resolveDiskChange()
{
    const QString file = m_doc->filePath();
    const QString name = QFileInfo(file).fileName();
    QString text = tr("\"%1\" was changed on disk by another window or program since this window "
                      "opened or saved it.")
                       .arg(name);
    if (m_doc->isModified()) text += tr(" This window also has changes that are not saved.");
    text += tr("\n\nReload the file (this window's version is lost), overwrite it with this "
               "window's workspace (the other version is lost), or save this window's "
               "workspace as another file?");
    m_askingDisk = true;
    const DiskChoice choice = m_diskPrompt(text);
    m_askingDisk = false;
    QString error;
    switch (choice) {
    case DiskChoice::Reload:
        if (openFile(file, &error)) return true;
        break;
    case DiskChoice::Overwrite:
        if (saveFile(file, &error, true)) return true;
        break;
    case DiskChoice::SaveAs: return saveAs();
    case DiskChoice::Cancel:
        error = tr("%1 was changed on disk by another window or program; this window's version "
                   "is not saved there. Save asks again before overwriting it.")
                    .arg(name);
        break;
    }
    showError(error);
    return false;
}

bool MainWindow::maybeSave()
{
    if (!m_doc->isModified()) return true;
    const QString name = m_doc->displayName();
    switch (m_savePrompt(
        tr("The workspace \"%1\" has changes that are not saved. Save them?").arg(name))) {
    case SaveChoice::Save: return save();
    case SaveChoice::Discard: return true;
    case SaveChoice::Cancel: break;
    }
    return false;
}

bool MainWindow::newWorkspace()
{
    if (!maybeSave()) return false;
    Workspace fresh;
    if (!(fresh == m_doc->workspace())) m_doc->edit(fresh, tr("New workspace"));
    m_doc->forgetFile();
    m_doc->undoStack()->setClean();
    updateTitle();
    return true;
}

bool MainWindow::save()
{
    if (m_doc->filePath().isEmpty()) return saveAs();
    if (m_doc->diskChange() == FileStamp::Change::Modified) {
        // Saving would replace another window's or program's work: asked every time.
        m_doc->takeNewDiskChange();
        return resolveDiskChange();
    }
    QString error;
    if (saveFile(m_doc->filePath(), &error)) return true;
    showError(error);
    return false;
}

bool MainWindow::saveAs()
{
    // The desktop file's MIME type matches *.slicescope.json, so a workspace saved with that
    // suffix opens in SliceScope when double-clicked: the name gets it unless another is typed.
    QFileDialog dialog(this, tr("Save the workspace"));
    dialog.setObjectName(QStringLiteral("saveDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setNameFilters({tr("SliceScope workspace (*.slicescope.json)"), tr("JSON (*.json)")});
    dialog.setDefaultSuffix(QStringLiteral("slicescope.json"));
    if (!m_doc->filePath().isEmpty()) {
        dialog.selectFile(m_doc->filePath());
    } else {
        // In the folder of the last file opened or saved, not wherever the program started.
        const QString lesson = m_lessonName.isEmpty() ? QStringLiteral("workspace") : m_lessonName;
        const QString name = lesson + QStringLiteral(".slicescope.json");
        const QString folder = WorkspaceDocument::lastFolder();
        if (!folder.isEmpty() && QFileInfo(folder).isDir()) dialog.setDirectory(folder);
        dialog.selectFile(name);
    }
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return false;
    QString error;
    if (saveFile(dialog.selectedFiles().constFirst(), &error)) return true;
    showError(error);
    return false;
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

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = WorkspaceDocument::pruneRecentFiles(); // deleted since: left out
    for (int k = 0; k < files.size(); ++k) {
        const QString path = files[k];
        QAction* a = m_recentMenu->addAction(
            QStringLiteral("&%1 %2").arg(k + 1).arg(QFileInfo(path).fileName()));
        a->setObjectName(QStringLiteral("recentFile%1").arg(k));
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (!maybeSave()) return;
            QString error;
            if (!openFile(path, &error)) showError(error);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
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

std::optional<std::pair<QString, int>> MainWindow::dropTarget(const QMimeData* mime,
                                                              const QPoint& pos) const
{
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1) return std::nullopt;
    const QUrl url = mime->urls().front();
    if (!url.isLocalFile()) return std::nullopt;
    const QString path = url.toLocalFile();
    const bool npy = path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive);
    if (!npy && !path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) return std::nullopt;
    int slot = -1;
    if (npy) {
        // Over an input's block: that input. Anywhere else: the first, as File > Open does.
        static const QRegularExpression block(QStringLiteral("^input(\\d+)Block$"));
        for (QWidget* w = childAt(pos); w && w != this; w = w->parentWidget())
            if (const auto match = block.match(w->objectName()); match.hasMatch()) {
                slot = match.captured(1).toInt();
                break;
            }
    }
    return std::pair(path, slot);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (dropTarget(event->mimeData(), event->position().toPoint()))
        event->acceptProposedAction();
    else
        event->ignore();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event)
{
    if (dropTarget(event->mimeData(), event->position().toPoint()))
        event->acceptProposedAction();
    else
        event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto target = dropTarget(event->mimeData(), event->position().toPoint());
    if (!target) {
        event->ignore();
        return;
    }
    event->acceptProposedAction();
    // After the drop has ended: "Save changes?" must not open inside the drag's event.
    QTimer::singleShot(0, this, [this, path = target->first, slot = target->second] {
        QString error;
        const bool npy = path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive);
        if (npy && slot >= 0) {
            const auto entry = slotEntry(slot);
            if (!entry) return;
            try {
                // The one reader of .npy files, as File > Open uses it; its first input is
                // the file's tensor.
                const Workspace read =
                    readWorkspaceFile(path, m_doc->workspace(), m_engine->limits());
                Workspace next = m_doc->workspace();
                next.inputs[entry->first][entry->second] = read.inputs.front().front();
                const TensorView* view = inputView(slot);
                m_doc->edit(next, tr("Drop %1 on %2")
                                      .arg(QFileInfo(path).fileName(),
                                           view ? view->title() : tr("input %1").arg(slot)));
            } catch (const OpError& e) {
                showError(QString::fromUtf8(e.what()));
            }
            return;
        }
        // A workspace replaces the window's (after "Save changes?"); a .npy is an edit.
        if (!npy && !maybeSave()) return;
        if (!openFile(path, &error)) showError(error);
    });
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
