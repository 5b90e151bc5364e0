// SPDX-License-Identifier: GPL-3.0-or-later
// The worker pool: jobs, cancellation by a newer job, parallelFor's chunking, errors and progress.
#include "core/error.h"
#include "core/executor.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <fstream>
#include <numeric>
#include <set>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ss;
using namespace std::chrono_literals;

class TestExecutor : public QObject
{
    Q_OBJECT
private slots:
    void parallelForCoversEveryIndexOnce_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("grain");
        QTest::newRow("1 thread") << 1 << qint64(1000) << qint64(7);
        QTest::newRow("2 threads") << 2 << qint64(100000) << qint64(64);
        QTest::newRow("4 threads, tiny n") << 4 << qint64(3) << qint64(1);
        QTest::newRow("4 threads, big grain") << 4 << qint64(1000) << qint64(10000);
        QTest::newRow("empty") << 2 << qint64(0) << qint64(1);
    }

    void parallelForCoversEveryIndexOnce()
    {
        QFETCH(int, threads);
        QFETCH(qint64, n);
        QFETCH(qint64, grain);
        Executor ex(threads);
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
        ex.parallelFor(n, grain, [&](std::int64_t b, std::int64_t e) {
            for (std::int64_t i = b; i < e; ++i)
                hits[std::size_t(i)].fetch_add(1);
        });
        for (const auto& h : hits)
            QCOMPARE(h.load(), 1);
    }

    void jobRunsOnAWorker()
    {
        Executor ex(2);
        std::thread::id worker;
        auto job = ex.submit("", [&](JobContext&) { worker = std::this_thread::get_id(); });
        QCOMPARE(job->wait(), Job::State::Finished);
        QVERIFY(worker != std::this_thread::get_id());
    }

    void nestedParallelForInsideJobs()
    {
        // Two jobs that each split work across the pool must not deadlock on a 2-thread pool.
        Executor ex(2);
        std::atomic<std::int64_t> sum{0};
        auto work = [&](JobContext& ctx) {
            ex.parallelFor(
                100000, 100,
                [&](std::int64_t b, std::int64_t e) {
                    std::int64_t s = 0;
                    for (std::int64_t i = b; i < e; ++i)
                        s += i;
                    sum.fetch_add(s);
                },
                &ctx);
        };
        auto a = ex.submit("a", work);
        auto b = ex.submit("b", work);
        QCOMPARE(a->wait(), Job::State::Finished);
        QCOMPARE(b->wait(), Job::State::Finished);
        QCOMPARE(sum.load(), 2 * (std::int64_t(99999) * 100000 / 2));
    }

    void newerJobCancelsOlder()
    {
        Executor ex(1);
        std::atomic<bool> started{false};
        std::atomic<int> chunks{0};
        auto slow = ex.submit("view", [&](JobContext& ctx) {
            started = true;
            started.notify_all();
            ex.parallelFor(
                1000, 1,
                [&](std::int64_t, std::int64_t) {
                    chunks.fetch_add(1);
                    std::this_thread::sleep_for(1ms);
                },
                &ctx);
        });
        started.wait(false);
        auto fresh = ex.submit("view", [](JobContext&) {});
        QCOMPARE(slow->wait(), Job::State::Cancelled);
        QCOMPARE(fresh->wait(), Job::State::Finished);
        QVERIFY(chunks.load() < 1000); // stopped between chunks, long before the end
    }

    void queuedJobDroppedUnstarted()
    {
        Executor ex(1);
        std::atomic<bool> release{false};
        auto blocker = ex.submit("", [&](JobContext&) { release.wait(false); });
        std::atomic<bool> ran{false};
        std::atomic<int> doneCalls{0};
        auto stale = ex.submit(
            "view", [&](JobContext&) { ran = true; },
            [&](Job& j) {
                QCOMPARE(j.state(), Job::State::Cancelled);
                doneCalls.fetch_add(1);
            });
        auto fresh = ex.submit("view", [](JobContext&) {});
        release = true;
        release.notify_all();
        QCOMPARE(stale->wait(), Job::State::Cancelled);
        QCOMPARE(fresh->wait(), Job::State::Finished);
        QCOMPARE(blocker->wait(), Job::State::Finished);
        QVERIFY(!ran);
        QCOMPARE(doneCalls.load(), 1);
    }

    void errorsPropagate()
    {
        Executor ex(2);
        bool caught = false;
        try {
            ex.parallelFor(1000, 1, [](std::int64_t b, std::int64_t) {
                if (b >= 500) throw OpError(ErrorCode::InvalidArgument, "boom");
            });
        } catch (const OpError& e) {
            caught = std::string(e.what()) == "boom";
        }
        QVERIFY(caught);
        auto job = ex.submit("", [](JobContext&) { throw OpError(ErrorCode::OutOfRange, "bad"); });
        QCOMPARE(job->wait(), Job::State::Failed);
        try {
            std::rethrow_exception(job->error());
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::OutOfRange);
        }
    }

    void progressReachesOne()
    {
        Executor ex(2);
        std::atomic<double> last{0};
        std::atomic<int> calls{0};
        auto job = ex.submit("", [&](JobContext& ctx) {
            ctx.setProgressSink([&](double f) {
                last = f;
                calls.fetch_add(1);
            });
            ctx.beginWork(100);
            ex.parallelFor(
                100, 1,
                [&](std::int64_t b, std::int64_t e) {
                    std::this_thread::sleep_for(2ms);
                    ctx.addWork(e - b);
                },
                &ctx);
        });
        QCOMPARE(job->wait(), Job::State::Finished);
        QCOMPARE(last.load(), 1.0);
        QVERIFY(calls.load() >= 1);
        QCOMPARE(job->context().progress(), 1.0);
    }

    void destructorCancelsQueuedJobs()
    {
        std::shared_ptr<Job> queued;
        {
            Executor ex(1);
            ex.submit("", [](JobContext&) { std::this_thread::sleep_for(20ms); });
            queued = ex.submit("view", [](JobContext&) {});
        }
        QCOMPARE(queued->state(), Job::State::Cancelled);
    }

    // The system may refuse threads: here an address-space limit (ulimit -v) leaves room for a
    // few thread stacks. The pool runs with the threads it got, and with none it is a clear
    // error; it used to abort or hang in its constructor. Runs in a child process, whose limit
    // and possible hang (alarm) cannot touch the test runner.
    void threadCreationFailureIsClean()
    {
#if defined(SLICESCOPE_ASAN)
        QSKIP("ASan reserves terabytes of address space, so no address-space limit can be set");
#endif
        auto addressSpace = [] {
            std::ifstream statm("/proc/self/statm");
            long pages = 0;
            statm >> pages;
            return rlim_t(pages) * rlim_t(sysconf(_SC_PAGE_SIZE));
        };
        // Runs check() in a child under a resource limit (-1 as the result: the limit failed).
        auto childRun = [](auto limit, auto check) {
            const pid_t pid = fork();
            if (pid == 0) {
                alarm(20); // a deadlock ends the child with SIGALRM
                if (!limit()) _exit(10);
                _exit(check());
            }
            int status = 0;
            waitpid(pid, &status, 0);
            return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
        };
        auto addressSpaceRoom = [&](rlim_t headroom) {
            return [=] {
                const rlimit limit{addressSpace() + headroom, RLIM_INFINITY};
                return setrlimit(RLIMIT_AS, &limit) == 0;
            };
        };
        // No new thread at all: RLIMIT_NPROC 0, which binds root only after giving up root (glibc
        // keeps freed stacks, so an address-space limit cannot refuse every thread).
        auto noThreads = [] {
            if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) return false;
            const rlimit limit{0, 0};
            return setrlimit(RLIMIT_NPROC, &limit) == 0;
        };
        // Room for a few 8 MiB stacks, not for 200.
        QCOMPARE(childRun(addressSpaceRoom(rlim_t(96) << 20),
                          [] {
                              Executor ex(200);
                              if (ex.threadCount() < 1 || ex.threadCount() >= 200) return 2;
                              std::atomic<std::int64_t> sum{0};
                              const auto job = ex.submit({}, [&](JobContext& ctx) {
                                  ex.parallelFor(
                                      1000, 1,
                                      [&](std::int64_t b, std::int64_t e) { sum += e - b; }, &ctx);
                              });
                              if (job->wait() != Job::State::Finished || sum != 1000) return 3;
                              return 0;
                          }),
                 0);
        // None: a resource_exhausted error, no abort.
        QCOMPARE(childRun(noThreads,
                          [] {
                              try {
                                  Executor ex(4);
                              } catch (const OpError& e) {
                                  return e.code() == ErrorCode::ResourceExhausted &&
                                                 std::string(e.what()).starts_with(
                                                     "could not start a worker thread")
                                             ? 0
                                             : 4;
                              }
                              return 5;
                          }),
                 0);
        // None, for a pool that may run inline (the GUI's): jobs and loops run on the caller.
        QCOMPARE(childRun(noThreads,
                          [] {
                              Executor ex(4, true);
                              if (ex.threadCount() != 0) return 6;
                              std::atomic<std::int64_t> sum{0};
                              const auto job = ex.submit("c", [&](JobContext& ctx) {
                                  ex.parallelFor(
                                      1000, 1,
                                      [&](std::int64_t b, std::int64_t e) { sum += e - b; }, &ctx);
                              });
                              // Done before submit() returned.
                              if (job->state() != Job::State::Finished || sum != 1000) return 7;
                              return job->wait() == Job::State::Finished ? 0 : 8;
                          }),
                 0);
    }
};

QTEST_APPLESS_MAIN(TestExecutor)
#include "tst_executor.moc"
