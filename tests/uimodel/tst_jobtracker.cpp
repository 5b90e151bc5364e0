// SPDX-License-Identifier: GPL-3.0-or-later
// The job tracker every background job of the workbench goes through (engine client, heat maps,
// view statistics): stale results dropped, cancellation, delivery on the tracker's thread, one
// shared pool. Links the model library alone: no widgets.
#include "ui/model/jobtracker.h"
#include "ui/model/workerpool.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

using namespace ss;
using namespace ss::ui;

namespace {

// Blocks a job until the test lets it go (never longer than a few seconds, so a broken tracker
// fails the test instead of hanging it).
struct Gate
{
    std::promise<void> promise;
    std::shared_future<void> future = promise.get_future().share();
    void open() { promise.set_value(); }
    void wait() const { future.wait_for(std::chrono::seconds(10)); }
};

} // namespace

class TestJobTracker : public QObject
{
    Q_OBJECT
private slots:
    void deliversOnTheTrackersThread();
    void staleResultIsDropped();
    void newerJobCancelsOlder();
    void cancelKeepsTheJobCurrent();
    void invalidateDropsWhatIsOnItsWay();
    void failureIsReported();
    void trackerGoneWhileJobRuns();
    void everyTrackerSharesOnePool();
};

void TestJobTracker::deliversOnTheTrackersThread()
{
    JobTracker tracker;
    QSignalSpy idle(&tracker, &JobTracker::idle);
    std::atomic<QThread*> workThread{nullptr};
    QThread* deliveredOn = nullptr;
    int result = 0;
    tracker.start([&](JobContext&, const JobTracker::Delivery& to) {
        workThread = QThread::currentThread();
        to.post([&] {
            deliveredOn = QThread::currentThread();
            result = 42;
        });
    });
    QVERIFY(tracker.isBusy());
    QVERIFY(idle.wait(5000));
    QCOMPARE(result, 42);
    QCOMPARE(deliveredOn, tracker.thread());
    QVERIFY(workThread.load() != tracker.thread());
    QVERIFY(!tracker.isBusy());
    QCOMPARE(idle.count(), 1);
}

void TestJobTracker::staleResultIsDropped()
{
    JobTracker tracker;
    QSignalSpy idle(&tracker, &JobTracker::idle);
    Gate gate;
    Gate firstRunning;
    QStringList delivered;
    QStringList anyway;
    // The first job ignores cancellation and delivers after the second was started.
    tracker.start([&](JobContext&, const JobTracker::Delivery& to) {
        firstRunning.open();
        gate.wait();
        to.postAnyway([&] { anyway << QStringLiteral("first"); });
        to.post([&] { delivered << QStringLiteral("first"); });
    });
    firstRunning.wait();
    const quint64 second = tracker.start([&](JobContext&, const JobTracker::Delivery& to) {
        gate.wait();
        to.post([&] { delivered << QStringLiteral("second"); });
    });
    QCOMPARE(second, tracker.generation());
    gate.open();
    QVERIFY(idle.wait(5000));
    QTRY_COMPARE(anyway, QStringList{QStringLiteral("first")}); // bookkeeping still arrives
    QCOMPARE(delivered, QStringList{QStringLiteral("second")});
    QCOMPARE(idle.count(), 1); // the superseded job's end is not an end of the tracker's work
}

