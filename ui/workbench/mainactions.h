// SPDX-License-Identifier: GPL-3.0-or-later
// Every command of the workbench in one place: the QActions with their shortcuts, the menus and
// the toolbar (with the op picker). The actions are the window's children, so the keys table of
// Help > Keyboard Shortcuts and ui/README.md's keys table are read from them (shortcuttable.h)
// and cannot miss a key one of them has.
#pragma once

#include <QKeySequence>
#include <QObject>

class QAction;
class QComboBox;
class QMenu;

namespace ss::ui {

class CommandPalette;
class CompareMode;
class DockSetup;
class MainWindow;

class MainActions : public QObject
{
    Q_OBJECT
public:
    /// Builds the actions, menus and toolbar of `window`, whose docks `docks` holds.
    MainActions(MainWindow& window, const DockSetup& docks);

    /// The toolbar's op picker: choosing an op there switches to its example, one undo step.
    QComboBox* opPicker() const { return m_opPicker; }
    /// View > Fit Colours to the Screen.
    QAction* fitColoursAction() const { return m_fitColours; }
    /// View > Dark Theme.
    QAction* darkThemeAction() const { return m_darkTheme; }
    /// Edit > Command Palette (Ctrl+K, Ctrl+Shift+P): opens it with the filter focused.
    void openCommandPalette();
    /// The palette, null until first opened.
    CommandPalette* commandPalette() const { return m_palette; }
    /// File > Compare With Actual Output…'s bar above the outputs.
    CompareMode* compareMode() const { return m_compareMode; }

signals:
    /// A command failed; `html` says why, for the window's message strip.
    void failed(const QString& html);

private:
    void buildFileActions();
    void buildEditAndViewActions();
    void buildPresentationActions();
    void buildHelpActions();
    void buildMenus();
    void buildToolBar();
    /// File > Open Recent, read afresh (files deleted since are left out).
    void fillRecentMenu();
    /// A new action of the window, named `name` (its objectName) with `key` if not empty.
    QAction* action(const QString& name, const QString& text, const QKeySequence& key = {});

    MainWindow& m_window;
    const DockSetup& m_docks;
    QComboBox* m_opPicker = nullptr;
    QMenu* m_recentMenu = nullptr;

    QAction* m_new = nullptr;
    QAction* m_open = nullptr;
    QAction* m_openModel = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_reopen = nullptr;
    QAction* m_exportNpy = nullptr;
    QAction* m_compare = nullptr;
    CompareMode* m_compareMode = nullptr;
    QAction* m_exportImage = nullptr;
    QAction* m_exportAnimation = nullptr;
    QAction* m_copyRequest = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_pasteCall = nullptr;
    QAction* m_commandPalette = nullptr;
    CommandPalette* m_palette = nullptr; ///< made when first opened
    QAction* m_fitColours = nullptr;
    QAction* m_darkTheme = nullptr;
    QAction* m_showLessons = nullptr;
    QAction* m_showFrameworks = nullptr;
    QAction* m_showDecode = nullptr;
    QAction* m_showExercises = nullptr;
    QAction* m_showModel = nullptr;
    QAction* m_present = nullptr;
    QAction* m_nextLesson = nullptr;
    QAction* m_shortcuts = nullptr;
    QAction* m_about = nullptr;
};

} // namespace ss::ui
