// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/commandline.h"

#include "core/error.h"
#include "core/memory_budget.h"
#include "model/model_graph.h"
#include "protocol/model_test_data.h"
#include "protocol/shape_text.h"
#include "ui/model/exercises.h"
#include "ui/model/filesaside.h"
#include "ui/model/lessons.h"
#include "ui/model/modelnodetable.h"
#include "ui/views/palette.h"
#include "ui/views/picturewriter.h"
#include "ui/views/readorderanimation.h"
#include "ui/workbench/automation.h"
#include "ui/workbench/comparemode.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exercisepanel.h"
#include "ui/workbench/imageexporter.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/presentationmode.h"
#include "ui/workbench/windowmessages.h"
#include "ui/workbench/workspacedocument.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QPixmap>
#include <QSemaphore>
#include <QSettings>
#include <QStandardPaths>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

namespace ss::ui {

namespace {

// Not "general/started": QSettings' INI files read a [general] section (any case) as the keys
// without a group, so a value written under "general/" never read back after a restart and
// every start was the first. Such a file's value now reads back as kOldStartedKey.
const char* const kStartedKey = "session/started";
const char* const kOldStartedKey = "started";
const QSize kScreenshotSize(1440, 900);

void printTo(std::FILE* stream, const QString& text)
{
    std::fputs(qPrintable(text), stream);
    std::fflush(stream);
}

// Qt's own messages in --automation mode. Appended as they come (a log, not a document: the
// atomic writer is for files that must be whole); past kMaxLogBytes the file starts over, so a
// session of a million commands cannot fill the disk with "propagateSizeHints" warnings.
constexpr qint64 kMaxLogBytes = qint64(1) << 20;
QMutex logMutex;
QFile* logFile = nullptr;

void logQtMessage(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    static const char* const kinds[] = {"debug", "warning", "critical", "fatal", "info"};
    const QMutexLocker lock(&logMutex);
    if (logFile && logFile->isOpen()) {
        if (logFile->size() > kMaxLogBytes) {
            logFile->resize(0);
            logFile->write("(the log started over: it had reached 1 MiB)\n");
        }
        const int kind = int(type) >= 0 && int(type) < 5 ? int(type) : 1;
        logFile->write(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toUtf8() + ' ' +
                       kinds[kind] + ": " + message.toUtf8() + '\n');
        logFile->flush();
    }
    // Nothing reaches stderr: a client that never reads it would block the channel once the
    // pipe is full. A fatal message still ends the program, as Qt's own handler would.
    if (type == QtFatalMsg) std::abort();
}

/// The threads this process has now (/proc/self/status), or -1.
int threadsNow()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return -1;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine())
        if (line.startsWith("Threads:")) return line.mid(8).trimmed().toInt();
    return -1;
}

} // namespace

int keepQtDrawingThreads()
{
    // Qt 6.4's raster engine splits a large fill across QThreadPool::globalInstance() and waits
    // for every part. A pool thread the system refuses (a pids cgroup, RLIMIT_NPROC) never runs
    // its part: the window hung in its first paint. So the pool gets only threads that exist:
    // as many as the system grants now (at most its maximum), started at once and never
    // expired. Counted first with threads of our own, so that no pool thread is ever refused.
    QThreadPool* pool = QThreadPool::globalInstance();
    const int wanted = pool->maxThreadCount();
    const int before = threadsNow();
    int granted = 0;
    {
        std::mutex mutex;
        std::condition_variable done;
        bool release = false;
        std::vector<std::thread> probes;
        try {
            for (; granted < wanted; ++granted)
                probes.emplace_back([&] {
                    std::unique_lock lock(mutex);
                    done.wait(lock, [&] { return release; });
                });
        } catch (const std::system_error&) {
            // refused: `granted` is what the system allows now
        }
        {
            const std::lock_guard lock(mutex);
            release = true;
        }
        done.notify_all();
        for (std::thread& t : probes)
            t.join();
    }
    // A joined thread still counts against the limit until the kernel has reaped it.
    QElapsedTimer clock;
    clock.start();
    while (before >= 0 && threadsNow() > before && clock.elapsed() < 2000)
        std::this_thread::yield();
    pool->setExpiryTimeout(-1);
    pool->setMaxThreadCount(std::max(granted, 1));
    if (granted == 0) return 0;
    // Each task waits until all have started, so each has a thread of its own. (Not
    // waitForDone(): it ends the pool's threads.)
    QSemaphore started;
    QSemaphore go;
    QSemaphore finished;
    for (int k = 0; k < granted; ++k)
        pool->start([&] {
            started.release();
            go.acquire();
            finished.release();
        });
    const bool all = started.tryAcquire(granted, 10000);
    go.release(granted);
    finished.acquire(granted);
    return all ? granted : 0;
}

