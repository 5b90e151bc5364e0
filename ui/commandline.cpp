// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/commandline.h"

#include "ui/lessons.h"
#include "ui/mainwindow.h"
#include "ui/palette.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPixmap>
#include <QSettings>
#include <QTimer>

#include <cstdio>

namespace ss::ui {

namespace {

const char* const kStartedKey = "general/started";

void printTo(std::FILE* stream, const QString& text)
{
    std::fputs(qPrintable(text), stream);
    std::fflush(stream);
}

} // namespace

bool applyStartOptions(MainWindow& window, const StartOptions& options, QString* error)
{
    QSettings settings;
    const bool firstStart = !settings.value(QLatin1String(kStartedKey), false).toBool();
    settings.setValue(QLatin1String(kStartedKey), true);

    if (!options.lesson.isEmpty()) {
        if (!window.openLesson(options.lesson)) {
            QStringList names;
            for (const Lesson& lesson : lessons())
                if (lesson.unavailable.isEmpty()) names << lesson.name;
            *error = QObject::tr("There is no lesson \"%1\". The lessons are: %2")
                         .arg(options.lesson, names.join(QStringLiteral(", ")));
            return false;
        }
    } else if (!options.file.isEmpty()) {
        if (!window.openFile(options.file, error)) return false;
    } else if (firstStart && options.shape.isEmpty() && options.dtype.isEmpty() &&
               options.expr.isEmpty()) {
        for (const Lesson& lesson : lessons())
            if (lesson.unavailable.isEmpty() && window.openLesson(lesson.name)) break;
    }

    Workspace ws = window.workspace();
    if (!options.expr.isEmpty() && ws.op != "getitem")
        ws = switchOp(ws, *findOp("getitem"), nullptr);
    if (!options.shape.isEmpty() || !options.dtype.isEmpty()) {
        if (ws.inputs.empty() || ws.inputs.front().size() != 1) {
            *error = QObject::tr("--shape and --dtype need an op with one first input tensor");
            return false;
        }
        InputSource& source = ws.inputs.front().front();
        if (!options.shape.isEmpty()) {
            const auto shape = parseShapeText(options.shape);
            if (!shape) {
                *error =
                    QObject::tr("--shape %1 is not a shape: give sizes such as 5,6 (rank 0 to 8)")
                        .arg(options.shape);
                return false;
            }
            source.shape = *shape;
        }
        if (!options.dtype.isEmpty()) {
            source.dtype = dtypeFromName(options.dtype.toStdString());
            if (!source.dtype) {
                *error =
                    QObject::tr("--dtype %1 is not one of bool, int8, uint8, int16, int32, int64, "
                                "float32, float64, string")
                        .arg(options.dtype);
                return false;
            }
        }
        if (source.fill == FillKind::Literal || source.fill == FillKind::Data)
            source.fill = FillKind::Arange;
    }
    if (!options.expr.isEmpty()) ws.attrs = {{"expr", Attr(options.expr.toStdString())}};
    if (!(ws == window.workspace())) {
        ws.title.clear();
        ws.explanation.clear();
        window.setWorkspace(ws, QObject::tr("Start"));
    }
    return true;
}

bool saveScreenshot(MainWindow& window, const QString& path, int timeoutMs, QString* error)
{
    window.show();
    QElapsedTimer clock;
    clock.start();
    while (!window.isSettled() && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QObject::connect(&window, &MainWindow::settled, &loop, &QEventLoop::quit);
        QTimer::singleShot(100, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!window.isSettled()) {
        *error = QObject::tr("the evaluation did not finish within %1 s").arg(timeoutMs / 1000);
        return false;
    }
    QCoreApplication::processEvents(); // let the views paint what they just received
    if (!window.grab().save(path, "PNG")) {
        *error = QObject::tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}

int runGui(QApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QObject::tr("See what tensor indexing does: type a tensor and a slice expression and watch "
                    "every selected element light up, step by step."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption shape(QStringLiteral("shape"),
                                   QObject::tr("Shape of the input, e.g. 5,6."), QObject::tr("S"));
    const QCommandLineOption dtype(QStringLiteral("dtype"),
                                   QObject::tr("Element type of the input (int32, float32, ...)."),
                                   QObject::tr("D"));
    const QCommandLineOption expr(QStringLiteral("expr"),
                                  QObject::tr("A slice expression, e.g. 'x[1:, ::-1]'."),
                                  QObject::tr("EXPR"));
    const QCommandLineOption lesson(QStringLiteral("lesson"),
                                    QObject::tr("Open a built-in lesson by name."),
                                    QObject::tr("NAME"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QObject::tr("Wait for the evaluation, save the window as PNG and exit."),
        QObject::tr("FILE.png"));
    parser.addOptions({shape, dtype, expr, lesson, screenshot});
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QObject::tr("A NumPy .npy file (the input) or a saved workspace (.json)."),
        QStringLiteral("[FILE]"));
    if (!parser.parse(app.arguments())) {
        printTo(stderr, parser.errorText() + u'\n');
        return 2;
    }
    if (parser.isSet(help)) {
        printTo(stdout, parser.helpText());
        return 0;
    }
    if (parser.isSet(version)) {
        printTo(stdout,
                QStringLiteral("slicescope %1\n").arg(QCoreApplication::applicationVersion()));
        return 0;
    }
    if (parser.positionalArguments().size() > 1) {
        printTo(stderr, QObject::tr("Give at most one file.\n"));
        return 2;
    }

    StartOptions options{parser.positionalArguments().value(0),
                         parser.value(shape),
                         parser.value(dtype),
                         parser.value(expr),
                         parser.value(lesson),
                         parser.value(screenshot)};
    applyTheme(app, Theme::Light);
    MainWindow window;
    QString error;
    if (!applyStartOptions(window, options, &error)) {
        printTo(stderr, QStringLiteral("slicescope: %1\n").arg(error));
        return 2;
    }
    if (!options.screenshot.isEmpty()) {
        window.forgetSession();
        if (!saveScreenshot(window, options.screenshot, 60000, &error)) {
            printTo(stderr, QStringLiteral("slicescope: no screenshot: %1\n").arg(error));
            return 1;
        }
        return 0;
    }
    window.show();
    return app.exec();
}

} // namespace ss::ui
