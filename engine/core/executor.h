// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ss {

/// What a running job can see of its caller: a cancellation flag, checked between chunks, and a
/// progress sink. Thread-safe.
class JobContext
{
public:
    using ProgressSink = std::function<void(double fraction)>;

    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    /// Throws OpError(Cancelled) if cancel() was called.
    void throwIfCancelled() const;

    /// Called with a fraction in [0, 1], from any thread, at most every 30 ms (and once with 1).
    void setProgressSink(ProgressSink sink) { m_sink = std::move(sink); }
    /// Adds finished work units out of `total` announced with beginWork().
    void beginWork(std::int64_t total);
    void addWork(std::int64_t done);
    double progress() const;

private:
    std::atomic<bool> m_cancelled{false};
    std::atomic<std::int64_t> m_total{0};
    std::atomic<std::int64_t> m_done{0};
    std::atomic<std::int64_t> m_lastReportNs{0};
    std::atomic<bool> m_reportedFinished{false};
    ProgressSink m_sink;
};

/// A job submitted to the executor. wait() blocks until it has run (or was dropped because a
/// newer job for the same consumer cancelled it before it started).
class Job
{
public:
    enum class State { Queued, Running, Finished, Failed, Cancelled };

    JobContext& context() { return m_context; }
    State state() const;
    /// Blocks until the job has left the queue and run; returns its final state.
    State wait();
    /// The exception the work threw (Failed state), else null.
    std::exception_ptr error() const;

private:
    friend class Executor;
    JobContext m_context;
    std::function<void(JobContext&)> m_work;
    std::function<void(Job&)> m_onDone;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    State m_state = State::Queued;
    std::exception_ptr m_error;
};

/// A small pool of worker threads. Jobs run on a worker; inside a job, parallelFor() splits
/// large loops across the pool with the calling thread taking part, so nothing ever waits on a
/// task that has not started.
class Executor
{
public:
    /// threads <= 0: one per hardware thread. If the system refuses some threads the pool runs
    /// with fewer (threadCount() says how many); if it refuses all, throws
    /// OpError(resource_exhausted), unless `inlineWithoutThreads`: then every job runs on the
    /// thread that submits it, before submit() returns (a GUI under a process-count limit
    /// still works, one job at a time, instead of aborting).
    explicit Executor(int threads = 0, bool inlineWithoutThreads = false);
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    int threadCount() const { return int(m_threads.size()); }

    /// Runs work(context) on a worker. A newer job submitted with the same non-empty `consumer`
    /// cancels this one. onDone (optional) runs on the worker after the work, in every final
    /// state, including when the job is dropped unstarted.
    std::shared_ptr<Job> submit(const std::string& consumer, std::function<void(JobContext&)> work,
                                std::function<void(Job&)> onDone = {});

    /// Calls body(begin, end) over [0, n) in chunks of at least `grain` items, spread over the
    /// pool and the calling thread. Cancellation (ctx) is checked between chunks; the first
    /// exception thrown by a chunk (or OpError(Cancelled)) is rethrown here after all started
    /// chunks have finished.
    void parallelFor(std::int64_t n, std::int64_t grain,
                     const std::function<void(std::int64_t, std::int64_t)>& body,
                     JobContext* ctx = nullptr);

private:
    void workerLoop();
    void runJob(const std::shared_ptr<Job>& job);
    void post(std::function<void()> task);

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::function<void()>> m_tasks;
    std::map<std::string, std::weak_ptr<Job>> m_latestByConsumer;
    bool m_stopping = false;
};

} // namespace ss
