// SPDX-License-Identifier: GPL-3.0-or-later
// The --automation channel in process: every command answers once, in order, in the protocol's
// shape; edits go through the widgets and so are evaluated and undone like typed ones; a bad
// command gets an error and the channel carries on.
#include "automation_testing.h"
#include "ui/workbench/mainwindow.h"
#include "workbench_testing.h"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <sys/stat.h>

using namespace ss;
using namespace ss::ui;
using ss::testing::at;
using ss::testing::ints;

namespace {

bool isOk(const Json& answer)
{
    const Json* ok = answer.find("ok");
    return ok && ok->isBool() && ok->toBool();
}

// The string at `path`, or "<missing>" (a failed comparison, not a crash).
std::string stringAt(const Json& answer, std::initializer_list<std::string_view> path)
{
    const Json* value = at(answer, path);
    return value && value->isString() ? value->toString() : std::string("<missing>");
}

std::string errorCode(const Json& answer)
{
    const Json* code = at(answer, {"error", "code"});
    return code && code->isString() ? code->toString() : std::string();
}

// The commands the table of ui/README.md's "### The automation channel" lists, in its order
// ("`undo`, `redo`" gives both).
QStringList readmeCommands()
{
    QFile file(qEnvironmentVariable("SLICESCOPE_SOURCE_DIR") + QStringLiteral("/ui/README.md"));
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QString text = QString::fromUtf8(file.readAll());
    const qsizetype start = text.indexOf(QLatin1String("\n### The automation channel\n"));
    if (start < 0) return {};
    const qsizetype end = text.indexOf(QLatin1String("\n### "), start + 1);
    QStringList commands;
    static const QRegularExpression name(QStringLiteral("`([a-z_]+)`"));
    for (const QString& line : text.mid(start, end - start).split(u'\n')) {
        if (!line.startsWith(QLatin1String("| `"))) continue;
        for (const QRegularExpressionMatch& m : name.globalMatch(line.section(u'|', 1, 1)))
            if (m.captured(1) != QLatin1String("cmd")) commands << m.captured(1); // the header
    }
    return commands;
}

} // namespace

class TestAutomation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { ss::testing::useCleanTestEnvironment(); }
    void lessonStateAndMasks();
    void editsAreEvaluatedAndUndone();
    void inputsAndCells();
    void stepsErrorsAndStale();
    void saveScreenshotAndReopen();
    void badCommandsGetErrorsInOrder();
    void badWaitKeepsTheChannelGoing_data();
    void badWaitKeepsTheChannelGoing();
    void hostilePathsAndShapesAreRefused();
    void quitFinishes();
    void frameworkIsChosenAndReported();
    void badFrameworksAreRefused_data();
    void badFrameworksAreRefused();
    void commandListsAgree();
    void idsAreEchoedAsSent_data();
    void idsAreEchoedAsSent();
};

void TestAutomation::lessonStateAndMasks()
{
    MainWindow w;
    w.show();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    Json a = client.ask(R"({"id": 1, "cmd": "open_lesson", "name": "walkthrough"})");
    QVERIFY2(isOk(a), client.lastLine().constData());
    QCOMPARE(at(a, {"id"})->toInt64(), 1);
    QVERIFY(isOk(client.ask(R"({"id": 2, "cmd": "wait"})")));
    a = client.ask(R"({"id": 3, "cmd": "state", "max_elements": 0, "max_cells": 3})");
    QVERIFY2(isOk(a), client.lastLine().constData());
    QCOMPARE(at(a, {"expr"})->toString(), std::string("x[1, 2:4, None, ..., :-3:-1, :]"));
    QCOMPARE(at(a, {"lesson"})->toString(), std::string("walkthrough"));
    QCOMPARE(ints(at(a, {"outputs", "0", "summary", "shape"})),
             (std::vector<std::int64_t>{2, 1, 5, 5, 2, 5}));
    QVERIFY(!at(a, {"outputs", "0", "tensor"})); // above max_elements: the summary only
    QVERIFY(at(a, {"outputs", "0", "summary", "checksum"})->isString());
    QCOMPARE(at(a, {"masks", "begin_mask"})->toInt64(), 48);
    QCOMPARE(at(a, {"masks", "end_mask"})->toInt64(), 32);
    QCOMPARE(at(a, {"masks", "ellipsis_mask"})->toInt64(), 8);
    QCOMPARE(at(a, {"masks", "new_axis_mask"})->toInt64(), 4);
    QCOMPARE(at(a, {"masks", "shrink_axis_mask"})->toInt64(), 1);
    QVERIFY(at(a, {"error"})->isNull());
    QVERIFY(!at(a, {"stale"})->toBool());
    QVERIFY(at(a, {"settled"})->toBool());
    // The lit input cells in read order: the op reads x[1, 2, ..., 4, 0] first (the reversed
    // range starts at the last index).
    QCOMPARE(at(a, {"inputs", "0", "lit_count"})->toInt64(), 2 * 5 * 5 * 2 * 5);
    QCOMPARE(ints(at(a, {"inputs", "0", "lit", "0"})),
             (std::vector<std::int64_t>{1, 2, 0, 0, 4, 0}));
    QCOMPARE(ints(at(a, {"inputs", "0", "lit", "1"})),
             (std::vector<std::int64_t>{1, 2, 0, 0, 4, 1}));
    QCOMPARE(at(a, {"inputs", "0", "lit"})->toArray().size(), std::size_t(3));
}

