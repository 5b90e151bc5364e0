// SPDX-License-Identifier: GPL-3.0-or-later
// The command palette: Ctrl+K and Ctrl+Shift+P open it with the filter focused; it lists every
// menu action, op, lesson and exercise; typing filters fuzzily; Up/Down choose and Enter runs,
// all from the keyboard; Escape closes without running anything.
#include "core/op.h"
#include "ui/model/exercises.h"
#include "ui/model/lessons.h"
#include "ui/workbench/commandpalette.h"
#include "ui/workbench/docksetup.h"
#include "ui/workbench/exercisepanel.h"
#include "workbench_testing.h"

#include <QAction>
#include <QLineEdit>
#include <QListWidget>
#include <QTest>
#include <QUndoStack>

using namespace ss;
using namespace ss::ui;
using namespace ss::testing;

class TestCommandPalette : public QObject
{
    Q_OBJECT

private:
    static CommandPalette* openPalette(MainWindow& w, const QKeySequence& key)
    {
        QTest::keySequence(&w, key);
        auto* palette = w.findChild<CommandPalette*>();
        if (!palette) return nullptr;
        if (!QTest::qWaitFor([&] { return palette->isVisible(); }, 5000)) return nullptr;
        return palette;
    }

private slots:
    void initTestCase() { useCleanTestEnvironment(); }

