// SPDX-License-Identifier: GPL-3.0-or-later
// View > Presentation (F5, --presentation): the workbench for a projector. Larger fonts, and so
// larger cells; the docks (but an open exercise's), the toolbar and the status bar hidden; a banner
// above the editors with the expression and the current decode step in large type, and buttons to
// step through the decode (its dock is hidden, so its own buttons and shortcuts are not on screen).
// Leaving it restores the layout exactly as it was: docks, toolbars, splitter sizes, fonts,
// geometry.
#pragma once

#include <QByteArray>
#include <QDockWidget>
#include <QFont>
#include <QObject>
#include <QPointer>
#include <QRect>

#include <utility>
#include <vector>

class QLabel;
class QSplitter;
class QWidget;

namespace ss::ui {

class MainWindow;

class PresentationMode : public QObject
{
    Q_OBJECT
public:
    /// How much larger the fonts are while presenting.
    static constexpr double kFontScale = 1.5;
    /// The expression's size relative to the (already larger) presentation font.
    static constexpr double kExpressionScale = 1.8;

    /// Puts its banner (hidden) at the top of the window's editor area.
    explicit PresentationMode(MainWindow& window);

    bool isOn() const { return m_on; }
    void setOn(bool on);
    /// A dock that stays on screen while presenting if it is open then (the exercise: the
    /// class's task); every other dock is hidden.
    void keepDock(QDockWidget* dock) { m_keptDock = dock; }
    /// The banner (`presentationBanner`) and its two lines, for tests.
    QWidget* banner() const { return m_banner; }
    QString expressionText() const;
    QString stepText() const;

signals:
    void toggled(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void enter();
    void leave();
    /// The banner follows the workspace and the decode stepper.
    void refresh();
    /// Propagates the larger type to every editor again: turned on before the window was
    /// first shown (--presentation), the tables' headers kept the normal type (9 pt against
    /// 13.5) until it is propagated once more after the show.
    void repropagateFont();

    MainWindow& m_window;
    bool m_on = false;
    QWidget* m_banner;
    QLabel* m_expression;
    QLabel* m_step;

    QPointer<QDockWidget> m_keptDock;
    // What leave() puts back.
    QByteArray m_windowState;
    QRect m_geometry;
    bool m_statusBarShown = true;
    bool m_centralHadFont = false;
    QFont m_centralFont;
    std::vector<std::pair<QPointer<QSplitter>, QByteArray>> m_splitters;
    /// Widgets with fonts of their own (the expression's monospace): scaled with the rest.
    std::vector<std::pair<QPointer<QWidget>, QFont>> m_ownFonts;
};

} // namespace ss::ui
