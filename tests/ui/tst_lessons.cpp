// SPDX-License-Identifier: GPL-3.0-or-later
// Every built-in lesson opens and shows the result its file says TensorFlow gives (the true
// result, not the one the seed docs print), and leaves a screenshot for people to look at.
#include "ui/model/lessons.h"
#include "ui/model/modelnodetable.h"
#include "ui/views/palette.h"
#include "ui/views/tensorview.h"
#include "ui/workbench/commandline.h"
#include "ui/workbench/comparemode.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/modeldock.h"
#include "ui/workbench/resultpresenter.h"
#include "workbench_testing.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <map>

using namespace ss;
using namespace ss::ui;
using ss::testing::waitSettled;

class TestLessons : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyLessonFileReads();
    void lessonShowsTheTrueResult_data();
    void lessonShowsTheTrueResult();
    void darkThemeScreenshots_data();
    void darkThemeScreenshots();
    void firstStartOpensTheFirstLesson();
    void galleryAndNextLessonOpenLessons();
    void lessonFacesStayWithTheirLesson();
    void lessonFacesReachViewsThatComeLater();
    void startOptions_data();
    void startOptions();
    void exprKeepsAnOpThatReadsASubscript();
    void screenshotWaitsForTheResult();
    void helpAndVersionNeedNoDisplay_data();
    void helpAndVersionNeedNoDisplay();
    void firstWindowFitsTheScreen();
    void rawTableShowsEveryEntry();
    void convertersAreDiagnosed_data();
    void convertersAreDiagnosed();

private:
    QDir m_shots;
};

void TestLessons::initTestCase()
{
    ss::testing::useCleanTestEnvironment();
    applyTheme(*qApp, Theme::Light); // as the application does: sizes and screenshots match it
    // Beside the test executable, in the build folder: pictures for people, never in the source
    // tree.
    m_shots = QDir(QCoreApplication::applicationDirPath() + QStringLiteral("/lesson-screenshots"));
    QVERIFY(m_shots.mkpath(QStringLiteral(".")));
}

// A screenshot is the window as drawn: its size at the screen's scale, more than a blank
// background, and dark or light as the theme is (the mean luminance of its pixels).
static void checkScreenshot(const QString& path, const QWidget& window, bool dark)
{
    const QImage shot(path);
    QVERIFY2(!shot.isNull(), qPrintable(path));
    QCOMPARE(shot.size(), window.size() * window.devicePixelRatio());
    const QImage small = shot.scaled(160, 100).convertToFormat(QImage::Format_RGB32);
    QSet<QRgb> colours;
    double luminance = 0;
    for (int y = 0; y < small.height(); ++y)
        for (int x = 0; x < small.width(); ++x) {
            const QRgb c = small.pixel(x, y);
            colours.insert(c);
            luminance += 0.2126 * qRed(c) + 0.7152 * qGreen(c) + 0.0722 * qBlue(c);
        }
    luminance /= 255.0 * small.width() * small.height();
    QVERIFY2(colours.size() > 50, qPrintable(QStringLiteral("%1 colours").arg(colours.size())));
    if (dark)
        QVERIFY2(luminance < 0.4, qPrintable(QString::number(luminance)));
    else
        QVERIFY2(luminance > 0.6, qPrintable(QString::number(luminance)));
}

void TestLessons::everyLessonFileReads()
{
    const QStringList files = QDir(QStringLiteral(":/lessons"))
                                  .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 30);
    // A file that does not read is left out of lessons() with a warning: the counts must agree.
    QCOMPARE(int(lessons().size()), int(files.size()));
    QCOMPARE(lessons().front().name, QStringLiteral("walkthrough"));
    QStringList names;
    for (const Lesson& lesson : lessons()) {
        QVERIFY2(!names.contains(lesson.name), qPrintable(lesson.name));
        names << lesson.name;
        QVERIFY(!lesson.workspace.title.isEmpty());
        QVERIFY(!lesson.group.isEmpty());
    }
    // "What converters got wrong": at least six public reports, each with its model file.
    int converterLessons = 0;
    for (const Lesson& lesson : lessons()) {
        if (lesson.group != QLatin1String("What converters got wrong")) continue;
        ++converterLessons;
        QVERIFY2(!lesson.model.isEmpty() && !lesson.node.isEmpty(), qPrintable(lesson.name));
        QVERIFY2(QFile::exists(QStringLiteral(":/models/") + lesson.model),
                 qPrintable(lesson.model));
        // The explanation names the report it rebuilds ("tensorflow-onnx issue 1849").
        static const QRegularExpression report(QStringLiteral("[a-z]+ issue \\d+"));
        QVERIFY2(report.match(lesson.workspace.explanation).hasMatch(), qPrintable(lesson.name));
    }
    QVERIFY(converterLessons >= 6);
}

