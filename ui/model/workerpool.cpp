// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/model/workerpool.h"

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace ss::ui {

namespace {

// Workers run below the GUI thread. They are as many as the cores, so while an evaluation runs
// the GUI thread competes with them for a core; at 10^8 elements, with a real-time policy
// inherited from the process (chrt, as the benchmarks run), a woken GUI thread waited for a
// worker to finish its whole job: 3 s without a frame for 2 ms of its own work.
constexpr int kWorkerNiceIncrement = 5;

void lowerThisThread()
{
    int policy = 0;
    sched_param param{};
    if (pthread_getschedparam(pthread_self(), &policy, &param) != 0) return;
    if (policy == SCHED_FIFO || policy == SCHED_RR) {
        // One step below the GUI thread, or out of real time if there is no step below.
        if (param.sched_priority > sched_get_priority_min(policy)) {
            --param.sched_priority;
            pthread_setschedparam(pthread_self(), policy, &param);
        } else {
            param.sched_priority = 0;
            pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
        }
        return;
    }
    // On Linux a thread has its own nice value; raising it needs no privilege.
    const int nice = getpriority(PRIO_PROCESS, 0);
    setpriority(PRIO_PROCESS, 0, std::min(19, nice + kWorkerNiceIncrement));
}

// Runs `perThread` once on every worker of `pool`: each call waits until all have started, so
// no worker can take two of them.
void onEveryWorker(Executor& pool, const std::function<void()>& perThread)
{
    std::mutex mutex;
    std::condition_variable allStarted;
    int waiting = pool.threadCount();
    std::vector<std::shared_ptr<Job>> jobs;
    for (int i = 0; i < pool.threadCount(); ++i)
        jobs.push_back(pool.submit({}, [&](JobContext&) {
            perThread();
            std::unique_lock lock(mutex);
            if (--waiting == 0)
                allStarted.notify_all();
            else
                allStarted.wait(lock, [&] { return waiting == 0; });
        }));
    for (const auto& job : jobs)
        job->wait();
}

} // namespace

std::shared_ptr<Executor> WorkerPool::shared()
{
    static std::mutex mutex;
    static std::weak_ptr<Executor> current;
    const std::lock_guard lock(mutex);
    if (auto pool = current.lock()) return pool;
    // Not a process-lifetime static: the threads are joined when the last window and view are
    // gone, before QCoreApplication and static destructors run.
    // Under a process-count limit (a pids cgroup, RLIMIT_NPROC) the pool runs with the threads
    // the system gives it, and with none the jobs run on the thread that submits them: slower,
    // but the window works (it aborted on the pool's resource_exhausted).
    auto pool = std::make_shared<Executor>(threadCount(), /*inlineWithoutThreads=*/true);
    onEveryWorker(*pool, lowerThisThread);
    current = pool;
    return pool;
}

int WorkerPool::threadCount()
{
    return int(std::max(2u, std::thread::hardware_concurrency()));
}

} // namespace ss::ui