QString automationLogPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
           QStringLiteral("/automation.log");
}

void sendQtMessagesToLog(const QString& path)
{
    const QMutexLocker lock(&logMutex);
    if (!logFile) logFile = new QFile; // lives as long as the process: messages come until exit
    logFile->close();
    logFile->setFileName(path);
    QDir().mkpath(QFileInfo(path).absolutePath());
    // Not opened (an unwritable cache): the messages are dropped, never sent to stderr.
    if (logFile->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text) &&
        logFile->size() > kMaxLogBytes)
        logFile->resize(0);
    qInstallMessageHandler(logQtMessage);
}

namespace {

/// What the command line opened or asked for is where the history starts: no undo step leads
/// back to the default workspace it replaced ("Undo Start", "Undo Open vector.npy"), and nothing
/// is unsaved (it can be asked for again).
void startHistoryHere(WorkspaceDocument& document)
{
    document.undoStack()->clear(); // the clean state, with the workspace as it is
}

/// A model file on the command line: read in the Model dock (on a worker: the window is up at
/// once), then its first node that the file contradicts (else the first that can be computed,
/// a shape computation the reader folded last) opened in the workbench; with none that can, the
/// first selected. A file that does not read is the window's start error.
void openModelFile(MainWindow& window, const QString& path)
{
    ModelDock* dock = window.docks()->model();
    // The dock belongs to the window: the window outlives the callback.
    dock->openModel(path, [&window, dock, path](bool ok, const QString& why) {
        if (!ok) {
            window.messages()->showStartError(
                QObject::tr("SliceScope could not start as asked: %1").arg(why), path);
            return;
        }
        const ModelNodeTable* table = dock->table();
        // A node whose outputs the reader folded is a shape computation (an exporter's Gather
        // of the input's shape): it opens only when no node that moves the data can.
        const auto folded = [](const ss::model::ModelNode& node) {
            return std::all_of(node.outputs.begin(), node.outputs.end(),
                               [](const ss::model::ModelValue& v) { return bool(v.constant); });
        };
        int first = -1, firstFolded = -1;
        for (int row = 0; row < table->rowCount(); ++row) {
            const ss::model::ModelNode& node = table->file().nodes[std::size_t(row)];
            if (!node.request) continue;
            if (table->check(row).disagrees) {
                first = row;
                break;
            }
            int& slot = folded(node) ? firstFolded : first;
            if (slot < 0) slot = row;
        }
        if (first < 0) first = firstFolded;
        if (first < 0) {
            // None can be computed yet (arguments computed at run time, unknown shapes): the
            // first is selected, so that the value row offers what it lacks.
            if (table->rowCount() > 0)
                dock->selectNode(QString::fromStdString(table->file().nodes.front().name));
            return;
        }
        dock->selectNode(QString::fromStdString(table->file().nodes[std::size_t(first)].name));
        dock->openNode(first);
        startHistoryHere(*window.document());
    });
}

/// applyStartOptions, also saying which file did not open (empty when the failure was another).
bool applyOptions(MainWindow& window, const StartOptions& options, QString* error,
                  QString* failedFile)
{
    QSettings settings;
    const bool firstStart = !settings.value(QLatin1String(kStartedKey), false).toBool() &&
                            !settings.value(QLatin1String(kOldStartedKey), false).toBool();
    settings.setValue(QLatin1String(kStartedKey), true);

    if (!options.exercise.isEmpty()) {
        if (!window.docks()->exercises()->openExercise(options.exercise)) {
            QStringList names;
            for (const ExerciseSet& set : exerciseSets())
                for (const Exercise& exercise : set.exercises)
                    names << exercise.name;
            *error = QObject::tr("There is no exercise \"%1\". The exercises are: %2")
                         .arg(options.exercise, names.join(QStringLiteral(", ")));
            return false;
        }
        // Triggered, not just checked: a dock's view action shows the dock on trigger only.
        QAction* showExercises = window.docks()->exerciseDock()->toggleViewAction();
        if (!showExercises->isChecked()) showExercises->trigger();
    } else if (!options.lesson.isEmpty()) {
        if (!window.openLesson(options.lesson)) {
            QStringList names;
            for (const Lesson& lesson : lessons())
                if (lesson.unavailable.isEmpty()) names << lesson.name;
            *error = QObject::tr("There is no lesson \"%1\". The lessons are: %2")
                         .arg(options.lesson, names.join(QStringLiteral(", ")));
            return false;
        }
    } else if (!options.file.isEmpty() && ModelDock::isModelFile(options.file)) {
        openModelFile(window, options.file);
    } else if (!options.file.isEmpty() && QFileInfo(options.file).isDir()) {
        // A model's directory: a SavedModel's saved_model.pb, an ONNX node test's model.onnx.
        try {
            openModelFile(
                window,
                QFile::decodeName(
                    modelInDirectory(QFile::encodeName(options.file).toStdString()).c_str()));
        } catch (const OpError& e) {
            *error = QString::fromUtf8(e.what());
            *failedFile = options.file;
            return false;
        }
    } else if (!options.file.isEmpty()) {
        if (!window.document()->openFile(options.file, error)) {
            *failedFile = options.file;
            return false;
        }
    } else if (options.shape.isEmpty() && options.dtype.isEmpty() && options.expr.isEmpty()) {
        const QStringList recent = WorkspaceDocument::recentFiles();
        if (firstStart) {
            for (const Lesson& lesson : lessons())
                if (lesson.unavailable.isEmpty() && window.openLesson(lesson.name)) break;
        } else if (WorkspaceDocument::reopensLastWorkspace() && !recent.isEmpty() &&
                   !window.document()->openFile(recent.front(), error)) {
            *failedFile = recent.front();
            return false;
        }
    }

    Workspace ws = window.document()->workspace();
    // --expr is a subscript: an op that reads one from an input (getitem, compare) keeps it;
    // any other op gives way to getitem.
    const OpDef* current = findOp(ws.op);
    if (!options.expr.isEmpty() &&
        !(current && current->notation == Notation::Subscript && !current->inputs.empty()))
        ws = switchOp(ws, *findOp("getitem"), nullptr);
    if (!options.shape.isEmpty() || !options.dtype.isEmpty()) {
        if (ws.inputs.empty() || ws.inputs.front().size() != 1) {
            *error = QObject::tr("--shape and --dtype need an op with one first input tensor");
            return false;
        }
        InputSource& source = ws.inputs.front().front();
        if (!options.shape.isEmpty()) {
            // The CLI's reader, and its words: "5 6" is (5, 6) in both.
            try {
                source.shape = parseShape(options.shape.toStdString());
            } catch (const OpError& e) {
                *error = QStringLiteral("--shape: %1").arg(QString::fromUtf8(e.what()));
                return false;
            }
        }
        if (!options.dtype.isEmpty()) {
            source.dtype = dtypeFromName(options.dtype.toStdString());
            if (!source.dtype) {
                *error = QObject::tr("--dtype %1 is not one of %2")
                             .arg(options.dtype, QString::fromStdString(dtypeNameList()));
                return false;
            }
        }
        if (source.fill == FillKind::Literal || source.fill == FillKind::Data)
            source.fill = FillKind::Arange;
    }
    if (!options.expr.isEmpty()) ws.attrs = {{"expr", Attr(options.expr.toStdString())}};
    if (!(ws == window.document()->workspace())) {
        ws.title.clear();
        ws.explanation.clear();
        window.document()->edit(ws, QObject::tr("Start"));
    }
    startHistoryHere(*window.document());
    if (!options.compare.isEmpty() &&
        !window.findChild<CompareMode*>()->compareWithFile(options.compare, error)) {
        *error = QStringLiteral("--compare: %1").arg(*error);
        return false;
    }
    return true;
}

} // namespace