void TestLessons::lessonShowsTheTrueResult_data()
{
    QTest::addColumn<QString>("name");
    for (const Lesson& lesson : lessons())
        QTest::newRow(qPrintable(lesson.name)) << lesson.name;
}

void TestLessons::lessonShowsTheTrueResult()
{
    QFETCH(QString, name);
    const Lesson* lesson = findLesson(name);
    QVERIFY(lesson);
    MainWindow w;
    if (!lesson->unavailable.isEmpty()) {
        // Only a lesson whose op this build lacks may be unavailable, and it cannot be opened.
        static const QRegularExpression opName(QStringLiteral("'([a-z_]+)'"));
        const QString op = opName.match(lesson->unavailable).captured(1);
        QVERIFY2(!op.isEmpty() && !findOp(op.toStdString()), qPrintable(lesson->unavailable));
        QVERIFY(!w.openLesson(name));
        return;
    }
    QVERIFY(w.openLesson(name));
    w.show();
    QVERIFY(waitSettled(w, 60000));
    QCOMPARE(w.currentLesson(), name);
    QVERIFY(w.findChild<QWidget*>(QStringLiteral("lessonBanner"))->isVisible());
    if (!lesson->model.isEmpty()) {
        // A converter lesson lists its model in the Model dock with its node selected, and the
        // workbench shows exactly that node's request (what activating the row would open).
        ModelDock* dock = w.docks()->model();
        QVERIFY2(dock->isVisible(), qPrintable(dock->message()));
        QCOMPARE(dock->modelPath(), QStringLiteral(":/models/") + lesson->model);
        const int row = dock->table()->rowOf(lesson->node);
        QVERIFY(row >= 0);
        QCOMPARE(dock->filtered()->mapToSource(dock->view()->currentIndex()).row(), row);
        const auto nodeWs = nodeWorkspace(dock->table()->file().nodes[std::size_t(row)],
                                           dock->modelPath());
        QVERIFY(nodeWs);
        QCOMPARE(w.workspace().op, nodeWs->op);
        QVERIFY(w.workspace().attrs == nodeWs->attrs);
        QCOMPARE(w.workspace().inputs.size(), nodeWs->inputs.size());
        for (std::size_t i = 0; i < nodeWs->inputs.size(); ++i)
            QVERIFY(w.workspace().inputs[i] == nodeWs->inputs[i]);
    }
    const auto eval = w.lastEvaluation();
    const Expectation& expect = lesson->expect;
    if (!expect.errorCode.empty()) {
        QVERIFY(!eval->ok);
        QCOMPARE(std::string(errorCodeName(eval->code)), expect.errorCode);
    } else {
        QVERIFY2(eval->ok, qPrintable(eval->message));
        if (!expect.outputs.empty()) {
            QCOMPARE(eval->outputs.size(), expect.outputs.size());
            for (std::size_t k = 0; k < expect.outputs.size(); ++k) {
                QCOMPARE(eval->outputs[k].shape(), expect.outputs[k].shape());
                QVERIFY2(eval->outputs[k].identical(expect.outputs[k]),
                         qPrintable(QStringLiteral("output %1").arg(k)));
                // The view shows what the engine returned.
                QVERIFY(w.outputView(int(k))->model()->tensor().identical(expect.outputs[k]));
            }
        }
        if (!expect.shapes.empty()) {
            QCOMPARE(eval->outputs.size(), expect.shapes.size());
            for (std::size_t k = 0; k < expect.shapes.size(); ++k)
                QCOMPARE(eval->outputs[k].shape(), expect.shapes[k]);
        }
        QVERIFY(!eval->steps.empty());
    }
    // Every face hint names a view, which draws those dimensions as rows and columns.
    for (const auto& [title, dims] : lesson->faces) {
        std::vector<TensorView*> views;
        for (int k = 0; k < w.outputViewCount(); ++k)
            views.push_back(w.outputView(k));
        for (int s = 0; w.inputView(s); ++s)
            views.push_back(w.inputView(s));
        const auto view = std::find_if(views.begin(), views.end(), [&title = title](TensorView* v) {
            return v->title() == title;
        });
        QVERIFY2(view != views.end(), qPrintable(title));
        QCOMPARE((*view)->faceRowDim(), dims.first);
        QCOMPARE((*view)->faceColDim(), dims.second);
    }
    // As `slicescope --lesson NAME --screenshot FILE.png` makes it, for people to look at.
    QString error;
    const QString shot = m_shots.filePath(name + QStringLiteral(".png"));
    QFile::remove(shot);
    QVERIFY2(saveScreenshot(w, shot, 60000, &error), qPrintable(error));
    checkScreenshot(shot, w, false);
}

