// SPDX-License-Identifier: GPL-3.0-or-later
// The stage marks bench_gui prints: nothing is kept while they are off (the application never
// turns them on), and while on, every mark is kept in order with its object and time, from any
// thread, until taken.
#include "ui/model/stagetrace.h"

#include <QTest>

#include <cstring>
#include <thread>

using namespace ss::ui;

class TestStageTrace : public QObject
{
    Q_OBJECT
private slots:
    void cleanup()
    {
        stagetrace::enable(false);
        (void)stagetrace::take();
    }

    void offKeepsNothing()
    {
        QVERIFY(!stagetrace::isEnabled());
        stagetrace::mark("gui: evaluate");
        QVERIFY(stagetrace::take().empty());
    }

    void onKeepsEveryMarkInOrderUntilTaken()
    {
        stagetrace::enable(true);
        const int view = 0;
        const std::int64_t before = stagetrace::nowNs();
        stagetrace::mark("gui: evaluate");
        std::thread worker([&] { stagetrace::mark("worker: heat map job starts", &view); });
        worker.join();
        stagetrace::mark("gui: result shown");
        const std::vector<stagetrace::Mark> marks = stagetrace::take();
        QCOMPARE(marks.size(), std::size_t(3));
        QCOMPARE(std::strcmp(marks[0].stage, "gui: evaluate"), 0);
        QCOMPARE(marks[0].who, nullptr);
        QCOMPARE(marks[1].who, static_cast<const void*>(&view));
        QCOMPARE(std::strcmp(marks[2].stage, "gui: result shown"), 0);
        QVERIFY(marks[0].ns >= before);
        QVERIFY(marks[0].ns <= marks[1].ns && marks[1].ns <= marks[2].ns);
        QVERIFY(marks[2].ns <= stagetrace::nowNs());
        QVERIFY(stagetrace::take().empty()); // taken: gone
    }
};

QTEST_APPLESS_MAIN(TestStageTrace)
#include "tst_stagetrace.moc"