bool applyStartOptions(MainWindow& window, const StartOptions& options, QString* error)
{
    QString failedFile;
    return applyOptions(window, options, error, &failedFile);
}

bool prepareWindow(MainWindow& window, const StartOptions& options, QString* error)
{
    if (options.makesFile()) {
        window.forgetSession();
    } else {
        window.restoreWindowState();
        window.offerRecovery();
    }
    QString failedFile;
    const bool applied = applyOptions(window, options, error, &failedFile);
    // A file that does not open is the window's to show, a picture of the window too: started
    // from a file manager (`slicescope %f`) there is no terminal to read. Any other mistake in
    // the options made for a file (a lesson that does not exist) is the command line's.
    if (!applied && options.makesFile() && failedFile.isEmpty()) return false;
    if (!applied) {
        // The window says what went wrong, until the user has done something else, and does
        // not let the default workspace pass for the file's data.
        window.messages()->showStartError(
            QObject::tr("SliceScope could not start as asked: %1").arg(*error), failedFile);
    }
    window.presentation()->setOn(options.presentation);
    return true;
}

bool showSettled(MainWindow& window, int timeoutMs, QString* error)
{
    // One size on every machine, whatever the screen (offscreen's is 800 x 800), so that
    // screenshots are alike wherever they are made.
    window.resize(kScreenshotSize);
    window.show();
    QElapsedTimer clock;
    clock.start();
    // A comparison's diagnosis arrives after the evaluation it diagnoses.
    const CompareMode* compare = window.findChild<CompareMode*>();
    auto settled = [&] { return window.isSettled() && (!compare || compare->isSettled()); };
    while (!settled() && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QObject::connect(&window, &MainWindow::settled, &loop, &QEventLoop::quit);
        QTimer::singleShot(100, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!settled()) {
        *error = QObject::tr("the evaluation did not finish within %1 s").arg(timeoutMs / 1000);
        return false;
    }
    QCoreApplication::processEvents(); // let the views paint what they just received
    return true;
}

bool saveScreenshot(MainWindow& window, const QString& path, int timeoutMs, QString* error)
{
    if (!showSettled(window, timeoutMs, error)) return false;
    return PictureWriter::writePng(window.grab().toImage(), path, error);
}

namespace {

/// The options, shared by the answer to --help and by the run itself.
struct Parser
{
    QCommandLineParser parser;
    QCommandLineOption help = parser.addHelpOption();
    QCommandLineOption version = parser.addVersionOption();
    QCommandLineOption shape{QStringLiteral("shape"),
                             QObject::tr("Shape of the input, e.g. 5,6 or \"5 6\"."),
                             QObject::tr("S")};
    QCommandLineOption dtype{QStringLiteral("dtype"),
                             QObject::tr("Element type of the input (int32, float32, ...)."),
                             QObject::tr("D")};
    QCommandLineOption expr{QStringLiteral("expr"),
                            QObject::tr("A slice expression, e.g. 'x[1:, ::-1]'."),
                            QObject::tr("EXPR")};
    QCommandLineOption lesson{QStringLiteral("lesson"),
                              QObject::tr("Open a built-in lesson by name."), QObject::tr("NAME")};
    QCommandLineOption exercise{QStringLiteral("exercise"),
                                QObject::tr("Open the exercises at this one (by name)."),
                                QObject::tr("NAME")};
    QCommandLineOption compare{
        QStringLiteral("compare"),
        QObject::tr("Compare the output with an actual one (.npy) and diagnose the difference."),
        QObject::tr("FILE.npy")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QObject::tr("Wait for the evaluation, save the window as PNG and exit."),
        QObject::tr("FILE.png")};
    QCommandLineOption exportImage{
        QStringLiteral("export-image"),
        QObject::tr("Wait for the evaluation, save a view (--view) as PNG, SVG or PDF (by the "
                    "suffix; SVG and PDF are vector) and exit."),
        QObject::tr("FILE")};
    QCommandLineOption exportAnimation{
        QStringLiteral("export-animation"),
        QObject::tr("Wait for the evaluation, save the view's (--view) selected cells lighting up "
                    "in read order as an animated PNG (FILE.png), or as numbered frames into a "
                    "directory (DIR/), and exit."),
        QObject::tr("FILE")};
    QCommandLineOption view{QStringLiteral("view"),
                            QObject::tr("What --export-image or --export-animation saves: %1. "
                                        "Default: window for an image, input for an animation.")
                                .arg(ImageExporter::viewNameHelp()),
                            QObject::tr("VIEW")};
    QCommandLineOption scale{
        QStringLiteral("scale"),
        QObject::tr("Pixels per screen pixel of an exported PNG, 1 to %1 (default 1).")
            .arg(PictureWriter::kMaxScale),
        QObject::tr("N")};
    QCommandLineOption speed{QStringLiteral("speed"),
                             QObject::tr("Milliseconds per step of --export-animation, %1 to %2 "
                                         "(default %3).")
                                 .arg(ReadOrderAnimation::kMinStepMs)
                                 .arg(ReadOrderAnimation::kMaxStepMs)
                                 .arg(ReadOrderAnimation::kDefaultStepMs),
                             QObject::tr("MS")};
    QCommandLineOption presentation{
        QStringLiteral("presentation"),
        QObject::tr("Start in presentation mode (View > Presentation): large type, no docks.")};
    QCommandLineOption maxBytes{
        QStringLiteral("max-bytes"),
        QObject::tr("The most memory one evaluation may take, in bytes (default: the memory "
                    "available, as slicescope-cli's --max-bytes)."),
        QObject::tr("N")};
    QCommandLineOption automation{
        QStringLiteral("automation"),
        QObject::tr("Read JSON Lines commands on standard input and answer each on standard output "
                    "(for GUI-driven tests; see ui/README.md).")};

    Parser()
    {
        parser.setApplicationDescription(
            QObject::tr("See what tensor indexing does: type a tensor and a slice expression and "
                        "watch every selected element light up, step by step."));
        parser.addOptions({shape, dtype, expr, lesson, screenshot, automation});
        parser.addOptions({exercise, maxBytes, compare});
        parser.addOptions({exportImage, exportAnimation, view, scale, speed, presentation});
        parser.addPositionalArgument(
            QStringLiteral("FILE"),
            QObject::tr("A NumPy .npy file (the input), a saved workspace (.json) or a model file "
                        "(.onnx, .tflite, .pb, .pbtxt, or a SavedModel's directory: listed in the "
                        "Model dock)."),
            QStringLiteral("[FILE]"));
    }

    /// Prints the help or the version if asked for; returns whether it did.
    bool answered()
    {
        // Qt's own options are listed by process() alone, which prints them and exits.
        if (parser.isSet(QStringLiteral("help-all"))) parser.process(*QCoreApplication::instance());
        if (parser.isSet(help)) {
            printTo(stdout, parser.helpText());
            return true;
        }
        if (parser.isSet(version)) {
            printTo(stdout,
                    QStringLiteral("slicescope %1\n").arg(QCoreApplication::applicationVersion()));
            return true;
        }
        return false;
    }
};

} // namespace

namespace {

/// Whether one of `names` is an argument, before a "--" that ends the options.
bool givesOption(int argc, char** argv, std::initializer_list<std::string_view> names)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") break;
        if (std::find(names.begin(), names.end(), arg) != names.end()) return true;
    }
    return false;
}

} // namespace

