// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/docksetup.h"

#include "ui/model/exercises.h"
#include "ui/workbench/decodestepper.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/frameworkspanel.h"
#include "ui/workbench/lessongallery.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/modeldock.h"

#include <QAction>
#include <QDockWidget>

#include <algorithm>

namespace ss::ui {

DockSetup::DockSetup(MainWindow& window) : QObject(&window), m_window(window)
{
    addLessonsAndDecode();
    addFrameworks();
    addExercises();
    m_model = new ModelDock(&window);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_model);
    m_model->hide();
}

void DockSetup::addLessonsAndDecode()
{
    m_stepper = new DecodeStepper;
    m_decodeDock = new QDockWidget(tr("Decode steps"), &m_window);
    m_decodeDock->setObjectName(QStringLiteral("decodeDock"));
    m_decodeDock->setWidget(m_stepper);
    m_window.addDockWidget(Qt::RightDockWidgetArea, m_decodeDock);

    m_gallery = new LessonGallery;
    m_lessonDock = new QDockWidget(tr("Lessons"), &m_window);
    m_lessonDock->setObjectName(QStringLiteral("lessonDock"));
    m_lessonDock->setWidget(m_gallery);
    m_window.addDockWidget(Qt::LeftDockWidgetArea, m_lessonDock);
    m_window.resizeDocks({m_lessonDock, m_decodeDock}, {260, 340}, Qt::Horizontal);
}

void DockSetup::addFrameworks()
{
    // Below the decode steps, hidden until View > Frameworks: the default layout stays as it is
    // (and tabbing it with the decode steps would add the main window's unnamed tab bar).
    m_frameworks = new FrameworksPanel;
    m_frameworksDock = new QDockWidget(tr("Frameworks"), &m_window);
    m_frameworksDock->setObjectName(QStringLiteral("frameworksDock"));
    m_frameworksDock->setWidget(m_frameworks);
    m_window.splitDockWidget(m_decodeDock, m_frameworksDock, Qt::Vertical);
    m_frameworksDock->hide();
    m_frameworks->setReleaser([this](std::vector<std::shared_ptr<const Evaluation>> evals) {
        m_window.engine()->releaseLater(std::move(evals));
    });
    connect(&m_window, &MainWindow::evaluationShown, m_frameworks, [this] {
        m_frameworks->setEvaluation(m_window.lastEvaluation(), m_window.engine()->limits());
    });
    // Six rows of errors in a framework's own words need more room than the decode steps.
    // Hidden, it shows nothing, so no framework's result stays on screen in TensorFlow's place.
    connect(m_frameworksDock->toggleViewAction(), &QAction::toggled, this, [this](bool on) {
        if (!on) {
            m_frameworks->choose(Framework::TensorFlow);
            return;
        }
        m_window.resizeDocks({m_frameworksDock}, {sideDockWidth(560, Qt::RightDockWidgetArea)},
                             Qt::Horizontal);
        m_window.resizeDocks({m_frameworksDock}, {300}, Qt::Vertical);
    });
}

void DockSetup::addExercises()
{
    // Exercises: a dock of their own, hidden by default so the first window is unchanged. Shown,
    // it takes the lessons' place on the left (View > Lessons brings them back beside it).
    m_exercises = new ExercisePanel(&m_window);
    m_exerciseDock = new QDockWidget(tr("Exercises"), &m_window);
    m_exerciseDock->setObjectName(QStringLiteral("exerciseDock"));
    m_exerciseDock->setWidget(m_exercises);
    m_window.addDockWidget(Qt::LeftDockWidgetArea, m_exerciseDock);
    m_exerciseDock->hide();
    connect(m_exerciseDock->toggleViewAction(), &QAction::toggled, this,
            &DockSetup::exercisesToggled);
}

int DockSetup::sideDockWidth(int wanted, Qt::DockWidgetArea area) const
{
    // The editors and views keep half the window: at 1024 px with the lessons and the
    // frameworks open together, the frameworks at their full width left the centre 370 px.
    int facing = 0; // the widest dock shown on the other side
    for (QDockWidget* dock : {m_lessonDock, m_exerciseDock, m_decodeDock, m_frameworksDock})
        if (dock->isVisible() && m_window.dockWidgetArea(dock) != area)
            facing = std::max(facing, dock->width());
    const int room = m_window.width() / 2 - facing;
    // Never narrower than a dock can be read at.
    return std::max(std::min(wanted, room), m_window.fontMetrics().averageCharWidth() * 24);
}

void DockSetup::keepCentreRoom()
{
    const int shortfall = m_window.width() / 2 - m_window.centralWidget()->width();
    if (shortfall <= 0) return;
    QList<QDockWidget*> docks;
    QList<int> widths;
    int total = 0;
    for (QDockWidget* dock : {m_lessonDock, m_exerciseDock, m_decodeDock, m_frameworksDock}) {
        const Qt::DockWidgetArea area = m_window.dockWidgetArea(dock);
        if (!dock->isVisible() || dock->isFloating() ||
            (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea))
            continue;
        docks << dock;
        widths << dock->width();
        total += dock->width();
    }
    if (total <= 0) return;
    const int least = m_window.fontMetrics().averageCharWidth() * 24;
    for (int& width : widths)
        width = std::max(least, width - shortfall * width / total);
    m_window.resizeDocks(docks, widths, Qt::Horizontal);
}

void DockSetup::exercisesToggled(bool on)
{
    static const char* const kLessonsWereShown = "lessonsWereShown";
    static const char* const kLessonsWidth = "lessonsWidth";
    if (!on) {
        // Not known (the exercises came back with a restored layout): the lessons return, at
        // the width they had (shown in the place the exercises leave, they would take theirs).
        const QVariant wereShown = m_exerciseDock->property(kLessonsWereShown);
        if (!wereShown.isValid() || wereShown.toBool()) {
            // The toggle action reports before the dock hides: shown beside it for a moment,
            // the lessons under the exercises asked for both docks' least heights (540 + 89 px at
            // 1024 x 700) and the window grew past the screen for good.
            m_exerciseDock->hide();
            m_lessonDock->show();
            const int width = m_exerciseDock->property(kLessonsWidth).toInt();
            // Not while the window closes (this runs as it hides its docks, also in its
            // destructor, when its layout is gone).
            if (width > 0 && m_window.isVisible())
                m_window.resizeDocks({m_lessonDock}, {width}, Qt::Horizontal);
        }
        return;
    }
    // Only a request to open them (the dock not shown yet) says whether the lessons were there;
    // a restored layout shows the exercises with the lessons already put away.
    if (m_exerciseDock->isHidden()) {
        m_exerciseDock->setProperty(kLessonsWereShown, !m_lessonDock->isHidden());
        m_exerciseDock->setProperty(kLessonsWidth,
                                    m_lessonDock->isHidden() ? 0 : m_lessonDock->width());
    }
    m_lessonDock->hide();
    m_window.resizeDocks({m_exerciseDock}, {sideDockWidth(380, Qt::LeftDockWidgetArea)},
                         Qt::Horizontal);
    if (!m_exercises->currentExercise().isEmpty()) return;
    for (const ExerciseSet& set : exerciseSets())
        for (const Exercise& exercise : set.exercises)
            if (!m_exercises->progress().isSolved(exercise.name)) {
                m_exercises->openExercise(exercise.name);
                return;
            }
}

} // namespace ss::ui