void TestJobTracker::newerJobCancelsOlder()
{
    JobTracker tracker;
    QSignalSpy idle(&tracker, &JobTracker::idle);
    std::atomic<bool> sawCancel{false};
    Gate running;
    int droppedCalls = 0;
    tracker.start(
        [&](JobContext& ctx, const JobTracker::Delivery&) {
            running.open();
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (!ctx.isCancelled() && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            sawCancel = ctx.isCancelled();
        },
        [&](Job::State, std::exception_ptr) { ++droppedCalls; });
    running.wait();
    int result = 0;
    tracker.start(
        [&](JobContext&, const JobTracker::Delivery& to) { to.post([&] { result = 7; }); });
    QVERIFY(idle.wait(5000));
    QTRY_VERIFY(sawCancel.load());
    QCOMPARE(result, 7);
    QCOMPARE(droppedCalls, 0); // the older job's `dropped` belongs to a superseded job
}

void TestJobTracker::cancelKeepsTheJobCurrent()
{
    JobTracker tracker;
    QSignalSpy idle(&tracker, &JobTracker::idle);
    Gate running;
    std::optional<Job::State> droppedState;
    bool delivered = false;
    tracker.start(
        [&](JobContext& ctx, const JobTracker::Delivery& to) {
            running.open();
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (std::chrono::steady_clock::now() < until) {
                ctx.throwIfCancelled();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            to.post([&] { delivered = true; });
        },
        [&](Job::State state, std::exception_ptr) { droppedState = state; });
    running.wait();
    tracker.cancel();
    QVERIFY(idle.wait(5000));
    QCOMPARE(droppedState, std::optional(Job::State::Cancelled));
    QVERIFY(!delivered);
    QVERIFY(!tracker.isBusy());
}

void TestJobTracker::invalidateDropsWhatIsOnItsWay()
{
    JobTracker tracker;
    QSignalSpy idle(&tracker, &JobTracker::idle);
    Gate posted;
    bool delivered = false;
    bool dropped = false;
    tracker.start(
        [&](JobContext&, const JobTracker::Delivery& to) {
            to.post([&] { delivered = true; });
            posted.open();
        },
        [&](Job::State, std::exception_ptr) { dropped = true; });
    posted.wait(); // the result is queued on this thread, not yet run
    tracker.invalidate();
    QVERIFY(!tracker.isBusy());
    // Shows that the queued result is dropped, so there is no event to wait for: a bounded
    // wait in which the event loop would have delivered it.
    QTest::qWait(50);
    QVERIFY(!delivered);
    QVERIFY(!dropped);
    QCOMPARE(idle.count(), 0);
}

void TestJobTracker::failureIsReported()
{
    JobTracker tracker;
    QSignalSpy idle(&tracker, &JobTracker::idle);
    std::optional<Job::State> droppedState;
    QString message;
    tracker.start(
        [](JobContext&, const JobTracker::Delivery&) { throw std::runtime_error("out of paper"); },
        [&](Job::State state, std::exception_ptr error) {
            droppedState = state;
            try {
                std::rethrow_exception(error);
            } catch (const std::exception& e) {
                message = QString::fromUtf8(e.what());
            }
        });
    QVERIFY(idle.wait(5000));
    QCOMPARE(droppedState, std::optional(Job::State::Failed));
    QCOMPARE(message, QStringLiteral("out of paper"));
}

void TestJobTracker::trackerGoneWhileJobRuns()
{
    // The job outlives its tracker and still posts: nothing arrives, nothing crashes (the ASan
    // build checks that no freed tracker is touched).
    Gate gate;
    Gate running;
    std::atomic<bool> stillCurrent{true};
    std::atomic<bool> finished{false};
    bool delivered = false;
    // Held here as a window's other views would: the pool outlives this tracker (the last
    // holder of a pool joins its threads, which would wait for this job).
    const std::shared_ptr<Executor> pool = WorkerPool::shared();
    auto* tracker = new JobTracker;
    tracker->start([&](JobContext&, const JobTracker::Delivery& to) {
        running.open();
        gate.wait();
        stillCurrent = to.isCurrent();
        to.post([&] { delivered = true; });
        to.postAnyway([&] { delivered = true; });
        finished = true;
    });
    running.wait();
    delete tracker;
    gate.open();
    QTRY_VERIFY(finished.load());
    // Shows that nothing is delivered, so there is no event to wait for: a bounded wait in
    // which the event loop would have run a posted result.
    QTest::qWait(50);
    QVERIFY(!stillCurrent.load());
    QVERIFY(!delivered);
}

void TestJobTracker::everyTrackerSharesOnePool()
{
    JobTracker a;
    JobTracker b;
    QCOMPARE(&a.pool(), &b.pool());
    QCOMPARE(a.pool().threadCount(), WorkerPool::threadCount());
    QVERIFY(WorkerPool::threadCount() >= 2);
}

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
