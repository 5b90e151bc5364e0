// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/mainactions.h"

#include "core/error.h"
#include "ui/editors/oppicker.h"
#include "ui/model/workspacefile.h"
#include "ui/views/palette.h"
#include "ui/workbench/callpaster.h"
#include "ui/workbench/commandpalette.h"
#include "ui/workbench/comparemode.h"
#include "ui/workbench/copyasmenu.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exportdialog.h"
#include "ui/workbench/filecommands.h"
#include "ui/workbench/lessonnavigator.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/presentationmode.h"
#include "ui/workbench/shortcuttable.h"
#include "ui/workbench/undokeys.h"
#include "ui/workbench/workspacedocument.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QShortcut>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

namespace ss::ui {

namespace {

const char* const kThemeKey = "view/dark";
const char* const kFitColoursKey = "view/fitColours";

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

// A dock's show/hide action, named for the menus and the keys table.
QAction* dockAction(QDockWidget* dock, const QString& name, const QString& text,
                    const QKeySequence& key)
{
    QAction* a = dock->toggleViewAction();
    a->setObjectName(name);
    a->setText(text);
    a->setShortcut(key);
    return a;
}

} // namespace

MainActions::MainActions(MainWindow& window, const DockSetup& docks)
    : QObject(&window), m_window(window), m_docks(docks)
{
    buildFileActions();
    buildEditAndViewActions();
    buildPresentationActions();
    buildHelpActions();
    buildMenus();
    buildToolBar();
    if (QSettings().value(QLatin1String(kThemeKey), false).toBool()) m_darkTheme->setChecked(true);
}

QAction* MainActions::action(const QString& name, const QString& text, const QKeySequence& key)
{
    auto* a = new QAction(text, &m_window);
    a->setObjectName(name);
    if (!key.isEmpty()) a->setShortcut(key);
    return a;
}

void MainActions::openCommandPalette()
{
    if (!m_palette) m_palette = new CommandPalette(m_window);
    m_palette->open();
}

void MainActions::buildFileActions()
{
    MainWindow& w = m_window;
    m_new = action(QStringLiteral("actionNew"), tr("&New"), QKeySequence::New);
    connect(m_new, &QAction::triggered, w.files(), &FileCommands::newWorkspace);
    m_open = action(QStringLiteral("actionOpen"), tr("&Open…"), QKeySequence::Open);
    connect(m_open, &QAction::triggered, &w, [&w] {
        if (!w.files()->maybeSave()) return;
        const QString path = QFileDialog::getOpenFileName(
            &w, tr("Open a workspace, a NumPy file or a model"), w.document()->dialogFolder(),
            tr("Workspaces, NumPy files and models (*.json *.npy *.onnx *.tflite *.pb "
               "*.pbtxt);;All files (*)"));
        if (path.isEmpty()) return;
        // A model goes to the Model dock, as from the command line or a drop (it was read as
        // a workspace: "invalid JSON: ... control character U+0008").
        if (ModelDock::isModelFile(path)) {
            w.docks()->model()->openModel(path);
            return;
        }
        QString error;
        if (!w.openFile(path, &error)) w.showError(error);
    });
    m_recentMenu = new QMenu(tr("Open &Recent"), &w);
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainActions::fillRecentMenu);
    connect(w.document(), &WorkspaceDocument::recentFilesChanged, this,
            &MainActions::fillRecentMenu);
    fillRecentMenu();
    m_save = action(QStringLiteral("actionSave"), tr("&Save"), QKeySequence::Save);
    connect(m_save, &QAction::triggered, w.files(), &FileCommands::save);
    m_saveAs = action(QStringLiteral("actionSaveAs"), tr("Save &As…"));
    m_saveAs->setShortcuts(documentedKeys(Qt::CTRL | Qt::SHIFT | Qt::Key_S, QKeySequence::SaveAs));
    connect(m_saveAs, &QAction::triggered, w.files(), &FileCommands::saveAs);
    m_reopen = action(QStringLiteral("actionReopenLast"), tr("Reopen the Last Workspace at Start"));
    m_reopen->setCheckable(true);
    m_reopen->setChecked(WorkspaceDocument::reopensLastWorkspace());
    connect(m_reopen, &QAction::toggled, this,
            [](bool on) { WorkspaceDocument::setReopensLastWorkspace(on); });
    m_exportNpy = action(QStringLiteral("actionExportOutput"), tr("&Export Output as .npy…"));
    connect(m_exportNpy, &QAction::triggered, &w, [&w] {
        QString error;
        QStringList written;
        // Checked before asking for a name: a stale result is refused, not written.
        if (!w.document()->exportOutputs(QString(), nullptr, &error)) {
            w.showError(error);
            return;
        }
        const QString file = w.filePath();
        const QString base =
            w.document()->dialogFolder() + u'/' +
            (file.isEmpty() ? QStringLiteral("output") : QFileInfo(file).baseName()) +
            QStringLiteral(".npy");
        const QString path = QFileDialog::getSaveFileName(&w, tr("Export the outputs"), base,
                                                          tr("NumPy files (*.npy)"));
        if (!path.isEmpty() && !w.document()->exportOutputs(path, &written, &error))
            w.showError(error);
    });
    m_compareMode = new CompareMode(&w);
    m_compare = action(QStringLiteral("actionCompareActual"), tr("Com&pare With Actual Output…"));
    m_compare->setToolTip(tr("Diagnose a wrong output (a .npy or pasted values) against this one"));
    connect(m_compare, &QAction::triggered, m_compareMode, &CompareMode::choose);
    m_exportImage = action(QStringLiteral("actionExportImage"), tr("Export &Image…"));
    m_exportImage->setToolTip(tr("Save a view or the whole window as PNG, SVG or PDF"));
    connect(m_exportImage, &QAction::triggered, &w,
            [&w] { ExportDialog::run(w, ExportDialog::Kind::Image); });
    m_exportAnimation =
        action(QStringLiteral("actionExportAnimation"), tr("Export Rea&d-Order Animation…"));
    m_exportAnimation->setToolTip(
        tr("Save the selected cells lighting up in read order as an animated PNG or frames"));
    connect(m_exportAnimation, &QAction::triggered, &w,
            [&w] { ExportDialog::run(w, ExportDialog::Kind::Animation); });
    m_copyRequest = action(QStringLiteral("actionCopyRequest"), tr("&Copy as Request"),
                           QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyRequest->setToolTip(tr("Copies the workspace as one slicescope-cli request line"));
    connect(m_copyRequest, &QAction::triggered, this, [this] {
        try {
            QGuiApplication::clipboard()->setText(
                QString::fromStdString(workspaceToJson(m_window.workspace())));
        } catch (const OpError& e) {
            emit failed(QString::fromUtf8(e.what()));
        }
    });
    m_quit = action(QStringLiteral("actionQuit"), tr("&Quit"));
    m_quit->setShortcuts(documentedKeys(Qt::CTRL | Qt::Key_Q, QKeySequence::Quit));
    connect(m_quit, &QAction::triggered, &w, &QWidget::close);
}

void MainActions::buildEditAndViewActions()
{
    QUndoStack* undoStack = m_window.undoStack();
    m_undo = undoStack->createUndoAction(&m_window, tr("&Undo"));
    m_undo->setObjectName(QStringLiteral("actionUndo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = undoStack->createRedoAction(&m_window, tr("&Redo"));
    m_redo->setObjectName(QStringLiteral("actionRedo"));
    m_redo->setShortcuts(documentedKeys(Qt::CTRL | Qt::SHIFT | Qt::Key_Z, QKeySequence::Redo));
    new UndoKeys(m_window); // in every field of the window, these keys are the window's
    m_pasteCall = action(QStringLiteral("actionPasteCall"), tr("Paste &Call"),
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    m_pasteCall->setToolTip(tr("Read the clipboard's slicing call (tf.strided_slice(x, ...), "
                               "tf.gather, np.take, torch.narrow, node text, ...) as the op and "
                               "its arguments"));
    connect(m_pasteCall, &QAction::triggered, this,
            [this] { m_window.callPaster()->pasteClipboard(); });
    // Every action, op, lesson and exercise, filtered as you type (KDE's KCommandBar, VS Code's
    // Ctrl+Shift+P, which is kept as a second key).
    m_commandPalette = action(QStringLiteral("actionCommandPalette"), tr("Command &Palette…"),
                              QKeySequence(Qt::CTRL | Qt::Key_K));
    connect(m_commandPalette, &QAction::triggered, this, &MainActions::openCommandPalette);
    auto* paletteKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), &m_window);
    paletteKey->setObjectName(QStringLiteral("commandPaletteKey"));
    paletteKey->setWhatsThis(tr("command palette"));
    connect(paletteKey, &QShortcut::activated, this, &MainActions::openCommandPalette);

    m_fitColours = action(QStringLiteral("actionFitColours"), tr("Fi&t Colours to the Screen"));
    m_fitColours->setCheckable(true);
    m_fitColours->setChecked(QSettings().value(QLatin1String(kFitColoursKey), true).toBool());
    m_fitColours->setToolTip(tr("Run the read-order colours from the first to the last element "
                                "read among the cells on screen, rather than over the whole op"));
    connect(m_fitColours, &QAction::toggled, this,
            [](bool on) { QSettings().setValue(QLatin1String(kFitColoursKey), on); });
    m_darkTheme = action(QStringLiteral("actionDarkTheme"), tr("&Dark Theme"));
    m_darkTheme->setCheckable(true);
    connect(m_darkTheme, &QAction::toggled, this, [](bool on) {
        applyTheme(*qApp, on ? Theme::Dark : Theme::Light);
        QSettings().setValue(QLatin1String(kThemeKey), on);
    });
    m_showLessons = dockAction(m_docks.lessonDock(), QStringLiteral("actionLessons"),
                               tr("&Lessons"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_showFrameworks =
        dockAction(m_docks.frameworksDock(), QStringLiteral("actionFrameworks"), tr("&Frameworks"),
                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_showDecode = dockAction(m_docks.decodeDock(), QStringLiteral("actionDecodeSteps"),
                              tr("D&ecode Steps"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_showExercises = dockAction(m_docks.exerciseDock(), QStringLiteral("actionExercises"),
                                 tr("&Exercises"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_showModel = dockAction(m_docks.model(), QStringLiteral("actionModelDock"), tr("&Model"),
                             QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
}

void MainActions::buildPresentationActions()
{
    PresentationMode* presentation = m_window.presentation();
    m_present = action(QStringLiteral("actionPresentation"), tr("&Presentation"), Qt::Key_F5);
    m_present->setCheckable(true);
    m_present->setToolTip(tr("Large type for a projector, docks hidden; again to leave"));
    connect(m_present, &QAction::toggled, presentation, &PresentationMode::setOn);
    // Escape leaves too, as in every presentation program; only while presenting, so that it
    // keeps its meaning everywhere else.
    auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), &m_window);
    leave->setWhatsThis(tr("leave presentation mode"));
    leave->setEnabled(false);
    connect(leave, &QShortcut::activated, m_present, [this] { m_present->setChecked(false); });
    connect(presentation, &PresentationMode::toggled, this, [this, leave](bool on) {
        m_present->setChecked(on);
        leave->setEnabled(on);
    });
    m_nextLesson = action(QStringLiteral("actionNextLesson"), tr("&Next Lesson"),
                          QKeySequence(Qt::CTRL | Qt::Key_Period));
    connect(m_nextLesson, &QAction::triggered, m_window.lessonNavigator(),
            &LessonNavigator::openNext);
}

void MainActions::buildHelpActions()
{
    MainWindow& w = m_window;
    m_shortcuts = action(QStringLiteral("actionShortcuts"), tr("&Keyboard Shortcuts"));
    connect(m_shortcuts, &QAction::triggered, &w, [&w] { showShortcutTable(w); });
    m_about = action(QStringLiteral("actionAbout"), tr("&About SliceScope"));
    connect(m_about, &QAction::triggered, &w, [&w] {
        QMessageBox::about(
            &w, tr("About SliceScope"),
            tr("<h3>SliceScope %1</h3><p>See what tensor indexing does: "
               "TensorFlow's slicing and joining ops, explained.</p><p>GPL-3.0-or-later.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
    m_openModel = action(QStringLiteral("actionOpenModel"), tr("Open &Model…"));
    connect(m_openModel, &QAction::triggered, m_docks.model(), &ModelDock::chooseModel);
}

void MainActions::buildMenus()
{
    QMenuBar* bar = m_window.menuBar();
    bar->setObjectName(QStringLiteral("menuBar"));
    QMenu* file = bar->addMenu(tr("&File"));
    file->addActions({m_new, m_open, m_openModel});
    file->addMenu(m_recentMenu);
    file->addActions({m_save, m_saveAs, m_exportNpy, m_compare, m_exportImage, m_exportAnimation,
                      m_copyRequest});
    file->addSeparator();
    file->addAction(m_reopen);
    file->addSeparator();
    file->addAction(m_quit);
    QMenu* edit = bar->addMenu(tr("&Edit"));
    edit->addActions({m_undo, m_redo});
    edit->addSeparator();
    edit->addAction(m_pasteCall);
    edit->addAction(m_commandPalette);
    auto* copyAs = new CopyAsMenu([this] { return m_window.workspace(); }, m_copyRequest, edit);
    connect(copyAs, &CopyAsMenu::failed, &m_window, &MainWindow::showError);
    edit->addMenu(copyAs);
    QMenu* view = bar->addMenu(tr("&View"));
    view->addActions(
        {m_showLessons, m_showDecode, m_showFrameworks, m_showModel, m_fitColours, m_darkTheme});
    view->addSeparator();
    view->addAction(m_present);
    QMenu* lessons = bar->addMenu(tr("&Lessons"));
    lessons->addAction(m_nextLesson);
    lessons->addAction(m_showExercises);
    QMenu* help = bar->addMenu(tr("&Help"));
    help->addActions({m_shortcuts, m_about});
}

void MainActions::buildToolBar()
{
    auto* toolbar = m_window.addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setMovable(false);
    toolbar->addAction(m_showLessons);
    toolbar->addAction(m_open);
    toolbar->addAction(m_save);
    toolbar->addSeparator();
    // The menu's undo/redo name the step ("Undo Open lesson ..."); the toolbar stays short.
    QUndoStack* undoStack = m_window.undoStack();
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
    auto* opLabel = new QLabel(tr("  &Op: "));
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
        WorkspaceDocument* doc = m_window.document();
        if (!def || name == doc->workspace().op) return;
        // The op's own example, not a lesson: lessons often show an erratum's corner case (tile
        // of a scalar), the example the op's ordinary use, and it is tested to succeed.
        doc->edit(switchOp(doc->workspace(), *def),
                  tr("Switch to %1").arg(QString::fromStdString(name)));
    });
    toolbar->addSeparator();
    toolbar->addAction(m_showDecode);
    toolbar->addAction(m_darkTheme);
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

void MainActions::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = WorkspaceDocument::pruneRecentFiles(); // deleted since: left out
    for (int k = 0; k < files.size(); ++k) {
        const QString path = files[k];
        QAction* a = m_recentMenu->addAction(
            QStringLiteral("&%1 %2").arg(k + 1).arg(QFileInfo(path).fileName()));
        a->setObjectName(QStringLiteral("recentFile%1").arg(k));
        a->setToolTip(path);
        connect(a, &QAction::triggered, &m_window, [this, path] {
            if (!m_window.files()->maybeSave()) return;
            QString error;
            if (!m_window.openFile(path, &error)) m_window.showError(error);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

} // namespace ss::ui