void TestAutomation::editsAreEvaluatedAndUndone()
{
    MainWindow w;
    w.setWorkspace(ss::testing::getitemWorkspace({4, 6}, QStringLiteral("x[1:3]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(ss::testing::waitSettled(w));
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    const int steps = w.undoStack()->count();
    QVERIFY(isOk(client.ask(R"({"id": 1, "cmd": "set_expr", "expr": "x[::-2, 5]"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    Json a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(ints(at(a, {"outputs", "0", "tensor", "shape"})), (std::vector<std::int64_t>{2}));
    QCOMPARE(ints(at(a, {"outputs", "0", "tensor", "data"})), (std::vector<std::int64_t>{23, 11}));
    QCOMPARE(at(a, {"undo", "count"})->toInt64(), steps + 1);
    // An attribute of a generic op through its field (the example's perm is [1, 0]).
    QVERIFY(isOk(client.ask(R"({"cmd": "set_op", "op": "transpose"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_attr", "name": "perm", "value": [0, 1]})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(at(a, {"op"})->toString(), std::string("transpose"));
    QCOMPARE(ints(at(a, {"outputs", "0", "summary", "shape"})), (std::vector<std::int64_t>{2, 3}));
    a = client.ask(R"({"cmd": "set_attr", "name": "nonsense", "value": 1})");
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    // Undo walks back through the op switch and the expression.
    QVERIFY(isOk(client.ask(R"({"cmd": "undo"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "undo"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "undo"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(at(a, {"expr"})->toString(), std::string("x[1:3]"));
    QCOMPARE(ints(at(a, {"outputs", "0", "summary", "shape"})), (std::vector<std::int64_t>{2, 6}));
    QVERIFY(isOk(client.ask(R"({"cmd": "redo"})")));
}

void TestAutomation::inputsAndCells()
{
    MainWindow w;
    w.setWorkspace(ss::testing::getitemWorkspace({2, 3}, QStringLiteral("x[1]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(ss::testing::waitSettled(w));
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    QVERIFY(isOk(client.ask(R"({"cmd": "set_shape", "shape": [3, 4]})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_dtype", "dtype": "int64"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    Json a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(at(a, {"outputs", "0", "tensor", "dtype"})->toString(), std::string("int64"));
    QCOMPARE(ints(at(a, {"outputs", "0", "tensor", "data"})),
             (std::vector<std::int64_t>{4, 5, 6, 7}));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_cell", "index": [1, 2], "value": "-9"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(ints(at(a, {"outputs", "0", "tensor", "data"})),
             (std::vector<std::int64_t>{4, 5, -9, 7}));
    a = client.ask(R"({"cmd": "set_cell", "index": [1, 9], "value": "1"})");
    QCOMPARE(errorCode(a), std::string("out_of_range"));
    a = client.ask(R"({"cmd": "set_cell", "index": 0, "value": "abc"})");
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    a = client.ask(R"({"cmd": "set_cell", "index": 0, "value": "abc"})"); // the same again
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_cell", "index": 0, "value": "0"})"))); // unchanged
    a = client.ask(R"({"cmd": "set_literal", "value": "[1, 2]"})");
    QCOMPARE(errorCode(a), std::string("invalid_argument")); // not a literal input
    QVERIFY(isOk(client.ask(R"({"cmd": "set_fill", "fill": "literal"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_literal", "value": [[7, 8], [9, 10]]})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(ints(at(a, {"outputs", "0", "tensor", "data"})), (std::vector<std::int64_t>{9, 10}));
    a = client.ask(R"({"cmd": "set_shape", "shape": "2, 2"})");
    QCOMPARE(errorCode(a), std::string("invalid_argument")); // a literal's shape is its own
    a = client.ask(R"({"cmd": "set_shape", "slot": 3, "shape": "2"})");
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    a = client.ask(R"({"cmd": "set_dtype", "dtype": "complex32"})");
    QCOMPARE(errorCode(a), std::string("bad_request"));
}

void TestAutomation::stepsErrorsAndStale()
{
    MainWindow w;
    w.setWorkspace(ss::testing::getitemWorkspace({5, 6}, QStringLiteral("x[1:3, ::2]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(ss::testing::waitSettled(w));
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    Json a = client.ask(R"({"cmd": "step", "to": "next"})");
    QVERIFY2(isOk(a), client.lastLine().constData());
    QCOMPARE(at(a, {"step"})->toInt64(), 0);
    QVERIFY(!at(a, {"title"})->toString().empty());
    a = client.ask(R"({"cmd": "step", "to": "last"})");
    const std::int64_t last = at(a, {"step"})->toInt64();
    QVERIFY(last > 0);
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(at(a, {"step", "index"})->toInt64(), last);
    QCOMPARE(at(a, {"step", "count"})->toInt64(), last + 1);
    QCOMPARE(errorCode(client.ask(R"({"cmd": "step", "to": 999})")), std::string("out_of_range"));
    QCOMPARE(errorCode(client.ask(R"({"cmd": "step", "to": "sideways"})")),
             std::string("bad_request"));

    QVERIFY(isOk(client.ask(R"({"cmd": "set_expr", "expr": "x[7]"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QVERIFY(at(a, {"stale"})->toBool());
    QCOMPARE(at(a, {"error", "code"})->toString(), std::string("out_of_range"));
    QVERIFY(at(a, {"message"})->toString().find("out_of_range") != std::string::npos);
    QVERIFY(at(a, {"message"})->toString().find('<') == std::string::npos); // no markup
    // The outputs are the last good result's.
    QCOMPARE(ints(at(a, {"outputs", "0", "summary", "shape"})), (std::vector<std::int64_t>{2, 3}));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_expr", "expr": "x[1:"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(at(a, {"error", "code"})->toString(), std::string("parse_error"));
    QCOMPARE(at(a, {"error", "position"})->toInt64(), 4);
}

void TestAutomation::saveScreenshotAndReopen()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow w;
    w.setWorkspace(ss::testing::getitemWorkspace({3, 4}, QStringLiteral("x[::-1]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(ss::testing::waitSettled(w));
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    const QString file = dir.filePath(QStringLiteral("saved.slicescope.json"));
    const QString png = dir.filePath(QStringLiteral("view.png"));
    auto command = [](const char* text, const QString& path) {
        return QByteArray(text).replace("PATH", path.toUtf8());
    };
    QVERIFY(isOk(client.ask(command(R"({"cmd": "save", "path": "PATH"})", file))));
    QVERIFY(QFile::exists(file));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_expr", "expr": "x[0]"})")));
    QVERIFY(isOk(client.ask(command(R"({"cmd": "open_file", "path": "PATH"})", file))));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    Json a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(at(a, {"expr"})->toString(), std::string("x[::-1]"));
    a = client.ask(command(R"({"cmd": "screenshot", "path": "PATH", "view": "output0View"})", png));
    QVERIFY2(isOk(a), client.lastLine().constData());
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), int(at(a, {"width"})->toInt64()));
    a = client.ask(command(R"({"cmd": "open_file", "path": "PATH"})", dir.filePath("none.json")));
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    a = client.ask(command(R"({"cmd": "screenshot", "path": "PATH", "view": "nothing"})", png));
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
}

void TestAutomation::badCommandsGetErrorsInOrder()
{
    MainWindow w;
    w.show();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    // Several lines at once, a wait among them: the answers keep the order of the lines.
    for (const char* line :
         {"not json", R"({"id": 7})", R"({"id": "x", "cmd": "fly"})", "[1, 2]",
          R"({"id": 8, "cmd": "open_lesson", "name": "nope"})", R"({"id": 9, "cmd": "wait"})",
          R"({"id": 10, "cmd": "set_expr", "expr": 5})", R"({"id": 11, "cmd": "state"})"})
        channel.submit(line);
    QVERIFY(QTest::qWaitFor([&] { return client.answers().size() == 8; }, 30000));
    QVERIFY(channel.isIdle());
    std::vector<Json> a;
    for (const QByteArray& line : client.answers())
        a.push_back(parseJson(line.toStdString()));
    QVERIFY(at(a[0], {"id"})->isNull());
    QCOMPARE(errorCode(a[0]), std::string("bad_request"));
    QCOMPARE(at(a[1], {"id"})->toInt64(), 7);
    QCOMPARE(errorCode(a[1]), std::string("bad_request")); // no "cmd"
    QCOMPARE(at(a[2], {"id"})->toString(), std::string("x"));
    QCOMPARE(errorCode(a[2]), std::string("bad_request"));
    QCOMPARE(errorCode(a[3]), std::string("bad_request"));
    QCOMPARE(errorCode(a[4]), std::string("invalid_argument"));
    QVERIFY(isOk(a[5]));
    QCOMPARE(at(a[5], {"id"})->toInt64(), 9);
    QCOMPARE(errorCode(a[6]), std::string("bad_request"));
    QVERIFY(isOk(a[7]));
    QCOMPARE(at(a[7], {"id"})->toInt64(), 11);
    for (const QByteArray& line : client.answers())
        QVERIFY(!line.contains('\n'));
}

void TestAutomation::badWaitKeepsTheChannelGoing_data()
{
    QTest::addColumn<QByteArray>("wait");
    QTest::newRow("negative") << QByteArray(R"({"id": 1, "cmd": "wait", "timeout_ms": -1})");
    QTest::newRow("string") << QByteArray(R"({"id": 1, "cmd": "wait", "timeout_ms": "5"})");
    QTest::newRow("fraction") << QByteArray(R"({"id": 1, "cmd": "wait", "timeout_ms": 1.5})");
}

// A refused wait answered its error and then left the channel waiting: nothing after it was
// ever answered.
void TestAutomation::badWaitKeepsTheChannelGoing()
{
    QFETCH(QByteArray, wait);
    MainWindow w;
    w.show();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    const Json refused = client.ask(wait);
    QCOMPARE(errorCode(refused), std::string("bad_request"));
    QCOMPARE(at(refused, {"id"})->toInt64(), 1);
    QVERIFY(channel.isIdle());
    const Json next = client.ask(R"({"id": 2, "cmd": "state"})", 10000);
    QVERIFY2(isOk(next), client.lastLine().constData());
    QCOMPARE(at(next, {"id"})->toInt64(), 2);
    const Json waited = client.ask(R"({"id": 3, "cmd": "wait"})");
    QVERIFY2(isOk(waited), client.lastLine().constData());
    QCOMPARE(client.answers().size(), 3);
}

// Issue 25: an overflowing shape with a 0 aborted the window; a device or FIFO hung it; a NUL
// cut a path short. Each is answered with the reason, and the channel goes on.
void TestAutomation::hostilePathsAndShapesAreRefused()
{
    MainWindow w;
    w.show();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    QVERIFY(isOk(client.ask(R"({"cmd": "open_lesson", "name": "walkthrough"})")));
    const Workspace before = w.workspace();
    Json a = client.ask(R"({"id": 1, "cmd": "set_shape", "shape": [4294967296, 4294967296, 0]})");
    QCOMPARE(errorCode(a), std::string("bad_request"));
    QVERIFY2(client.lastLine().contains("multiply past 2^63 - 1 elements"),
             client.lastLine().constData());
    a = client.ask(R"({"id": 2, "cmd": "open_file", "path": "/dev/zero"})", 10000);
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    QVERIFY2(client.lastLine().contains("/dev/zero") &&
                 client.lastLine().contains("character device"),
             client.lastLine().constData());
    QTemporaryDir dir;
    const QByteArray fifo = QFile::encodeName(dir.filePath("w.json"));
    QCOMPARE(mkfifo(fifo.constData(), 0600), 0);
    a = client.ask(R"({"id": 3, "cmd": "open_file", "path": ")" + fifo + R"("})", 10000);
    QVERIFY2(client.lastLine().contains("FIFO"), client.lastLine().constData());
    a = client.ask(R"({"id": 4, "cmd": "open_file", "path": ")" + fifo + R"(\u0000.npy"})");
    QCOMPARE(errorCode(a), std::string("bad_request"));
    QVERIFY2(client.lastLine().contains("NUL"), client.lastLine().constData());
    QCOMPARE(w.workspace(), before);
    QVERIFY(isOk(client.ask(R"({"id": 5, "cmd": "state"})")));
}

void TestAutomation::quitFinishes()
{
    MainWindow w;
    Automation channel(w);
    QSignalSpy finished(&channel, &Automation::finished);
    ss::testing::AutomationClient client(channel);
    QVERIFY(isOk(client.ask(R"({"id": 1, "cmd": "quit"})")));
    QCOMPARE(finished.count(), 1);
    channel.submit(R"({"id": 2, "cmd": "state"})"); // after quit: not answered
    // Shows that nothing happens, so there is no event to wait for: a bounded wait in which an
    // answer would have come (commands are answered from the event loop within milliseconds).
    QTest::qWait(50);
    QCOMPARE(client.answers().size(), 1);
}

void TestAutomation::idsAreEchoedAsSent_data()
{
    QTest::addColumn<QByteArray>("id");
    for (const char* id : {"18446744073709551615", "123456789012345678901234567890", "1e400",
                           "1.50", "-0", "\"text\"", "[1e400,2.50]"})
        QTest::newRow(id) << QByteArray(id);
}

// Issue 26: 18446744073709551615 came back as ...616, a 30-digit id as 1.2345678901234568e+29.
// An id is echoed byte for byte, in an answer and in an error.
void TestAutomation::idsAreEchoedAsSent()
{
    QFETCH(QByteArray, id);
    MainWindow w;
    w.forgetSession();
    w.show();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    for (const QByteArray& line : {R"({"id": )" + id + R"(, "cmd": "state", "max_elements": 0})",
                                   R"({"id": )" + id + R"(, "cmd": "fly"})"}) {
        client.ask(line);
        QVERIFY2(client.lastLine().startsWith(R"({"id":)" + id + ","),
                 client.lastLine().constData());
    }
}

// The "read as" selector, chosen from outside: one undo step, evaluated like a choice with the
// keyboard, reported by `state`; ops TensorFlow alone reads refuse it.
void TestAutomation::frameworkIsChosenAndReported()
{
    MainWindow w;
    w.setWorkspace(ss::testing::getitemWorkspace({3, 4}, QStringLiteral("x[[0, 2], 1:]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(ss::testing::waitSettled(w));
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    Json a = client.ask(R"({"cmd": "state", "max_elements": 0})");
    QCOMPARE(stringAt(a, {"framework"}), std::string("tensorflow"));
    QVERIFY(isOk(a));
    QCOMPARE(stringAt(a, {"error", "code"}), std::string("invalid_argument"));
    QVERIFY(at(a, {"undo", "count"}));
    const std::int64_t steps = at(a, {"undo", "count"})->toInt64();
    a = client.ask(R"({"id": 1, "cmd": "set_framework", "framework": "numpy"})");
    QVERIFY2(isOk(a), client.lastLine().constData());
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(stringAt(a, {"framework"}), std::string("numpy"));
    QVERIFY2(at(a, {"error"}) && at(a, {"error"})->isNull(), client.lastLine().constData());
    QCOMPARE(ints(at(a, {"outputs", "0", "tensor", "data"})),
             (std::vector<std::int64_t>{1, 2, 3, 9, 10, 11}));
    QCOMPARE(at(a, {"undo", "count"})->toInt64(), steps + 1);
    QCOMPARE(w.workspace().framework, Framework::NumPy);
    // Choosing the reading already chosen changes nothing.
    QVERIFY(isOk(client.ask(R"({"cmd": "set_framework", "framework": "numpy"})")));
    QCOMPARE(w.undoStack()->count(), int(steps + 1));
    a = client.ask(R"({"cmd": "undo"})");
    QVERIFY(isOk(a));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state", "max_elements": 0})");
    QCOMPARE(stringAt(a, {"framework"}), std::string("tensorflow"));
    QVERIFY(at(a, {"error"}) && !at(a, {"error"})->isNull());
    // strided_slice has the selector too; the op switch reset the reading to TensorFlow.
    QVERIFY(isOk(client.ask(R"({"cmd": "set_expr", "expr": "x[:, ::-1]"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "set_op", "op": "strided_slice"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "set_framework", "framework": "torch"})");
    QVERIFY2(isOk(a), client.lastLine().constData());
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(stringAt(a, {"op"}), std::string("strided_slice"));
    QCOMPARE(stringAt(a, {"framework"}), std::string("torch"));
    QVERIFY2(stringAt(a, {"error", "message"}).find("step must be greater than zero") !=
                 std::string::npos,
             client.lastLine().constData());
    QVERIFY(isOk(client.ask(R"({"cmd": "set_framework", "framework": "jax"})")));
    QVERIFY(isOk(client.ask(R"({"cmd": "wait"})")));
    a = client.ask(R"({"cmd": "state"})");
    QCOMPARE(stringAt(a, {"framework"}), std::string("jax"));
    QCOMPARE(ints(at(a, {"outputs", "0", "tensor", "data"})),
             (std::vector<std::int64_t>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
    // An op TensorFlow alone reads: refused, nothing changed.
    QVERIFY(isOk(client.ask(R"({"cmd": "set_op", "op": "transpose"})")));
    const int count = w.undoStack()->count();
    a = client.ask(R"({"cmd": "set_framework", "framework": "numpy"})");
    QCOMPARE(errorCode(a), std::string("invalid_argument"));
    QCOMPARE(w.undoStack()->count(), count);
    a = client.ask(R"({"cmd": "state", "max_elements": 0})");
    QCOMPARE(stringAt(a, {"framework"}), std::string("tensorflow"));
}

void TestAutomation::badFrameworksAreRefused_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("ONNX") << QByteArray(R"({"cmd": "set_framework", "framework": "onnx"})");
    QTest::newRow("Paddle") << QByteArray(R"({"cmd": "set_framework", "framework": "paddle"})");
    QTest::newRow("an alias") << QByteArray(R"({"cmd": "set_framework", "framework": "np"})");
    QTest::newRow("capitals") << QByteArray(R"({"cmd": "set_framework", "framework": "NumPy"})");
    QTest::newRow("empty") << QByteArray(R"({"cmd": "set_framework", "framework": ""})");
    QTest::newRow("a number") << QByteArray(R"({"cmd": "set_framework", "framework": 1})");
    QTest::newRow("missing") << QByteArray(R"({"cmd": "set_framework"})");
}
void TestAutomation::badFrameworksAreRefused()
{
    QFETCH(QByteArray, line);
    MainWindow w;
    w.setWorkspace(ss::testing::getitemWorkspace({3, 4}, QStringLiteral("x[1]")),
                   QStringLiteral("test"));
    w.show();
    QVERIFY(ss::testing::waitSettled(w));
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    const int count = w.undoStack()->count();
    const Json a = client.ask(line);
    QCOMPARE(errorCode(a), std::string("bad_request"));
    // Refused by set_framework itself, saying what it takes.
    const std::string message = stringAt(a, {"error", "message"});
    QVERIFY2(message.find("\"framework\"") != std::string::npos &&
                 message.find("unknown command") == std::string::npos,
             message.c_str());
    QCOMPARE(w.undoStack()->count(), count);
    QCOMPARE(w.workspace().framework, Framework::TensorFlow);
    // The channel carries on.
    QVERIFY(isOk(client.ask(R"({"cmd": "state", "max_elements": 0})")));
}

// ui/README.md's table and the channel's own list (its answer to an unknown command) name the
// same commands, in the same order.
void TestAutomation::commandListsAgree()
{
    const QStringList documented = readmeCommands();
    QVERIFY2(documented.size() > 10, qPrintable(documented.join(u' ')));
    MainWindow w;
    w.show();
    Automation channel(w);
    ss::testing::AutomationClient client(channel);
    const Json a = client.ask(R"({"cmd": "fly"})");
    const QString message = QString::fromStdString(stringAt(a, {"error", "message"}));
    const qsizetype list = message.indexOf(QLatin1String("the commands are "));
    QVERIFY2(list >= 0, qPrintable(message));
    const QStringList listed =
        message.mid(list + 17).split(QStringLiteral(", "), Qt::SkipEmptyParts);
    QCOMPARE(listed, documented);
}

QTEST_MAIN(TestAutomation)
#include "tst_automation.moc"
