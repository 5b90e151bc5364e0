// SPDX-License-Identifier: GPL-3.0-or-later
// The exercise sets, the checker and the progress file, without widgets: every exercise's listed
// solutions pass and its listed wrong answers fail with a hint; the hints say what differs.
#include "core/error.h"
#include "core/plan.h"
#include "ui/model/exercisechecker.h"
#include "ui/model/exerciseprogress.h"
#include "ui/model/exercises.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <sys/mount.h>
#include <sys/stat.h>

using namespace ss;
using namespace ss::ui;

class TestExercises : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void everySetReads();
    void everyExercise_data();
    void everyExercise();
    void hintsSayWhatDiffers_data();
    void hintsSayWhatDiffers();
    void hintsForOtherOpsDoNotSpeakOfSubscripts();
    void differingCellsAreListed();
    void answerWithAnotherOpIsRefused();
    void badSetFilesAreRefusedWithTheirName_data();
    void badSetFilesAreRefusedWithTheirName();
    void hostileSetFilesAreRefusedAtOnce_data();
    void hostileSetFilesAreRefusedAtOnce();
    void unreadableProgressIsKeptAside_data();
    void unreadableProgressIsKeptAside();
    void unreadableProgressThatCannotMoveIsNotReplaced();
    void progressPersists();
    void progressFilesOfEarlierVersionsLoad();
};

// A teacher's set in the user's folder, written before the sets are first read: it is listed
// after the built-in ones.
void TestExercises::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(QStringLiteral("SliceScopeTests-tst_exercises"));
    QDir().mkpath(userExerciseDir());
    QFile file(userExerciseDir() + QStringLiteral("/teacher.json"));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"title": "Teacher's set", "exercises": [{"name": "teacher-first-two",
        "title": "First two", "task": "Select elements 0 and 1.", "op": "getitem",
        "inputs": {"input": {"dtype": "int32", "shape": [5], "fill": "arange"}},
        "attrs": {"expr": "x[:]"}, "solutions": [{"attrs": {"expr": "x[:2]"}},
        {"attrs": {"expr": "x[-5:-3]"}}], "wrong": [{"attrs": {"expr": "x[:3]"}}]}]})");
}

void TestExercises::cleanupTestCase()
{
    QDir(userExerciseDir()).removeRecursively();
}

