// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's docks, made and placed in one place: the lessons on the left, the decode steps
// on the right with the frameworks below them (hidden), the exercises taking the lessons' place
// when asked for (hidden), the model at the bottom (hidden until a model file opens). How they
// give each other room when shown or hidden is here too.
#pragma once

#include <QObject>

class QAction;
class QDockWidget;

namespace ss::ui {

class DecodeStepper;
class ExercisePanel;
class FrameworksPanel;
class LessonGallery;
class MainWindow;
class ModelDock;

class DockSetup : public QObject
{
    Q_OBJECT
public:
    /// Adds the docks to `window`, which must have its central widget (the exercises read the
    /// window's message strip as they start).
    explicit DockSetup(MainWindow& window);

    DecodeStepper* stepper() const { return m_stepper; }
    LessonGallery* gallery() const { return m_gallery; }
    FrameworksPanel* frameworks() const { return m_frameworks; }
    ExercisePanel* exercises() const { return m_exercises; }
    ModelDock* model() const { return m_model; }

    QDockWidget* lessonDock() const { return m_lessonDock; }
    QDockWidget* decodeDock() const { return m_decodeDock; }
    QDockWidget* frameworksDock() const { return m_frameworksDock; }
    QDockWidget* exerciseDock() const { return m_exerciseDock; }

    /// After the window's size changed: side docks wider than leaves the editors and views half
    /// the window give up the difference, in proportion to their widths (their default widths
    /// left 410 px of a 1024 px window).
    void keepCentreRoom();

private:
    void addLessonsAndDecode();
    void addFrameworks();
    void addExercises();
    /// Shown: the exercises take the lessons' place and open the first unsolved exercise if none
    /// is open. Hidden: the lessons come back if they had the place.
    void exercisesToggled(bool on);
    /// `wanted` for a dock opening in `area`, or less, so that the editors and views keep half
    /// the window's width beside the docks already open on the other side.
    int sideDockWidth(int wanted, Qt::DockWidgetArea area) const;

    MainWindow& m_window;
    DecodeStepper* m_stepper = nullptr;
    LessonGallery* m_gallery = nullptr;
    FrameworksPanel* m_frameworks = nullptr;
    ExercisePanel* m_exercises = nullptr;
    ModelDock* m_model = nullptr;
    QDockWidget* m_lessonDock = nullptr;
    QDockWidget* m_decodeDock = nullptr;
    QDockWidget* m_frameworksDock = nullptr;
    QDockWidget* m_exerciseDock = nullptr;
};

} // namespace ss::ui
