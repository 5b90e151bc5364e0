// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench's pool runs below the GUI thread, so that drawing never waits for a worker to
// finish its job.
#include "ui/model/workerpool.h"

#include <QTest>

#include <condition_variable>
#include <mutex>
#include <pthread.h>
#include <sys/resource.h>
#include <vector>

using namespace ss;
using namespace ss::ui;

namespace {

/// A thread's place in the scheduler: real-time priority (0 for normal threads), then -nice.
/// Higher runs first.
std::pair<int, int> rank()
{
    int policy = 0;
    sched_param param{};
    pthread_getschedparam(pthread_self(), &policy, &param);
    const bool realTime = policy == SCHED_FIFO || policy == SCHED_RR;
    return {realTime ? param.sched_priority : 0, -getpriority(PRIO_PROCESS, 0)};
}

} // namespace

class TestWorkerPool : public QObject
{
    Q_OBJECT
private slots:
    void workersRunBelowTheGuiThread()
    {
        const std::pair<int, int> gui = rank();
        const auto pool = WorkerPool::shared();
        // One job per worker, each held until all have started, so every worker answers.
        std::mutex mutex;
        std::condition_variable allStarted;
        int waiting = pool->threadCount();
        std::vector<std::pair<int, int>> ranks;
        std::vector<std::shared_ptr<Job>> jobs;
        for (int i = 0; i < pool->threadCount(); ++i)
            jobs.push_back(pool->submit({}, [&](JobContext&) {
                std::unique_lock lock(mutex);
                ranks.push_back(rank());
                if (--waiting == 0)
                    allStarted.notify_all();
                else
                    allStarted.wait(lock, [&] { return waiting == 0; });
            }));
        for (const auto& job : jobs)
            job->wait();
        QCOMPARE(int(ranks.size()), pool->threadCount());
        for (const auto& worker : ranks)
            QVERIFY2(worker < gui, qPrintable(QStringLiteral("worker %1/%2, GUI %3/%4")
                                                  .arg(worker.first)
                                                  .arg(worker.second)
                                                  .arg(gui.first)
                                                  .arg(gui.second)));
    }
};

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