void TestExercises::everySetReads()
{
    QStringList problems;
    const auto& sets = exerciseSets(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QVERIFY(sets.size() >= 8);
    QCOMPARE(sets.back().title, QStringLiteral("Teacher's set"));
    QVERIFY(findExercise(QStringLiteral("teacher-first-two")));
    std::size_t count = 0;
    std::set<QString> names;
    for (const ExerciseSet& set : sets) {
        QVERIFY(!set.title.isEmpty());
        for (const Exercise& exercise : set.exercises) {
            QVERIFY2(names.insert(exercise.name).second, qPrintable(exercise.name));
            QVERIFY(!exercise.task.isEmpty());
            ++count;
        }
    }
    QVERIFY2(count >= 41, qPrintable(QString::number(count))); // 40 built in, one teacher's
}

void TestExercises::everyExercise_data()
{
    QTest::addColumn<QString>("name");
    for (const ExerciseSet& set : exerciseSets())
        for (const Exercise& exercise : set.exercises)
            QTest::newRow(qPrintable(exercise.name)) << exercise.name;
}

void TestExercises::everyExercise()
{
    QFETCH(QString, name);
    const Exercise* exercise = findExercise(name);
    QVERIFY(exercise);
    const Selection target = ExerciseChecker::target(*exercise);
    QVERIFY2(target.ok, qPrintable(target.error));
    QVERIFY(!target.sources.empty());
    // The starting workspace is not already the answer.
    QVERIFY(!ExerciseChecker::check(*exercise, exercise->start).correct);
    for (const Workspace& solution : exercise->solutions) {
        const CheckResult r = ExerciseChecker::check(*exercise, solution);
        QVERIFY2(r.correct, qPrintable(r.hint));
        QVERIFY(r.hint.isEmpty());
        QVERIFY(r.differingOutputs.empty() && r.missingInputs.empty() && r.extraInputs.empty());
    }
    QVERIFY2(!exercise->wrong.empty(), "every exercise lists a wrong answer");
    for (const Workspace& wrong : exercise->wrong) {
        const CheckResult r = ExerciseChecker::check(*exercise, wrong);
        QVERIFY(!r.correct);
        QVERIFY2(!r.hint.isEmpty(), "a wrong answer gets a hint");
    }
}

void TestExercises::hintsSayWhatDiffers_data()
{
    QTest::addColumn<QString>("exercise");
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("hint");
    QTest::newRow("index removed an axis") << "keep-row"
                                           << "x[2]"
                                           << "a slice keeps an axis (1:2 keeps one row)";
    QTest::newRow("slice kept an axis")
        << "row-two"
        << "x[2:3]"
        << "rank 2 (shape (1, 5)), the target rank 1 (shape (5,)): an index removes an axis";
    QTest::newRow("count") << "middle-block"
                           << "x[1:3, 1:3]"
                           << "You selected 4 cells";
    QTest::newRow("one cell") << "middle-block"
                              << "x[1:2, 1:2]"
                              << "You selected 1 cell (shape (1, 1)), the target 6 cells";
    QTest::newRow("backwards") << "rows-reversed"
                               << "x[:, ::-1]"
                               << "your stride is positive, the target runs backwards";
    QTest::newRow("forwards") << "last-two-rows"
                              << "x[:1:-1]"
                              << "your stride is negative, the target runs forwards";
    QTest::newRow("shifted") << "last-two-rows"
                             << "x[1:3]"
                             << "off by -1";
    QTest::newRow("refused") << "row-two"
                             << "x[9]"
                             << "The engine refuses this answer";
}

void TestExercises::hintsSayWhatDiffers()
{
    QFETCH(QString, exercise);
    QFETCH(QString, expr);
    QFETCH(QString, hint);
    const Exercise* e = findExercise(exercise);
    QVERIFY(e);
    Workspace answer = e->start;
    answer.attrs["expr"] = Attr(expr.toStdString());
    const CheckResult r = ExerciseChecker::check(*e, answer);
    QVERIFY(!r.correct);
    QVERIFY2(r.hint.contains(hint), qPrintable(r.hint));
}

void TestExercises::hintsForOtherOpsDoNotSpeakOfSubscripts()
{
    // gather_nd reads no slice spec: its rank hint names no index or slice, its order hint no
    // stride.
    const Exercise* nd = findExercise(QStringLiteral("gather-nd-elements"));
    QVERIFY(nd);
    CheckResult r = ExerciseChecker::check(*nd, nd->wrong.front());
    QVERIFY2(r.hint.contains(QStringLiteral("rank 2")) && !r.hint.contains(QStringLiteral("slice")),
             qPrintable(r.hint));
    const Exercise* gather = findExercise(QStringLiteral("gather-rows"));
    r = ExerciseChecker::check(*gather, gather->wrong.front());
    QVERIFY2(r.hint.contains(QStringLiteral("the target's backwards")) &&
                 !r.hint.contains(QStringLiteral("stride")),
             qPrintable(r.hint));
}

void TestExercises::differingCellsAreListed()
{
    // Target x[2:4] on a 4x5 arange; answer x[1:3]: row 1 is extra, row 3 missing, and every
    // output element differs (row 1 and 2 where the target has rows 2 and 3).
    const Exercise* e = findExercise(QStringLiteral("last-two-rows"));
    QVERIFY(e);
    Workspace answer = e->start;
    answer.attrs["expr"] = Attr("x[1:3]");
    const CheckResult r = ExerciseChecker::check(*e, answer);
    QCOMPARE(r.extraInputs, (std::vector<std::int64_t>{5, 6, 7, 8, 9}));
    QCOMPARE(r.missingInputs, (std::vector<std::int64_t>{15, 16, 17, 18, 19}));
    QCOMPARE(r.differingOutputs.size(), std::size_t(10));
    // Same cells, other order: nothing missing or extra, every element differs (x[:] against
    // x[::-1] on six elements).
    const Exercise* reverse = findExercise(QStringLiteral("reverse-all"));
    QVERIFY(reverse);
    Workspace forwards = reverse->start;
    forwards.attrs["expr"] = Attr("x[:]");
    const CheckResult order = ExerciseChecker::check(*reverse, forwards);
    QVERIFY(order.missingInputs.empty() && order.extraInputs.empty());
    QCOMPARE(order.differingOutputs.size(), std::size_t(6));
}

void TestExercises::answerWithAnotherOpIsRefused()
{
    const Exercise* e = findExercise(QStringLiteral("slice-block"));
    QVERIFY(e);
    Workspace answer;
    answer.op = "getitem";
    answer.attrs = {{"expr", Attr("x[1:3, 2:5]")}};
    answer.inputs = e->start.inputs;
    const CheckResult r = ExerciseChecker::check(*e, answer);
    QVERIFY(!r.correct);
    QVERIFY2(r.hint.contains(QStringLiteral("about slice")), qPrintable(r.hint));
}

void TestExercises::badSetFilesAreRefusedWithTheirName_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QByteArray("{") << "set.json";
    QTest::newRow("no exercises") << QByteArray(R"({"title": "t", "exercises": []})")
                                  << "non-empty list 'exercises'";
    QTest::newRow("no solution")
        << QByteArray(R"({"title": "t", "exercises": [{"name": "a", "title": "A", "task": "do",
            "op": "getitem", "inputs": {"input": {"dtype": "int32", "shape": [3], "fill": "arange"}},
            "attrs": {"expr": "x[:]"}}]})")
        << "exercise 'a': needs at least one answer";
    QTest::newRow("bad answer key")
        << QByteArray(R"({"title": "t", "exercises": [{"name": "a", "title": "A", "task": "do",
            "op": "getitem", "inputs": {"input": {"dtype": "int32", "shape": [3], "fill": "arange"}},
            "attrs": {"expr": "x[:]"}, "solutions": [{"op": "slice"}]}]})")
        << "only give \"attrs\" and \"inputs\"";
    QTest::newRow("unknown op")
        << QByteArray(R"({"title": "t", "exercises": [{"name": "a", "title": "A", "task": "do",
            "op": "nope", "solutions": [{}]}]})")
        << "exercise 'a'";
}