    void opensWithEitherKey_data()
    {
        QTest::addColumn<QKeySequence>("key");
        QTest::newRow("Ctrl+K") << QKeySequence(Qt::CTRL | Qt::Key_K);
        QTest::newRow("Ctrl+Shift+P") << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P);
    }
    void opensWithEitherKey()
    {
        QFETCH(QKeySequence, key);
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        CommandPalette* palette = openPalette(w, key);
        QVERIFY(palette);
        QTRY_COMPARE(QApplication::focusWidget(), palette->filterField());
        // Accessible names for a screen reader.
        QVERIFY(!palette->filterField()->accessibleName().isEmpty());
        QVERIFY(!palette->list()->accessibleName().isEmpty());
        // Everything is listed: the menus' actions, every op, lesson and exercise.
        const QStringList all = palette->shownTexts();
        QVERIFY(all.contains(QStringLiteral("Action: Save As")));
        QVERIFY(all.contains(QStringLiteral("Action: Paste Call")));
        for (const OpDef& op : allOps())
            QVERIFY2(std::any_of(all.begin(), all.end(),
                                 [&](const QString& t) {
                                     return t.startsWith(QStringLiteral("Op: %1 ").arg(
                                         QString::fromStdString(op.name)));
                                 }),
                     op.name.c_str());
        int lessonCount = 0;
        for (const Lesson& lesson : lessons())
            lessonCount += lesson.unavailable.isEmpty();
        QCOMPARE(int(all.filter(QRegularExpression(QStringLiteral("^Lesson: "))).size()),
                 lessonCount);
        int exerciseCount = 0;
        for (const ExerciseSet& set : exerciseSets())
            exerciseCount += int(set.exercises.size());
        QCOMPARE(int(all.filter(QRegularExpression(QStringLiteral("^Exercise: "))).size()),
                 exerciseCount);
        // Escape closes, running nothing.
        const int steps = w.undoStack()->count();
        QTest::keyClick(palette->filterField(), Qt::Key_Escape);
        QTRY_VERIFY(!palette->isVisible());
        QCOMPARE(w.undoStack()->count(), steps);
    }

    void filtering()
    {
        std::vector<CommandPalette::Entry> entries{
            {"Op", "gather — picks slices", {}},
            {"Op", "gather_nd — picks elements", {}},
            {"Op", "paddle_strided_slice — Paddle", {}},
            {"Op", "pad — pads", {}},
            {"Action", "Save As", {}},
        };
        auto texts = [&](const QString& filter) {
            QStringList out;
            for (const int k : CommandPalette::match(entries, filter))
                out << entries[std::size_t(k)].text.section(' ', 0, 0);
            return out;
        };
        QCOMPARE(texts(QString()).size(), 5);
        // "pad" ranks the op named pad before paddle_strided_slice, and skips what lacks it.
        QCOMPARE(texts(QStringLiteral("pad")).value(0), QStringLiteral("pad"));
        QVERIFY(!texts(QStringLiteral("pad")).contains(QStringLiteral("gather")));
        // Characters in order, not together: "gnd" finds gather_nd; case does not matter.
        QCOMPARE(texts(QStringLiteral("GND")), QStringList{QStringLiteral("gather_nd")});
        QCOMPARE(texts(QStringLiteral("sva")), QStringList{QStringLiteral("Save")});
        QVERIFY(texts(QStringLiteral("zzz")).isEmpty());
    }

    void runsAnOpSwitch()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(waitSettled(w));
        CommandPalette* palette = openPalette(w, QKeySequence(Qt::CTRL | Qt::Key_K));
        QVERIFY(palette);
        const int steps = w.undoStack()->count();
        QTest::keyClicks(palette->filterField(), QStringLiteral("op: gather_nd"));
        QVERIFY2(palette->shownTexts().value(0).startsWith(QStringLiteral("Op: gather_nd ")),
                 qPrintable(palette->shownTexts().join('\n')));
        QTest::keyClick(palette->filterField(), Qt::Key_Return);
        QTRY_COMPARE(w.workspace().op, std::string("gather_nd"));
        QVERIFY(!palette->isVisible());
        QCOMPARE(w.undoStack()->count(), steps + 1); // one undo step, as the op picker makes
    }

    void runsALessonAndAnExercise()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        const Lesson* lesson = nullptr;
        for (const Lesson& l : lessons())
            if (l.unavailable.isEmpty() && !l.workspace.title.isEmpty()) {
                lesson = &l;
                break;
            }
        QVERIFY(lesson);
        CommandPalette* palette = openPalette(w, QKeySequence(Qt::CTRL | Qt::Key_K));
        QVERIFY(palette);
        QTest::keyClicks(palette->filterField(),
                         QStringLiteral("Lesson: ") + lesson->workspace.title);
        QVERIFY(palette->shownTexts().value(0) ==
                QStringLiteral("Lesson: ") + lesson->workspace.title);
        QTest::keyClick(palette->filterField(), Qt::Key_Enter);
        QTRY_COMPARE(w.currentLesson(), lesson->name);

        // An exercise, chosen with Down from the second match.
        const Exercise& exercise = exerciseSets().front().exercises.front();
        palette = openPalette(w, QKeySequence(Qt::CTRL | Qt::Key_K));
        QVERIFY(palette);
        QTest::keyClicks(palette->filterField(), QStringLiteral("Exercise: ") + exercise.title);
        const int row =
            int(palette->shownTexts().indexOf(QStringLiteral("Exercise: ") + exercise.title));
        QVERIFY(row >= 0);
        for (int k = 0; k < row; ++k)
            QTest::keyClick(palette->filterField(), Qt::Key_Down);
        QTest::keyClick(palette->filterField(), Qt::Key_Return);
        QTRY_COMPARE(w.docks()->exercises()->currentExercise(), exercise.name);
    }

    void runsAnAction()
    {
        MainWindow w;
        w.forgetSession();
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* decode = w.findChild<QAction*>(QStringLiteral("actionDecodeSteps"));
        QVERIFY(decode);
        const bool before = decode->isChecked();
        CommandPalette* palette = openPalette(w, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
        QVERIFY(palette);
        QTest::keyClicks(palette->filterField(), QStringLiteral("decode steps"));
        QVERIFY2(palette->shownTexts().value(0).startsWith(QStringLiteral("Action: Decode Steps")),
                 qPrintable(palette->shownTexts().join('\n')));
        QTest::keyClick(palette->filterField(), Qt::Key_Return);
        QTRY_COMPARE(decode->isChecked(), !before);
    }
};

QTEST_MAIN(TestCommandPalette)
#include "tst_commandpalette.moc"