void TestLessons::darkThemeScreenshots_data()
{
    QTest::addColumn<QString>("name");
    for (const char* name : {"walkthrough", "raw-negative-stride", "erratum-dynamic-stitch",
                             "paddle-case-1", "slice-begin-and-size"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestLessons::darkThemeScreenshots()
{
    QFETCH(QString, name);
    MainWindow w;
    auto* dark = w.findChild<QAction*>(QStringLiteral("actionDarkTheme"));
    dark->setChecked(true);
    QVERIFY(isDark(QApplication::palette()));
    QVERIFY(w.openLesson(name));
    QString error;
    const QString shot = m_shots.filePath(name + QStringLiteral("-dark.png"));
    QFile::remove(shot);
    const bool saved = saveScreenshot(w, shot, 60000, &error);
    dark->setChecked(false);
    QVERIFY2(saved, qPrintable(error));
    QVERIFY(!isDark(QApplication::palette()));
    checkScreenshot(shot, w, true);
}

void TestLessons::firstStartOpensTheFirstLesson()
{
    QSettings().clear();
    {
        MainWindow w;
        QString error;
        QVERIFY(applyStartOptions(w, {}, &error));
        QCOMPARE(w.currentLesson(), QStringLiteral("walkthrough"));
    }
    // Later starts open the plain workbench.
    MainWindow w;
    QString error;
    QVERIFY(applyStartOptions(w, {}, &error));
    QVERIFY(w.currentLesson().isEmpty());
    QCOMPARE(w.workspace(), Workspace{});
}

void TestLessons::lessonFacesStayWithTheirLesson()
{
    MainWindow w;
    w.show();
    const auto faces = [&] {
        return std::pair(w.inputView(0)->faceRowDim(), w.inputView(0)->faceColDim());
    };
    // The image lesson draws H x W; the next rank-4 lesson names no faces and gets the default.
    QVERIFY(w.openLesson(QStringLiteral("erratum-space-to-batch-values")));
    QVERIFY(waitSettled(w));
    QCOMPARE(faces(), std::pair(1, 2));
    QVERIFY(w.openLesson(QStringLiteral("erratum-space-to-batch-brackets")));
    QVERIFY(waitSettled(w));
    QCOMPARE(faces(), std::pair(2, 3));
    // Another workspace before the lesson's result: the lesson's faces are not put on it.
    QVERIFY(w.openLesson(QStringLiteral("erratum-space-to-batch-values")));
    w.setWorkspace(ss::testing::getitemWorkspace({1, 4, 4, 1}, QStringLiteral("x[...]")),
                   QStringLiteral("test"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.workspace().op, std::string("getitem"));
    QCOMPARE(faces(), std::pair(2, 3));
}

void TestLessons::lessonFacesReachViewsThatComeLater()
{
    MainWindow w;
    w.show();
    // dynamic_partition into 8 outputs of shape (1, 2, 3): after the hand-over the output views
    // come a few per pass of the event loop, the last ones passes later.
    Workspace ws = exampleWorkspace(*findOp("dynamic_partition"));
    InputSource& data = ws.inputs[0].front();
    data.shape = {8, 2, 3};
    data.fill = FillKind::Arange;
    ws.inputs[1] = {dataSource(Tensor::fromInts(DType::Int32, {8}, {0, 1, 2, 3, 4, 5, 6, 7}))};
    ws.attrs = {{"num_partitions", Attr(std::int64_t(8))}};
    auto* result = w.findChild<ResultPresenter*>();
    QVERIFY(result);
    result->setPendingFaces(ws, {{QStringLiteral("output 7"), {0, 2}}});
    w.setWorkspace(ws, QStringLiteral("test"));
    QVERIFY(waitSettled(w));
    QCOMPARE(w.outputViewCount(), 8);
    const auto faces = [&](int k) {
        return std::pair(w.outputView(k)->faceRowDim(), w.outputView(k)->faceColDim());
    };
    QCOMPARE(w.outputView(7)->title(), QStringLiteral("output 7"));
    QCOMPARE(faces(7), std::pair(0, 2));
    QCOMPARE(faces(0), std::pair(1, 2));
}

void TestLessons::galleryAndNextLessonOpenLessons()
{
    MainWindow w;
    w.show();
    auto* list = w.findChild<QListWidget*>(QStringLiteral("lessonList"));
    QVERIFY(list);
    QListWidgetItem* second = nullptr;
    for (int row = 0; row < list->count() && !second; ++row)
        if (list->item(row)->text().startsWith(QStringLiteral("2. "))) second = list->item(row);
    QVERIFY(second);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(second).center());
    QVERIFY(waitSettled(w));
    QCOMPARE(w.currentLesson(), lessons()[1].name);
    QTest::mouseClick(w.findChild<QPushButton*>(QStringLiteral("nextLesson")), Qt::LeftButton);
    QVERIFY(waitSettled(w));
    QCOMPARE(w.currentLesson(), lessons()[2].name);
    // Opening a lesson is no undo step: the history starts afresh, clean, from the lesson.
    QVERIFY(!w.undoStack()->canUndo());
    QVERIFY(w.undoStack()->isClean());
}

void TestLessons::startOptions_data()
{
    QTest::addColumn<QString>("lesson");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<QString>("expr");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("expected"); // the output shape, or a word of the error
    QTest::newRow("lesson") << "clamping"
                            << ""
                            << ""
                            << "" << true << "(3,)";
    QTest::newRow("shape and expression") << ""
                                          << "5,6"
                                          << "float32"
                                          << "x[2, ::-1]" << true << "(6,)";
    QTest::newRow("expression on a lesson") << "raw-one-row"
                                            << ""
                                            << ""
                                            << "x[1]" << true << "(2, 3)";
    QTest::newRow("unknown lesson") << "no-such-lesson"
                                    << ""
                                    << ""
                                    << "" << false << "walkthrough";
    QTest::newRow("bad shape") << ""
                               << "5,-6"
                               << ""
                               << "" << false << "--shape";
    QTest::newRow("bad dtype") << ""
                               << ""
                               << "complex32"
                               << "" << false << "--dtype";
}

void TestLessons::startOptions()
{
    QFETCH(QString, lesson);
    QFETCH(QString, shape);
    QFETCH(QString, dtype);
    QFETCH(QString, expr);
    QFETCH(bool, ok);
    QFETCH(QString, expected);
    MainWindow w;
    QString error;
    StartOptions options;
    options.lesson = lesson;
    options.shape = shape;
    options.dtype = dtype;
    options.expr = expr;
    QCOMPARE(applyStartOptions(w, options, &error), ok);
    if (!ok) {
        QVERIFY2(error.contains(expected), qPrintable(error));
        return;
    }
    w.show();
    QVERIFY(waitSettled(w));
    QVERIFY2(w.lastEvaluation()->ok, qPrintable(w.lastEvaluation()->message));
    QCOMPARE(shapeText(w.lastEvaluation()->outputs.front().shape()), expected);
    if (!dtype.isEmpty()) QCOMPARE(dtypeText(w.lastEvaluation()->outputs.front().dtype()), dtype);
}

// --expr writes the subscript of an op that reads one (OpDef::notation): a compare lesson
// stays a comparison; a lesson of another op gives way to getitem.
void TestLessons::exprKeepsAnOpThatReadsASubscript()
{
    for (const auto& [lesson, op] : {std::pair{"frameworks-reverse-past-start", "compare"},
                                     std::pair{"changed-gather-batch-dims", "getitem"}}) {
        MainWindow w;
        QString error;
        StartOptions options;
        options.lesson = QString::fromLatin1(lesson);
        options.expr = QStringLiteral("x[::2]");
        QVERIFY2(applyStartOptions(w, options, &error), qPrintable(error));
        const Workspace& ws = w.workspace();
        QCOMPARE(QString::fromStdString(ws.op), QString::fromLatin1(op));
        QCOMPARE(ws.attrs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(ws.attrs.at("expr").toString()), options.expr);
    }
}

void TestLessons::screenshotWaitsForTheResult()
{
    QTemporaryDir dir;
    MainWindow w;
    QString error;
    StartOptions options;
    options.shape = QStringLiteral("2000, 2000");
    options.expr = QStringLiteral("x[::-3, 5:]");
    QVERIFY(applyStartOptions(w, options, &error));
    const QString path = dir.filePath(QStringLiteral("shot.png"));
    QVERIFY2(saveScreenshot(w, path, 60000, &error), qPrintable(error));
    // Saved only once the newest result was on screen.
    QVERIFY(w.isSettled());
    QCOMPARE(w.lastEvaluation()->outputs.front().shape(), (Shape{667, 1995}));
    const QImage image(path);
    QCOMPARE(image.size(), w.size() * w.devicePixelRatio());
}

void TestLessons::helpAndVersionNeedNoDisplay_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("printed");
    QTest::newRow("--version") << "--version" << QStringLiteral("slicescope " SLICESCOPE_VERSION);
    QTest::newRow("-v") << "-v" << QStringLiteral("slicescope " SLICESCOPE_VERSION);
    QTest::newRow("--help") << "--help"
                            << "--screenshot <FILE.png>";
    QTest::newRow("-h after other options") << "--lesson=clamping -h"
                                            << "--lesson <NAME>";
    // With Qt's own options, as slicescope(1) says (it printed --help's text alone).
    QTest::newRow("--help-all") << "--help-all"
                                << "-platform <platformName[:options]>";
    QTest::newRow("--help-all, our options too") << "--help-all"
                                                 << "--screenshot <FILE.png>";
}

void TestLessons::helpAndVersionNeedNoDisplay()
{
    // Packaging checks and man pages run these where there is no display: the X11 plugin with
    // no DISPLAY would abort a GUI application.
    QFETCH(QString, option);
    QFETCH(QString, printed);
    QProcess slicescope;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    slicescope.setProcessEnvironment(env);
    slicescope.start(QStringLiteral(SLICESCOPE_GUI_EXE), option.split(u' '));
    QVERIFY(slicescope.waitForFinished(30000));
    const QString out = QString::fromUtf8(slicescope.readAllStandardOutput());
    QCOMPARE(slicescope.exitStatus(), QProcess::NormalExit);
    QVERIFY2(slicescope.exitCode() == 0, qPrintable(slicescope.readAllStandardError()));
    QVERIFY2(out.contains(printed), qPrintable(out));
}

void TestLessons::firstWindowFitsTheScreen()
{
    for (const QString& lesson : {QString(), QStringLiteral("walkthrough")}) {
        MainWindow w;
        if (!lesson.isEmpty()) QVERIFY(w.openLesson(lesson));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect available = w.screen()->availableGeometry();
        QVERIFY2(w.width() <= available.width() && w.height() <= available.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(w.width())
                                .arg(w.height())
                                .arg(available.width())
                                .arg(available.height())));
    }
}

void TestLessons::rawTableShowsEveryEntry()
{
    // The walk-through's six entries are in view without scrolling, in the screenshot the
    // command line makes of it.
    QTemporaryDir dir;
    MainWindow w;
    QString error;
    StartOptions options;
    options.lesson = QStringLiteral("walkthrough");
    QVERIFY(applyStartOptions(w, options, &error));
    QVERIFY2(saveScreenshot(w, dir.filePath(QStringLiteral("shot.png")), 60000, &error),
             qPrintable(error));
    auto* table = w.findChild<QTableView*>(QStringLiteral("rawArgsTable"));
    QVERIFY(table);
    QCOMPARE(table->model()->rowCount(), 6);
    for (int row = 0; row < 6; ++row) {
        const QRect cell = table->visualRect(table->model()->index(row, 0));
        QVERIFY2(table->viewport()->rect().contains(cell),
                 qPrintable(QStringLiteral("entry %1 at %2..%3 of %4")
                                .arg(row)
                                .arg(cell.top())
                                .arg(cell.bottom())
                                .arg(table->viewport()->height())));
    }
}

// Every "What converters got wrong" lesson holds the wrong output of its report; opening it
// compares that output with the workbench's result and shows SliceScope's own diagnosis.
void TestLessons::convertersAreDiagnosed_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("sentence"); ///< "" where it names specs only SliceScope writes
    const std::map<QString, std::pair<QString, QString>> expected{
        {QStringLiteral("converter-tf2onnx-unsqueeze"),
         {QStringLiteral("new_axis_moved"),
          QStringLiteral("the new axis landed at position 3, not 1")}},
        {QStringLiteral("converter-onnxruntime-int-max-end"),
         {QStringLiteral("other_spec"),
          QStringLiteral("the runtime read x[::-1], a reverse of axis 0")}},
        {QStringLiteral("converter-coremltools-strides"),
         {QStringLiteral("strides_dropped"), QStringLiteral("strides were ignored on axis 1")}},
        {QStringLiteral("converter-tensorflow-int64-end"),
         {QStringLiteral("end_off_by_one"),
          QStringLiteral("the runtime read x[1:]; you asked for x[1:3]: its end is one higher, so "
                         "it reads one element more")}},
        {QStringLiteral("converter-tensorflow-shrink-minus-one"),
         {QStringLiteral("other_spec"), QStringLiteral("the actual output holds no elements")}},
        {QStringLiteral("converter-tf2onnx-masks-nine"), {QStringLiteral("other_spec"), {}}},
    };
    int rows = 0;
    for (const Lesson& lesson : lessons()) {
        if (lesson.group != QStringLiteral("What converters got wrong")) continue;
        const auto it = expected.find(lesson.name);
        QVERIFY2(it != expected.end(),
                 qPrintable(lesson.name + QStringLiteral(" is not in the table")));
        QTest::newRow(qPrintable(lesson.name))
            << lesson.name << it->second.first << it->second.second;
        ++rows;
    }
    QCOMPARE(rows, int(expected.size()));
}

