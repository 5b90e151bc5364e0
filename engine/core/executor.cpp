// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/executor.h"

#include "core/error.h"

#include <algorithm>
#include <new>
#include <system_error>

namespace ss {

namespace {
std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

void JobContext::throwIfCancelled() const
{
    if (isCancelled()) throw OpError(ErrorCode::Cancelled, "cancelled");
}

void JobContext::beginWork(std::int64_t total)
{
    m_total.store(std::max<std::int64_t>(total, 1));
    m_done.store(0);
    m_reportedFinished.store(false);
}

void JobContext::addWork(std::int64_t done)
{
    const std::int64_t now = m_done.fetch_add(done) + done;
    if (!m_sink) return;
    const std::int64_t total = m_total.load();
    const std::int64_t t = nowNs();
    std::int64_t last = m_lastReportNs.load();
    const bool finished = now >= total;
    if (finished) {
        if (m_reportedFinished.exchange(true)) return; // 1 is reported once
    } else if (t - last < 30'000'000 || !m_lastReportNs.compare_exchange_strong(last, t)) {
        return; // too soon, or another thread reports this instant
    }
    m_sink(std::min(1.0, double(now) / double(total)));
}

double JobContext::progress() const
{
    const std::int64_t total = m_total.load();
    return total > 0 ? std::min(1.0, double(m_done.load()) / double(total)) : 0.0;
}

Job::State Job::state() const
{
    std::lock_guard lock(m_mutex);
    return m_state;
}

Job::State Job::wait()
{
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_state != State::Queued && m_state != State::Running; });
    return m_state;
}

std::exception_ptr Job::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

Executor::Executor(int threads, bool inlineWithoutThreads)
{
    if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
    // The system may refuse threads (ulimit -v, a pids cgroup, RLIMIT_NPROC): the pool then runs
    // with those it got, and only a pool of none is an error. An exception escaping here would
    // destroy joinable threads and a condition variable they wait on (abort, or a hang).
    std::string refusal;
    try {
        m_threads.reserve(std::size_t(threads));
        for (int i = 0; i < threads; ++i)
            m_threads.emplace_back([this] { workerLoop(); });
    } catch (const std::system_error& e) {
        refusal = e.what();
    } catch (const std::bad_alloc&) {
        refusal = "out of memory";
    }
    if (m_threads.empty() && !inlineWithoutThreads)
        throw OpError(ErrorCode::ResourceExhausted,
                      "could not start a worker thread (" + refusal + ")");
}

Executor::~Executor()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        for (auto& [consumer, weak] : m_latestByConsumer)
            if (auto job = weak.lock()) job->context().cancel();
    }
    m_cv.notify_all();
    for (auto& t : m_threads)
        t.join();
}

void Executor::workerLoop()
{
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_stopping || !m_tasks.empty(); });
            if (m_tasks.empty())
                return; // stopping, and nothing left: queued jobs were run (cancelled) first
            task = std::move(m_tasks.front());
            m_tasks.pop_front();
        }
        task();
    }
}

void Executor::post(std::function<void()> task)
{
    {
        std::lock_guard lock(m_mutex);
        m_tasks.push_back(std::move(task));
    }
    m_cv.notify_one();
}

std::shared_ptr<Job> Executor::submit(const std::string& consumer,
                                      std::function<void(JobContext&)> work,
                                      std::function<void(Job&)> onDone)
{
    auto job = std::make_shared<Job>();
    job->m_work = std::move(work);
    job->m_onDone = std::move(onDone);
    {
        std::lock_guard lock(m_mutex);
        if (!consumer.empty()) {
            if (auto older = m_latestByConsumer[consumer].lock()) older->context().cancel();
            m_latestByConsumer[consumer] = job;
        }
        if (m_stopping) job->context().cancel();
        if (!m_threads.empty()) m_tasks.push_back([this, job] { runJob(job); });
    }
    if (m_threads.empty()) {
        runJob(job); // no worker could be started: the caller is the worker
        return job;
    }
    m_cv.notify_one();
    return job;
}

