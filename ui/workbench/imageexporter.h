// SPDX-License-Identifier: GPL-3.0-or-later
// File > Export Image and File > Export Read-Order Animation, and the command line's
// --export-image / --export-animation: which view (or the whole window) goes into the file.
// Views are named as on the command line: "input" (or "input0"), "input1", ..., "output"
// (or "output0"), "output1", ..., and "window".
#pragma once

#include <QString>
#include <QStringList>

namespace ss::ui {

class MainWindow;
class TensorView;
struct Picture;

class ImageExporter
{
public:
    explicit ImageExporter(MainWindow& window) : m_window(window) {}

    /// Whether `name` has the form of a view name (whether the view exists is known only once
    /// the workspace is evaluated).
    static bool isViewName(const QString& name);
    /// "input, input1, ..., output, output1, ..., window": for help and errors.
    static QString viewNameHelp();
    /// The views the window shows now, by name: "window" first, then the inputs and outputs.
    QStringList views() const;

    /// Writes view `view` to `path` as PNG (`scale` times its pixels), SVG or PDF. A tensor view
    /// is its whole picture (TensorView::paintPicture); the window is everything below its menu
    /// bar, as on screen.
    bool exportImage(const QString& view, const QString& path, double scale, QString* error);
    /// Writes the read order of tensor view `view` as an animation (ReadOrderAnimation::write),
    /// one step every `stepMs` milliseconds.
    bool exportAnimation(const QString& view, const QString& path, int stepMs, QString* error);

private:
    /// The tensor view named `name`, or null with `error` saying what exists.
    TensorView* tensorView(const QString& name, QString* error) const;
    bool pictureOf(const QString& name, Picture* picture, QString* error) const;

    MainWindow& m_window;
};

} // namespace ss::ui