void TestExercises::badSetFilesAreRefusedWithTheirName()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("set.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    try {
        readExerciseSet(path);
        QFAIL("a bad set file was accepted");
    } catch (const OpError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains(path) && what.contains(message), qPrintable(what));
    }
}

void TestExercises::hostileSetFilesAreRefusedAtOnce_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("FIFO") << "fifo"
                          << "it is a FIFO";
    QTest::newRow("symlink to /dev/zero") << "zero"
                                          << "it is a character device";
    QTest::newRow("sparse 100 GB") << "huge"
                                   << "over the limit of";
    // Issue 25: an exercise with such a shape aborted the window.
    QTest::newRow("overflowing shape with a 0") << "shape"
                                                << "is too big: its sizes multiply";
}

void TestExercises::hostileSetFilesAreRefusedAtOnce()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("set.json"));
    if (kind == "fifo") {
        QCOMPARE(mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == "zero") {
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    } else {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        if (kind == "huge")
            QVERIFY(file.resize(qint64(100) << 30));
        else
            file.write(R"({"title": "t", "exercises": [{"name": "a", "title": "A", "task": "do",
                "op": "getitem", "inputs": {"input": {"dtype": "int8",
                "shape": [4294967296, 4294967296, 0], "fill": "zeros"}},
                "attrs": {"expr": "x[:]"}, "solutions": [{}]}]})");
    }
    try {
        readExerciseSet(path);
        QFAIL("a hostile set file was accepted");
    } catch (const OpError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains(path) && what.contains(message), qPrintable(what));
    }
}

void TestExercises::unreadableProgressIsKeptAside_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("cut short") << "corrupt"
                               << "";
    QTest::newRow("not the shape of progress") << "list"
                                               << "does not hold";
    QTest::newRow("FIFO") << "fifo"
                          << "it is a FIFO";
    QTest::newRow("symlink to /dev/zero") << "zero"
                                          << "it is a character device";
}