bool asksForHelpOrVersion(int argc, char** argv)
{
    return givesOption(argc, argv, {"-h", "-?", "--help", "--help-all", "-v", "--version"});
}

bool asksForQtOptions(int argc, char** argv)
{
    return givesOption(argc, argv, {"--help-all"});
}

bool asksForAutomation(int argc, char** argv)
{
    return givesOption(argc, argv, {"--automation", "-automation"});
}

int answerHelpOrVersion(const QCoreApplication& app)
{
    Parser p;
    // An option it does not know does not matter to the help.
    p.parser.parse(app.arguments());
    return p.answered() ? 0 : 2;
}

/// The export options, checked before any window exists: a mistake is a usage error (2).
static bool readExportOptions(const Parser& p, StartOptions* options)
{
    const auto usage = [](const QString& text) {
        printTo(stderr, QStringLiteral("slicescope: %1\n").arg(text));
        return false;
    };
    const QCommandLineParser& args = p.parser;
    options->exportImage = args.value(p.exportImage);
    options->exportAnimation = args.value(p.exportAnimation);
    options->presentation = args.isSet(p.presentation);
    // Given at all, not "given a name": an empty name is a usage error below, not a plain start
    // that never exits.
    const bool image = args.isSet(p.exportImage);
    const bool animation = args.isSet(p.exportAnimation);
    if (int(image) + int(animation) + int(!options->screenshot.isEmpty()) > 1)
        return usage(QObject::tr("give one of --screenshot, --export-image, --export-animation"));
    for (const QCommandLineOption* option : {&p.view, &p.scale, &p.speed})
        if (args.isSet(*option) && !image && !animation)
            return usage(QObject::tr("--%1 goes with --export-image or --export-animation")
                             .arg(option->names().front()));
    // Each goes with one kind of export only: the other would ignore it without a word.
    if (image && args.isSet(p.speed))
        return usage(QObject::tr("--speed goes with --export-animation (a picture has no speed)"));
    if (animation && args.isSet(p.scale))
        return usage(
            QObject::tr("--scale goes with --export-image (an animation is drawn at scale 1)"));
    options->view = args.isSet(p.view) ? args.value(p.view)
                    : image            ? QStringLiteral("window")
                                       : QStringLiteral("input");
    if (!ImageExporter::isViewName(options->view))
        return usage(QObject::tr("--view %1 is not one of %2")
                         .arg(options->view, ImageExporter::viewNameHelp()));
    if (image && !PictureWriter::formatOf(options->exportImage))
        return usage(QObject::tr("--export-image %1: the suffix must be %2")
                         .arg(options->exportImage, PictureWriter::formatList()));
    if (animation && !ReadOrderAnimation::isAnimationPath(options->exportAnimation))
        return usage(QObject::tr("--export-animation %1: give FILE.png (or .apng) for an "
                                 "animated PNG, or DIR/ for numbered frames")
                         .arg(options->exportAnimation));
    if (args.isSet(p.scale)) {
        bool ok = false;
        options->scale = args.value(p.scale).toDouble(&ok);
        if (!ok || !(options->scale >= 1.0 && options->scale <= PictureWriter::kMaxScale))
            return usage(QObject::tr("--scale %1 is not a number from 1 to %2")
                             .arg(args.value(p.scale))
                             .arg(PictureWriter::kMaxScale));
    }
    options->speedMs = ReadOrderAnimation::kDefaultStepMs;
    if (args.isSet(p.speed)) {
        bool ok = false;
        options->speedMs = args.value(p.speed).toInt(&ok);
        if (!ok || options->speedMs < ReadOrderAnimation::kMinStepMs ||
            options->speedMs > ReadOrderAnimation::kMaxStepMs)
            return usage(QObject::tr("--speed %1 is not a whole number of milliseconds from %2 "
                                     "to %3")
                             .arg(args.value(p.speed))
                             .arg(ReadOrderAnimation::kMinStepMs)
                             .arg(ReadOrderAnimation::kMaxStepMs));
    }
    return true;
}

