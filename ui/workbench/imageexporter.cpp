// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/imageexporter.h"

#include "ui/views/picturewriter.h"
#include "ui/views/readorderanimation.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/mainwindow.h"

#include <QCoreApplication>
#include <QMenuBar>
#include <QPainter>
#include <QRegularExpression>

namespace ss::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ImageExporter", text);
}

const QRegularExpression& viewPattern()
{
    static const QRegularExpression pattern(QStringLiteral("^(input|output)(\\d{0,4})$"));
    return pattern;
}

} // namespace

bool ImageExporter::isViewName(const QString& name)
{
    return name == QLatin1String("window") || viewPattern().match(name).hasMatch();
}

QString ImageExporter::viewNameHelp()
{
    return tr("window, input (or input0), input1, ..., output (or output0), output1, ...");
}

QStringList ImageExporter::views() const
{
    QStringList names{QStringLiteral("window")};
    for (int slot = 0; m_window.inputView(slot); ++slot)
        names << (slot == 0 ? QStringLiteral("input") : QStringLiteral("input%1").arg(slot));
    for (int k = 0; k < m_window.outputViewCount(); ++k)
        names << (k == 0 ? QStringLiteral("output") : QStringLiteral("output%1").arg(k));
    return names;
}

TensorView* ImageExporter::tensorView(const QString& name, QString* error) const
{
    const auto match = viewPattern().match(name);
    TensorView* view = nullptr;
    if (match.hasMatch()) {
        const int k = match.captured(2).isEmpty() ? 0 : match.captured(2).toInt();
        if (match.captured(1) == QLatin1String("input"))
            view = m_window.inputView(k);
        else if (k < m_window.outputViewCount())
            view = m_window.outputView(k);
    }
    if (!view) {
        const QString failed =
            m_window.lastEvaluation() && !m_window.lastEvaluation()->ok
                ? tr(" (the evaluation failed: %1)").arg(m_window.lastEvaluation()->message)
                : QString();
        *error = tr("there is no view \"%1\"%2; the views are: %3")
                     .arg(name, failed, views().join(QStringLiteral(", ")));
    }
    return view;
}

bool ImageExporter::pictureOf(const QString& name, Picture* picture, QString* error) const
{
    if (name == QLatin1String("window")) {
        MainWindow* window = &m_window;
        // The workbench without its menu bar: menus say nothing on a slide, and Qt 6.4's SVG
        // generator ignores clipping, so the bar's background would cover its own titles.
        const int top = window->menuBar()->isVisible() ? window->menuBar()->height() : 0;
        const QRect area(0, top, window->width(), window->height() - top);
        *picture = Picture{area.size(), window->logicalDpiY(),
                           [window, area](QPainter& p) {
                               // The window paints itself, widget by widget, onto the device:
                               // vector wherever the widgets paint vectors (all but heat maps).
                               window->render(&p, QPoint(0, 0), QRegion(area),
                                              QWidget::DrawWindowBackground |
                                                  QWidget::DrawChildren);
                           },
                           window->windowTitle().remove(QStringLiteral("[*]"))};
        return true;
    }
    const TensorView* view = tensorView(name, error);
    if (!view) return false;
    *picture = Picture{view->pictureSize(), view->logicalDpiY(),
                       [view](QPainter& p) { view->paintPicture(p); }, view->title()};
    return true;
}

bool ImageExporter::exportImage(const QString& view, const QString& path, double scale,
                                QString* error)
{
    if (!PictureWriter::formatOf(path)) {
        *error = tr("cannot write %1: an image is %2").arg(path, PictureWriter::formatList());
        return false;
    }
    Picture picture;
    return pictureOf(view, &picture, error) && PictureWriter::write(picture, path, scale, error);
}

bool ImageExporter::exportAnimation(const QString& view, const QString& path, int stepMs,
                                    QString* error)
{
    if (view == QLatin1String("window")) {
        *error = tr("the animation shows one tensor view (input, output, ...), not the window");
        return false;
    }
    const TensorView* tensor = tensorView(view, error);
    return tensor && ReadOrderAnimation(*tensor, stepMs).write(path, error);
}

} // namespace ss::ui