void Executor::runJob(const std::shared_ptr<Job>& job)
{
    Job::State final = Job::State::Finished;
    std::exception_ptr error;
    if (job->context().isCancelled()) {
        final = Job::State::Cancelled;
    } else {
        {
            std::lock_guard lock(job->m_mutex);
            job->m_state = Job::State::Running;
        }
        try {
            job->m_work(job->context());
        } catch (const OpError& e) {
            error = std::current_exception();
            final = e.code() == ErrorCode::Cancelled ? Job::State::Cancelled : Job::State::Failed;
        } catch (...) {
            error = std::current_exception();
            final = Job::State::Failed;
        }
        if (final == Job::State::Finished && job->context().isCancelled())
            final = Job::State::Cancelled;
    }
    {
        std::lock_guard lock(job->m_mutex);
        job->m_state = final;
        job->m_error = error;
    }
    if (job->m_onDone) job->m_onDone(*job);
    job->m_cv.notify_all();
    job->m_work = nullptr; // release captured inputs early
}

namespace {
struct ForState
{
    std::int64_t n = 0;
    std::int64_t chunk = 1;
    std::int64_t chunks = 0;
    const std::function<void(std::int64_t, std::int64_t)>* body = nullptr;
    JobContext* ctx = nullptr;
    std::atomic<std::int64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::condition_variable cv;
    std::int64_t completed = 0;
    std::exception_ptr error;

    // Claims and runs chunks until none are left. Safe to call after the caller has returned:
    // a late helper claims an index past the end and never touches `body`.
    void drain()
    {
        for (;;) {
            const std::int64_t c = next.fetch_add(1);
            if (c >= chunks) return;
            std::exception_ptr caught;
            if (!failed.load() && !(ctx && ctx->isCancelled())) {
                const std::int64_t b = c * chunk;
                try {
                    (*body)(b, std::min(n, b + chunk));
                } catch (...) {
                    caught = std::current_exception();
                    failed.store(true);
                }
            }
            std::lock_guard lock(mutex);
            if (caught && !error) error = caught;
            if (++completed == chunks) cv.notify_all();
        }
    }
};
} // namespace

void Executor::parallelFor(std::int64_t n, std::int64_t grain,
                           const std::function<void(std::int64_t, std::int64_t)>& body,
                           JobContext* ctx)
{
    if (n <= 0) return;
    if (ctx) ctx->throwIfCancelled();
    grain = std::max<std::int64_t>(grain, 1);
    const std::int64_t workers = std::max(1, threadCount());
    // Several chunks per worker balance uneven chunks and give cancellation points.
    std::int64_t chunk = std::max(grain, (n + workers * 8 - 1) / (workers * 8));
    const std::int64_t chunks = (n + chunk - 1) / chunk;
    if (chunks == 1 || workers == 1) {
        for (std::int64_t b = 0; b < n; b += chunk) {
            if (ctx) ctx->throwIfCancelled();
            body(b, std::min(n, b + chunk));
        }
        return;
    }
    auto state = std::make_shared<ForState>();
    state->n = n;
    state->chunk = chunk;
    state->chunks = chunks;
    state->body = &body;
    state->ctx = ctx;
    const std::int64_t helpers = std::min<std::int64_t>(workers - 1, chunks - 1);
    {
        std::lock_guard lock(m_mutex);
        // Helpers go to the front: they finish work already started before new jobs begin.
        for (std::int64_t i = 0; i < helpers; ++i)
            m_tasks.push_front([state] { state->drain(); });
    }
    m_cv.notify_all();
    state->drain();
    {
        std::unique_lock lock(state->mutex);
        state->cv.wait(lock, [&] { return state->completed == state->chunks; });
    }
    if (state->error) std::rethrow_exception(state->error);
    if (ctx) ctx->throwIfCancelled();
}

} // namespace ss