int runGui(QApplication& app)
{
    Parser p;
    if (!p.parser.parse(app.arguments())) {
        printTo(stderr, p.parser.errorText() + u'\n');
        return 2;
    }
    if (p.answered()) return 0;
    if (p.parser.positionalArguments().size() > 1) {
        printTo(stderr, QObject::tr("Give at most one file.\n"));
        return 2;
    }

    StartOptions options{p.parser.positionalArguments().value(0),
                         p.parser.value(p.shape),
                         p.parser.value(p.dtype),
                         p.parser.value(p.expr),
                         p.parser.value(p.lesson),
                         p.parser.value(p.screenshot)};
    options.exercise = p.parser.value(p.exercise);
    options.compare = p.parser.value(p.compare);
    if (!readExportOptions(p, &options)) return 2;
    qlonglong maxBytes = 0;
    if (p.parser.isSet(p.maxBytes)) {
        bool ok = false;
        maxBytes = p.parser.value(p.maxBytes).toLongLong(&ok);
        if (!ok || maxBytes < 1) {
            printTo(stderr, QStringLiteral("slicescope: --max-bytes %1 is not a whole number of "
                                           "bytes from 1\n")
                                .arg(p.parser.value(p.maxBytes)));
            return 2;
        }
    }
    // Before the window exists: the offscreen platform warns from the first layout on.
    if (p.parser.isSet(p.automation)) sendQtMessagesToLog(automationLogPath());
    // Before anything draws, and before the workbench's own pool takes what is left.
    if (keepQtDrawingThreads() == 0) {
        printTo(stderr, QObject::tr("slicescope: the system lets this process start no thread (a "
                                    "process-count limit); the window cannot be drawn without "
                                    "one\n"));
        return 1;
    }
    // Before the first QSettings, which reads its files as it is made.
    const QStringList settingsProblems = checkSettingsFiles();
    applyTheme(app, Theme::Light);
    MainWindow window;
    // Before prepareWindow: its first evaluation is already under the limit.
    if (maxBytes > 0) window.engine()->setLimits(withMaxBytes(window.engine()->limits(), maxBytes));
    QString error;
    if (!prepareWindow(window, options, &error)) {
        printTo(stderr, QStringLiteral("slicescope: %1\n").arg(error));
        return 2;
    }
    for (const QString& problem : settingsProblems)
        window.messages()->showNotice(problem);
    // A file given that did not open shows in the window, a picture of it too, but a picture
    // without the file's data must not pass for one of it: the status is 1, as slicescope-cli's
    // for an input it could not read. Asked once the window has settled: a model file is read
    // after the window is up.
    const auto fileOpened = [&window, &error] {
        error = window.messages()->fileStartError();
        return error.isEmpty();
    };
    if (!options.exportImage.isEmpty() || !options.exportAnimation.isEmpty()) {
        ImageExporter exporter(window);
        const bool done =
            showSettled(window, 60000, &error) && fileOpened() &&
            (options.exportImage.isEmpty()
                 ? exporter.exportAnimation(options.view, options.exportAnimation, options.speedMs,
                                            &error)
                 : exporter.exportImage(options.view, options.exportImage, options.scale, &error));
        if (!done) {
            printTo(stderr, QStringLiteral("slicescope: nothing exported: %1\n").arg(error));
            return 1;
        }
        return 0;
    }
    if (!options.screenshot.isEmpty()) {
        if (!saveScreenshot(window, options.screenshot, 60000, &error)) {
            printTo(stderr, QStringLiteral("slicescope: no screenshot: %1\n").arg(error));
            return 1;
        }
        if (fileOpened()) return 0;
        printTo(stderr,
                QStringLiteral("slicescope: %1 (the screenshot shows the window saying so)\n")
                    .arg(error));
        return 1;
    }
    if (!error.isEmpty()) printTo(stderr, QStringLiteral("slicescope: %1\n").arg(error));
    window.show();
    if (p.parser.isSet(p.automation)) {
        auto* channel = new Automation(window, &window);
        channel->attachToStandardStreams();
        // exit(), not quit(): a test that ends its input must not meet a dialog.
        QObject::connect(
            channel, &Automation::finished, &app, [] { QCoreApplication::exit(0); },
            Qt::QueuedConnection);
    }
    return app.exec();
}

} // namespace ss::ui