void TestLessons::convertersAreDiagnosed()
{
    QFETCH(QString, name);
    QFETCH(QString, kind);
    QFETCH(QString, sentence);
    const Lesson* lesson = findLesson(name);
    QVERIFY(lesson && lesson->actual && !lesson->actualFrom.isEmpty());
    MainWindow w;
    w.show();
    QVERIFY(w.openLesson(name));
    auto* compare = w.findChild<CompareMode*>();
    QVERIFY(QTest::qWaitFor([&] { return w.isSettled() && compare->isSettled(); }, 60000));
    QVERIFY(compare->isActive() && compare->isLessons() && compare->isVisible());
    const Diagnosis* d = compare->diagnosis();
    QVERIFY(d);
    QCOMPARE(QString::fromStdString(std::string(diagnosisClassName(d->kind))), kind);
    if (!sentence.isEmpty()) QCOMPARE(QString::fromStdString(d->sentence), sentence);
    const QString summary = compare->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Compared with the output of ") + lesson->actualFrom),
             qPrintable(summary));
    QVERIFY2(
        summary.contains(
            QStringLiteral("Diagnosis (%1): %2").arg(kind, QString::fromStdString(d->sentence))),
        qPrintable(summary));
    // Another workspace leaves the lesson's comparison.
    w.setWorkspace(ss::testing::getitemWorkspace({4}, QStringLiteral("x[1:]")),
                   QStringLiteral("edit"));
    QVERIFY(QTest::qWaitFor([&] { return w.isSettled() && compare->isSettled(); }, 60000));
    QVERIFY(!compare->isActive() && compare->isHidden());
}

QTEST_MAIN(TestLessons)
#include "tst_lessons.moc"