// Issue 26: a progress file that did not read was reported on stderr only and replaced by the
// next solved exercise. Now it is renamed aside (never over an earlier copy), the reason is
// given for the window, and the next save starts a fresh file.
void TestExercises::unreadableProgressIsKeptAside()
{
    QFETCH(QString, kind);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("progress.json"));
    const QByteArray broken = kind == "list" ? QByteArray("[\"corner\"]") : "{\"solved\": [\"cor";
    if (kind == "fifo") {
        QCOMPARE(mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == "zero") {
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
    } else {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(broken);
    }
    // An earlier copy is never overwritten: the file goes to the next free name.
    QFile earlier(path + QStringLiteral(".unreadable-1"));
    QVERIFY(earlier.open(QIODevice::WriteOnly));
    earlier.write("earlier");
    earlier.close();

    ExerciseProgress progress(path);
    QVERIFY(progress.solved().empty());
    const QString aside = path + QStringLiteral(".unreadable-2");
    QVERIFY2(progress.problem().contains(path) && progress.problem().contains(aside) &&
                 progress.problem().contains(reason),
             qPrintable(progress.problem()));
    QVERIFY(!QFileInfo::exists(path) && !QFileInfo(path).isSymLink());
    if (kind == "fifo" || kind == "zero") {
        QFileInfo kept(aside);
        QVERIFY(kind == "fifo" ? !kept.isFile() : kept.isSymLink());
    } else {
        QFile kept(aside);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), broken);
    }
    QVERIFY(earlier.open(QIODevice::ReadOnly));
    QCOMPARE(earlier.readAll(), QByteArray("earlier"));

    QCOMPARE(progress.markSolved(QStringLiteral("corner")), QString());
    const ExerciseProgress fresh(path);
    QVERIFY(fresh.problem().isEmpty());
    QCOMPARE(fresh.solved(), std::set<QString>{QStringLiteral("corner")});
}

// If the unreadable file cannot be moved (its file system is read-only), it is not replaced
// either: saves are refused. A small tmpfs remounted read-only; mounting needs root, so elsewhere
// the test is skipped.
void TestExercises::unreadableProgressThatCannotMoveIsNotReplaced()
{
    QTemporaryDir dir;
    const QByteArray mountPoint = QFile::encodeName(dir.path());
    if (mount("tmpfs", mountPoint.constData(), "tmpfs", 0, "size=64k") != 0)
        QSKIP("cannot mount a small tmpfs (needs root)");
    const QString path = dir.filePath(QStringLiteral("progress.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"solved\": [");
    file.close();
    const bool readOnly =
        mount(nullptr, mountPoint.constData(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    QString problem, saveError;
    if (readOnly) {
        ExerciseProgress progress(path);
        problem = progress.problem();
        saveError = progress.markSolved(QStringLiteral("corner"));
    }
    QByteArray left;
    if (file.open(QIODevice::ReadOnly)) left = file.readAll();
    file.close();
    umount(mountPoint.constData());
    QVERIFY(readOnly);
    QVERIFY2(problem.contains(QStringLiteral("could not be moved aside")), qPrintable(problem));
    QVERIFY(!saveError.isEmpty());
    QCOMPARE(left, QByteArray("{\"solved\": ["));
}

void TestExercises::progressPersists()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/progress.json"));
    {
        ExerciseProgress progress(path);
        QVERIFY(progress.solved().empty());
        QCOMPARE(progress.markSolved(QStringLiteral("row-two")), QString());
        QCOMPARE(progress.markSolved(QStringLiteral("corner")), QString());
    }
    ExerciseProgress again(path);
    QVERIFY(again.isSolved(QStringLiteral("row-two")) && again.isSolved(QStringLiteral("corner")));
    QVERIFY(!again.isSolved(QStringLiteral("column-one")));
    // A damaged file is no progress; it is kept aside, and the next save starts afresh.
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("{\"solved\": ");
    file.close();
    ExerciseProgress damaged(path);
    QVERIFY(damaged.solved().empty());
    QVERIFY(QFileInfo::exists(path + QStringLiteral(".unreadable-1")));
    QCOMPARE(damaged.markSolved(QStringLiteral("corner")), QString());
    QCOMPARE(ExerciseProgress(path).solved().size(), std::size_t(1));
}

// Earlier versions wrote the file with Qt's own JSON, indented; it still loads. Saving writes it
// with the protocol's writer, as workspace files are written: compact, one line, names escaped
// as JSON has them.
void TestExercises::progressFilesOfEarlierVersionsLoad()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("progress.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\n    \"solved\": [\n        \"corner\",\n        \"row-two\"\n    ]\n}\n");
    file.close();
    ExerciseProgress progress(path);
    QVERIFY2(progress.problem().isEmpty(), qPrintable(progress.problem()));
    QCOMPARE(progress.solved(),
             (std::set<QString>{QStringLiteral("corner"), QStringLiteral("row-two")}));
    const QString quoted = QStringLiteral("say \"\u00e9\"");
    QCOMPARE(progress.markSolved(quoted), QString());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(),
             QByteArray("{\"solved\":[\"corner\",\"row-two\",\"say \\\"\xc3\xa9\\\"\"]}\n"));
    QCOMPARE(ExerciseProgress(path).solved().count(quoted), std::size_t(1));
}

QTEST_GUILESS_MAIN(TestExercises)
#include "tst_exercises.moc"
