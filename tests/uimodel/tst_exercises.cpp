// SPDX-License-Identifier: GPL-3.0-or-later
// The exercise sets, the checker and the progress file, without widgets: every exercise's listed
// solutions pass and its listed wrong answers fail with a hint; the hints say what differs.
#include "core/plan.h"
#include "ui/model/exercisechecker.h"
#include "ui/model/exerciseprogress.h"
#include "ui/model/exercises.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>

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
    void progressPersists();
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
    // A damaged file is no progress, and the next save replaces it.
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("{\"solved\": ");
    file.close();
    ExerciseProgress damaged(path);
    QVERIFY(damaged.solved().empty());
    QCOMPARE(damaged.markSolved(QStringLiteral("corner")), QString());
    QCOMPARE(ExerciseProgress(path).solved().size(), std::size_t(1));
}

QTEST_GUILESS_MAIN(TestExercises)
#include "tst_exercises.moc"
